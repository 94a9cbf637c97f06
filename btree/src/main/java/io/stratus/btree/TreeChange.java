package io.stratus.btree;

import java.util.Arrays;
import java.util.Objects;

/**
 * One change of a B-link tree as a checkpoint applies it (paper 000, section 4.4): set a key to a
 * value, or remove it. Both kinds are idempotent, so applying a batch of changes twice leaves the
 * tree as applying it once. Keys and values are copied in and out.
 *
 * <p><b>Write stamps (Thomas write rule).</b> A change with a write stamp ({@code stamp > 0}) is
 * applied only where it is not older than what it would replace: over an absent key without a
 * tombstone, an entry without a stamp, or an entry or tombstone whose stamp is at most its own. A
 * PUT leaves its stamp on the entry; a stamped DELETE leaves its stamp as the key's tombstone in
 * the leaf (whether or not the key was present), so a PUT older than the delete that arrives later
 * is dropped and a newer one creates the key again. A change with stamp 0 applies unconditionally
 * and leaves neither a stamp nor a tombstone. So the order in which stamped changes of one key
 * arrive does not matter, for as long as the leaf keeps the tombstone: the caller decides when
 * none older can arrive any more ({@link BLinkTree#applySorted(io.stratus.pagemanager.PageStore,
 * java.util.List, long)}).
 *
 * @param kind PUT (insert or replace) or DELETE
 * @param key the entry's key
 * @param value the new value for PUT; empty for DELETE
 * @param stamp the write stamp of the committed change (non-negative; 0: none)
 */
public record TreeChange(Kind kind, byte[] key, byte[] value, long stamp) {
  private static final byte[] NONE = new byte[0];

  /** What a change does. */
  public enum Kind {
    /** Insert the key or replace its value. */
    PUT,
    /** Remove the key if present. */
    DELETE
  }

  public TreeChange {
    if (stamp < 0) {
      throw new IllegalArgumentException("a write stamp must not be negative: " + stamp);
    }
    Objects.requireNonNull(kind, "kind");
    key = Objects.requireNonNull(key, "key").clone();
    value = kind == Kind.DELETE ? NONE : Objects.requireNonNull(value, "value").clone();
  }

  /** Sets {@code key} to {@code value}, unconditionally. */
  public static TreeChange put(byte[] key, byte[] value) {
    return new TreeChange(Kind.PUT, key, value, 0);
  }

  /** Sets {@code key} to {@code value} unless the entry has a newer write stamp. */
  public static TreeChange put(byte[] key, byte[] value, long stamp) {
    return new TreeChange(Kind.PUT, key, value, stamp);
  }

  /** Removes {@code key}, unconditionally. */
  public static TreeChange delete(byte[] key) {
    return new TreeChange(Kind.DELETE, key, NONE, 0);
  }

  /** Removes {@code key} unless its entry has a newer write stamp. */
  public static TreeChange delete(byte[] key, long stamp) {
    return new TreeChange(Kind.DELETE, key, NONE, stamp);
  }

  /**
   * Whether this change replaces a state of its key written with {@code currentStamp} (0: an
   * absent key or an entry without a stamp): the Thomas write rule of the class comment.
   */
  public boolean supersedes(long currentStamp) {
    return stamp == 0 || stamp >= currentStamp;
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
        && Arrays.equals(value, c.value)
        && stamp == c.stamp;
  }

  @Override
  public int hashCode() {
    return Objects.hash(kind, Arrays.hashCode(key), Arrays.hashCode(value), stamp);
  }

  @Override
  public String toString() {
    return "TreeChange["
        + kind
        + " "
        + Arrays.toString(key)
        + (kind == Kind.PUT ? " = " + value.length + " bytes" : "")
        + (stamp == 0 ? "" : " @" + stamp)
        + "]";
  }
}
