package io.stratus.cloudapi;

import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.Comparator;
import java.util.Objects;
import java.util.Optional;

/**
 * The order every {@link IndexService} implementation sorts by, written once: an item's place in
 * the order of one attribute is its <em>sort key</em>, the attribute's value, the separator
 * U+0001, then the item name. Values and names hold no control characters ({@link IndexLimits}
 * rejects them), so comparing sort keys in UTF-8 byte order compares by value first and by item
 * name among equal values, and a range of values is one contiguous range of sort keys. A service
 * that sorts by one string per entry (a DynamoDB sort key, a sorted map) thus gives the order and
 * the tie-breaking the contract asks for.
 *
 * <p>Continuation tokens are the last returned item's sort key, Base64url-encoded, so a page
 * continues strictly after that item whatever was written in between. Stateless and thread-safe.
 */
public final class IndexSortKeys {
  /** Separates value and item name in a sort key; below every character a value may hold. */
  public static final char SEPARATOR = '\u0001';

  /**
   * Above the separator and below every character a value may hold: {@code v + AFTER_VALUE} sorts
   * after every sort key whose value is {@code v} and before every larger value.
   */
  static final char AFTER_VALUE = '\u0002';

  /** Ascending UTF-8 byte order, i.e. code point order ({@code String.compareTo} is UTF-16). */
  public static final Comparator<String> UTF8_ORDER = IndexSortKeys::compareUtf8;

  private IndexSortKeys() {}

  /** The sort key of an item whose attribute has {@code value}. */
  public static String sortKey(String value, String itemName) {
    return value + SEPARATOR + itemName;
  }

  /** The value part of a sort key. */
  public static String valueOf(String sortKey) {
    return sortKey.substring(0, separatorAt(sortKey));
  }

  /** The item-name part of a sort key. */
  public static String itemNameOf(String sortKey) {
    return sortKey.substring(separatorAt(sortKey) + 1);
  }

  /**
   * The smallest sort key in the query's range, inclusive, or empty when the range is unbounded
   * below (also for "at least the empty value", which every sort key is: services such as
   * DynamoDB refuse an empty key in a condition). It is never itself a sort key, so "at least"
   * and "above" it select the same entries.
   */
  public static Optional<String> lowest(IndexQuery query) {
    return query
        .lower()
        .filter(b -> !(b.inclusive() && b.value().isEmpty()))
        .map(b -> b.inclusive() ? b.value() : b.value() + AFTER_VALUE);
  }

  /**
   * The largest sort key in the query's range, inclusive, or empty when the range is unbounded
   * above. It is never itself a sort key, so "at most" and "below" it select the same entries.
   */
  public static Optional<String> highest(IndexQuery query) {
    return query.upper().map(b -> b.inclusive() ? b.value() + AFTER_VALUE : b.value());
  }

  /**
   * Whether the query's bounds leave no value between them (e.g. {@code > "b"} and {@code < "a"},
   * or {@code < ""}); implementations answer such a query with an empty page and no request.
   */
  public static boolean isEmptyRange(IndexQuery query) {
    Optional<String> lo = lowest(query);
    Optional<String> hi = highest(query);
    if (hi.isPresent() && hi.get().isEmpty()) {
      return true;
    }
    return lo.isPresent() && hi.isPresent() && compareUtf8(lo.get(), hi.get()) >= 0;
  }

  /** The token that continues after the item with {@code sortKey}. */
  public static String token(String sortKey) {
    return Base64.getUrlEncoder()
        .withoutPadding()
        .encodeToString(sortKey.getBytes(StandardCharsets.UTF_8));
  }

  /**
   * The sort key a token continues after.
   *
   * @throws BadRequestException when {@code token} was not made by {@link #token}
   */
  public static String fromToken(String token) {
    Objects.requireNonNull(token, "token");
    String sortKey;
    try {
      sortKey = new String(Base64.getUrlDecoder().decode(token), StandardCharsets.UTF_8);
    } catch (IllegalArgumentException e) {
      throw invalidToken(token);
    }
    int sep = sortKey.indexOf(SEPARATOR);
    if (sep < 0 || sep == sortKey.length() - 1) {
      throw invalidToken(token);
    }
    return sortKey;
  }

  /** Compares in UTF-8 byte order, which is code point order. */
  public static int compareUtf8(String a, String b) {
    int i = 0;
    int j = 0;
    while (i < a.length() && j < b.length()) {
      int ca = a.codePointAt(i);
      int cb = b.codePointAt(j);
      if (ca != cb) {
        return Integer.compare(ca, cb);
      }
      i += Character.charCount(ca);
      j += Character.charCount(cb);
    }
    return Integer.compare(a.length() - i, b.length() - j);
  }

  private static int separatorAt(String sortKey) {
    int i = sortKey.indexOf(SEPARATOR);
    if (i < 0) {
      throw new IllegalArgumentException("not a sort key: no separator in \"" + sortKey + "\"");
    }
    return i;
  }

  private static BadRequestException invalidToken(String token) {
    return new BadRequestException(
        "not a continuation token of this index service: \""
            + (token.length() > 40 ? token.substring(0, 40) + "..." : token)
            + "\"; pass the nextToken of the previous page of the same query");
  }
}
