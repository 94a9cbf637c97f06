package io.stratus.btree;

import java.util.Arrays;
import java.util.Objects;

/**
 * One change of a B-link tree as a checkpoint applies it (paper 000, section 4.4): set a key to a
 * value, or remove it. Both kinds are idempotent, so applying a batch of changes twice leaves the
 * tree as applying it once. Keys and values are copied in and out.
 *
 * @param kind PUT (insert or replace) or DELETE
 * @param key the entry's key
 * @param value the new value for PUT; empty for DELETE
 */
public record TreeChange(Kind kind, byte[] key, byte[] value) {
  private static final byte[] NONE = new byte[0];

  /** What a change does. */
  public enum Kind {
    /** Insert the key or replace its value. */
    PUT,
    /** Remove the key if present. */
    DELETE
  }

  public TreeChange {
    Objects.requireNonNull(kind, "kind");
    key = Objects.requireNonNull(key, "key").clone();
    value = kind == Kind.DELETE ? NONE : Objects.requireNonNull(value, "value").clone();
  }

  /** Sets {@code key} to {@code value}. */
  public static TreeChange put(byte[] key, byte[] value) {
    return new TreeChange(Kind.PUT, key, value);
  }

  /** Removes {@code key}. */
  public static TreeChange delete(byte[] key) {
    return new TreeChange(Kind.DELETE, key, NONE);
  }

  @Override
  public byte[] key() {
    return key.clone();
  }

  @Override
  public byte[] value() {
    return value.clone();
  }

  /** The key without a copy, for sorting and routing inside this package. */
  byte[] keyRaw() {
    return key;
  }

  /** The value without a copy, for building pages inside this package. */
  byte[] valueRaw() {
    return value;
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof TreeChange c
        && kind == c.kind
        && Arrays.equals(key, c.key)
        && Arrays.equals(value, c.value);
  }

  @Override
  public int hashCode() {
    return Objects.hash(kind, Arrays.hashCode(key), Arrays.hashCode(value));
  }

  @Override
  public String toString() {
    return "TreeChange["
        + kind
        + " "
        + Arrays.toString(key)
        + (kind == Kind.PUT ? " = " + value.length + " bytes" : "")
        + "]";
  }
}
