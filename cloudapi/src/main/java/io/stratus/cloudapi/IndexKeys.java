package io.stratus.cloudapi;

import java.util.HexFormat;
import java.util.Objects;

/**
 * Encodings of keys as {@link IndexItem} values whose string order (UTF-8 byte order, as index
 * services compare) is the order of what they encode, so that range queries on the encoded values
 * are range queries on the keys.
 *
 * <ul>
 *   <li>{@link #encode(byte[])}: byte strings (a B-link tree's keys) in unsigned lexicographic
 *       order, a shorter prefix first, as two lower-case hex digits per byte. Hex and not a denser
 *       base: its digits {@code 0-9a-f} ascend in ASCII, every byte takes the same two characters,
 *       and a prefix of the bytes encodes to a prefix of the string, which together keep the order;
 *       the cost is twice the length of the key (an index value holds keys of up to half of {@link
 *       IndexLimits#maxAttributeValueLength()} bytes).
 *   <li>{@link #encode(long)}: signed longs in numeric order, as 16 hex digits of the value with its
 *       sign bit flipped.
 * </ul>
 *
 * <p>Stateless and thread-safe.
 */
public final class IndexKeys {
  private static final HexFormat HEX = HexFormat.of();

  private IndexKeys() {}

  /** {@code key} as a value that sorts as the key does (unsigned, lexicographic). */
  public static String encode(byte[] key) {
    return HEX.formatHex(Objects.requireNonNull(key, "key"));
  }

  /** The bytes {@link #encode(byte[])} made {@code value} of. */
  public static byte[] decode(String value) {
    Objects.requireNonNull(value, "value");
    try {
      return HEX.parseHex(value);
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException(
          "not an encoded key (an even number of hex digits): \"" + value + "\"", e);
    }
  }

  /** {@code n} as a 16-digit value that sorts as the number does. */
  public static String encode(long n) {
    return HEX.toHexDigits(n ^ Long.MIN_VALUE);
  }

  /** The number {@link #encode(long)} made {@code value} of. */
  public static long decodeLong(String value) {
    Objects.requireNonNull(value, "value");
    if (value.length() != 16) {
      throw new IllegalArgumentException(
          "not an encoded number (16 hex digits): \"" + value + "\"");
    }
    try {
      return HexFormat.fromHexDigitsToLong(value) ^ Long.MIN_VALUE;
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException("not an encoded number: \"" + value + "\"", e);
    }
  }
}
