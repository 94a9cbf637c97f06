package io.stratus.core;

import java.util.Objects;
import java.util.Optional;
import org.jspecify.annotations.Nullable;

/**
 * A range of keys for scans and index probes: an optional lower bound and an optional upper bound,
 * each inclusive or exclusive. Immutable. Build with {@link #all()}, {@link #closed}, {@link
 * #halfOpen}, {@link #atLeast}, {@link #lessThan}, {@link #prefix} or {@link #of}.
 */
public final class KeyRange {
  private static final KeyRange ALL = new KeyRange(null, false, null, false);

  private final @Nullable Key lower; // null = unbounded
  private final boolean lowerInclusive;
  private final @Nullable Key upper; // null = unbounded
  private final boolean upperInclusive;

  private KeyRange(
      @Nullable Key lower, boolean lowerInclusive, @Nullable Key upper, boolean upperInclusive) {
    this.lower = lower;
    this.lowerInclusive = lowerInclusive;
    this.upper = upper;
    this.upperInclusive = upperInclusive;
  }

  /** Every key. */
  public static KeyRange all() {
    return ALL;
  }

  /** {@code lo <= key <= hi}. */
  public static KeyRange closed(Key lo, Key hi) {
    return of(lo, true, hi, true);
  }

  /** {@code lo <= key < hi}. */
  public static KeyRange halfOpen(Key lo, Key hi) {
    return of(lo, true, hi, false);
  }

  /** {@code lo <= key}. */
  public static KeyRange atLeast(Key lo) {
    return new KeyRange(Args.notNull(lo, "lo"), true, null, false);
  }

  /** {@code key < hi}. */
  public static KeyRange lessThan(Key hi) {
    return new KeyRange(null, false, Args.notNull(hi, "hi"), false);
  }

  /**
   * Every key that begins with {@code prefix}'s bytes; e.g. all composites whose first component is
   * a given string, when the prefix is that string's key.
   */
  public static KeyRange prefix(Key prefix) {
    byte[] p = prefix.toBytes();
    int i = p.length - 1;
    while (i >= 0 && p[i] == (byte) 0xFF) {
      i--;
    }
    if (i < 0) {
      return atLeast(prefix); // all 0xFF (or empty): every key from the prefix up
    }
    byte[] next = java.util.Arrays.copyOf(p, i + 1);
    next[i]++;
    return halfOpen(prefix, Key.wrap(next));
  }

  /** A range with both bounds given (either may be null for unbounded). */
  public static KeyRange of(
      @Nullable Key lo, boolean loInclusive, @Nullable Key hi, boolean hiInclusive) {
    return new KeyRange(lo, lo != null && loInclusive, hi, hi != null && hiInclusive);
  }

  public Optional<Key> lower() {
    return Optional.ofNullable(lower);
  }

  public boolean lowerInclusive() {
    return lowerInclusive;
  }

  public Optional<Key> upper() {
    return Optional.ofNullable(upper);
  }

  public boolean upperInclusive() {
    return upperInclusive;
  }

  /** Whether {@code key} lies in the range. */
  public boolean contains(Key key) {
    if (lower != null) {
      int c = key.compareTo(lower);
      if (c < 0 || (c == 0 && !lowerInclusive)) {
        return false;
      }
    }
    if (upper != null) {
      int c = key.compareTo(upper);
      return c < 0 || (c == 0 && upperInclusive);
    }
    return true;
  }

  @Override
  public boolean equals(Object o) {
    if (!(o instanceof KeyRange)) {
      return false;
    }
    KeyRange r = (KeyRange) o;
    return Objects.equals(lower, r.lower)
        && lowerInclusive == r.lowerInclusive
        && Objects.equals(upper, r.upper)
        && upperInclusive == r.upperInclusive;
  }

  @Override
  public int hashCode() {
    return Objects.hash(lower, lowerInclusive, upper, upperInclusive);
  }

  @Override
  public String toString() {
    return (lower == null ? "(-inf" : (lowerInclusive ? "[" : "(") + lower)
        + ", "
        + (upper == null ? "+inf)" : upper + (upperInclusive ? "]" : ")"));
  }
}
