package io.stratus.cloudapi;

/**
 * The modes of the lock service: shared and exclusive, and, where the service has the ability
 * ({@link SupportsIntentionLocks}), insert intention.
 *
 * <p>Compatibility: shared with shared, intention with intention, nothing else. A client holds at
 * most one mode on a URI; asking for another mode than the one it holds asks for both at once,
 * which is {@link #and} of the two.
 */
public enum LockMode {
  /** Many clients may hold it at once; excludes {@link #EXCLUSIVE} and {@link #INTENTION}. */
  SHARED,
  /** One client holds it; excludes every other lock on the URI. */
  EXCLUSIVE,
  /**
   * An insert intention: many clients may hold it at once; excludes {@link #SHARED} and {@link
   * #EXCLUSIVE}. Taken by inserts on the fence of the gap they insert into, so that inserts into
   * one gap pass one another while a reader of the gap (holding it shared) excludes them.
   */
  INTENTION;

  /** Whether two clients may hold {@code this} and {@code other} on one URI at once. */
  public boolean compatibleWith(LockMode other) {
    return this == other && this != EXCLUSIVE;
  }

  /**
   * The weakest mode that gives what {@code this} and {@code other} each give: the mode itself
   * when they are equal, else {@link #EXCLUSIVE} (no other mode excludes what both exclude).
   */
  public LockMode and(LockMode other) {
    return this == other ? this : EXCLUSIVE;
  }

  /** Whether holding {@code this} gives at least what holding {@code other} gives. */
  public boolean covers(LockMode other) {
    return this == other || this == EXCLUSIVE;
  }
}
