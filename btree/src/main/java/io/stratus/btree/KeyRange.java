package io.stratus.btree;

import io.stratus.pagemanager.Keys;
import io.stratus.pagemanager.Page;
import java.util.Arrays;
import java.util.Objects;
import java.util.Optional;
import org.jspecify.annotations.Nullable;

/**
 * A range of keys in {@link Keys#ORDER} (unsigned lexicographic): each end is unbounded, inclusive
 * or exclusive. Immutable; the bounds are copied in and out, so a range can be shared between
 * threads and reused for many scans.
 */
public final class KeyRange {
  private static final KeyRange ALL = new KeyRange(null, false, null, false);

  private final byte @Nullable [] lower; // null = unbounded
  private final boolean lowerInclusive;
  private final byte @Nullable [] upper; // null = unbounded
  private final boolean upperInclusive;

  private KeyRange(
      byte @Nullable [] lower,
      boolean lowerInclusive,
      byte @Nullable [] upper,
      boolean upperInclusive) {
    this.lower = lower;
    this.lowerInclusive = lower != null && lowerInclusive;
    this.upper = upper;
    this.upperInclusive = upper != null && upperInclusive;
  }

  /**
   * A range with the given bounds; a null bound is unbounded (its inclusive flag is ignored).
   */
  public static KeyRange of(
      byte @Nullable [] lower,
      boolean lowerInclusive,
      byte @Nullable [] upper,
      boolean upperInclusive) {
    return new KeyRange(
        lower == null ? null : lower.clone(), lowerInclusive,
        upper == null ? null : upper.clone(), upperInclusive);
  }

  /** Every key. */
  public static KeyRange all() {
    return ALL;
  }

  /** [lower, upper]. */
  public static KeyRange closed(byte[] lower, byte[] upper) {
    return of(req(lower), true, req(upper), true);
  }

  /** [lower, upper). */
  public static KeyRange closedOpen(byte[] lower, byte[] upper) {
    return of(req(lower), true, req(upper), false);
  }

  /** (lower, upper). */
  public static KeyRange open(byte[] lower, byte[] upper) {
    return of(req(lower), false, req(upper), false);
  }

  /** (lower, upper]. */
  public static KeyRange openClosed(byte[] lower, byte[] upper) {
    return of(req(lower), false, req(upper), true);
  }

  /** [lower, +inf). */
  public static KeyRange atLeast(byte[] lower) {
    return of(req(lower), true, null, false);
  }

  /** (lower, +inf). */
  public static KeyRange greaterThan(byte[] lower) {
    return of(req(lower), false, null, false);
  }

  /** (-inf, upper]. */
  public static KeyRange atMost(byte[] upper) {
    return of(null, false, req(upper), true);
  }

  /** (-inf, upper). */
  public static KeyRange lessThan(byte[] upper) {
    return of(null, false, req(upper), false);
  }

  /** Exactly {@code key}. */
  public static KeyRange singleton(byte[] key) {
    return closed(key, key);
  }

  /**
   * Every key that starts with {@code prefix}: [prefix, successor) where the successor is the
   * prefix without its trailing 0xFF bytes and with its last byte incremented (unbounded when the
   * prefix is empty or all 0xFF).
   */
  public static KeyRange prefix(byte[] prefix) {
    return of(req(prefix), true, prefixSuccessor(prefix), false);
  }

  /** The smallest key greater than every key starting with {@code prefix}, or null if none. */
  static byte @Nullable [] prefixSuccessor(byte[] prefix) {
    int end = prefix.length;
    while (end > 0 && prefix[end - 1] == (byte) 0xFF) {
      end--;
    }
    if (end == 0) {
      return null;
    }
    byte[] s = Arrays.copyOf(prefix, end);
    s[end - 1]++;
    return s;
  }

  private static byte[] req(byte[] bound) {
    return Objects.requireNonNull(bound, "bound");
  }

