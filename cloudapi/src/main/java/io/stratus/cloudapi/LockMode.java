package io.stratus.cloudapi;

/** The two lock modes of the lock service. */
public enum LockMode {
  /** Many clients may hold it at once; excludes {@link #EXCLUSIVE}. */
  SHARED,
  /** One client holds it; excludes every other lock on the URI. */
  EXCLUSIVE
}