  /** The lower bound (a copy), empty when unbounded. */
  public Optional<byte[]> lowerBound() {
    return lower == null ? Optional.empty() : Optional.of(lower.clone());
  }

  public boolean isLowerInclusive() {
    return lowerInclusive;
  }

  /** The upper bound (a copy), empty when unbounded. */
  public Optional<byte[]> upperBound() {
    return upper == null ? Optional.empty() : Optional.of(upper.clone());
  }

  public boolean isUpperInclusive() {
    return upperInclusive;
  }

  /** Whether {@code key} lies in the range. */
  public boolean contains(byte[] key) {
    return !isBelowLower(key) && !isAboveUpper(key);
  }

  /** Whether no key can lie in the range. */
  public boolean isEmpty() {
    if (lower == null || upper == null) {
      return false;
    }
    int c = Keys.compare(lower, upper);
    return c > 0 || (c == 0 && !(lowerInclusive && upperInclusive));
  }

  // ---- package-private, copy-free checks for cursors ----

  byte @Nullable [] lowerRaw() {
    return lower;
  }

  byte @Nullable [] upperRaw() {
    return upper;
  }

  boolean isBelowLower(byte[] key) {
    if (lower == null) {
      return false;
    }
    int c = Keys.compare(key, lower);
    return c < 0 || (c == 0 && !lowerInclusive);
  }

  boolean isAboveUpper(byte[] key) {
    if (upper == null) {
      return false;
    }
    int c = Keys.compare(key, upper);
    return c > 0 || (c == 0 && !upperInclusive);
  }

  /** Whether the i-th key of {@code page} is beyond the upper bound. */
  boolean isAboveUpperAt(Page page, int i) {
    if (upper == null) {
      return false;
    }
    int c = page.compareKeyAt(i, upper);
    return c > 0 || (c == 0 && !upperInclusive);
  }

  /** Whether the i-th key of {@code page} is below the lower bound. */
  boolean isBelowLowerAt(Page page, int i) {
    if (lower == null) {
      return false;
    }
    int c = page.compareKeyAt(i, lower);
    return c < 0 || (c == 0 && !lowerInclusive);
  }

  /**
   * Whether every key at or above {@code bound} is beyond the upper bound, i.e. an ascending scan
   * can stop at a node whose (exclusive) high key is {@code bound}.
   */
  boolean endsBefore(byte[] bound) {
    if (upper == null) {
      return false;
    }
    int c = Keys.compare(bound, upper);
    return c > 0 || (c == 0 && !upperInclusive);
  }

  /**
   * Whether no key below {@code bound} is in the range, i.e. a descending scan can stop at a node
   * whose (inclusive) low key is {@code bound}.
   */
  boolean startsAtOrAfter(byte[] bound) {
    if (lower == null) {
      return bound.length == 0;
    }
    return Keys.compare(bound, lower) <= 0;
  }

  @Override
  public boolean equals(Object o) {
    if (!(o instanceof KeyRange)) {
      return false;
    }
    KeyRange r = (KeyRange) o;
    return Arrays.equals(lower, r.lower)
        && lowerInclusive == r.lowerInclusive
        && Arrays.equals(upper, r.upper)
        && upperInclusive == r.upperInclusive;
  }

  @Override
  public int hashCode() {
    return Objects.hash(
        Arrays.hashCode(lower), lowerInclusive, Arrays.hashCode(upper), upperInclusive);
  }

  @Override
  public String toString() {
    return (lower == null ? "(-inf" : (lowerInclusive ? "[" : "(") + hex(lower))
        + ", "
        + (upper == null ? "+inf)" : hex(upper) + (upperInclusive ? "]" : ")"));
  }

  private static String hex(byte[] b) {
    StringBuilder s = new StringBuilder("0x");
    for (byte x : b) {
      s.append(String.format("%02x", x & 0xFF));
    }
    return s.toString();
  }
}
