package io.stratus.core;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.UUID;

/**
 * A record key or index search key: an immutable byte string compared as unsigned bytes, the one
 * order of the B-link trees ({@code io.stratus.pagemanager.Keys#ORDER}).
 *
 * <p><b>Why order-preserving encodings.</b> Scans and range probes walk the trees in byte order,
 * so the factories encode values such that byte order equals the values' natural order:
 *
 * <ul>
 *   <li>{@link #of(long)}, {@link #ofInt(int)}: big-endian two's complement with the sign bit
 *       flipped (8 or 4 bytes), so negative numbers sort before positive ones. The two widths are
 *       different keys, so the 4-byte form has its own name: {@code Key.of(1)} and {@code
 *       Key.of(1L)} are the same (8-byte) key, {@code Key.ofInt(1)} another;
 *   <li>{@link #of(String)}: UTF-8 (whose byte order is code-point order) with each 0x00 byte
 *       escaped as 0x00 0xFF, terminated by 0x00 0x01. The terminator sorts below every escaped or
 *       ordinary continuation, so a string sorts before its extensions even inside a composite.
 *       Note: code-point order differs from {@link String#compareTo} (UTF-16 order) only for
 *       supplementary characters against U+E000..U+FFFF;
 *   <li>{@link #of(UUID)}: the 16 bytes with each half's sign bit flipped, matching {@link
 *       UUID#compareTo} (which compares the halves as signed longs);
 *   <li>{@link #ofBytes(byte[])}: the bytes unchanged; not self-delimiting, so use it only as the
 *       last component of a composite ({@link KeyBuilder#addBytes} escapes for other positions).
 * </ul>
 *
 * <p>{@link #composite} and {@link KeyBuilder} concatenate components; because each fixed-width or
 * terminated component is self-delimiting, a composite sorts by its first component, then the next.
 * {@link #decoder()} reads components back in the order they were appended.
 */
public final class Key implements Comparable<Key> {
  private static final Key EMPTY = new Key(new byte[0]);

  private final byte[] bytes;

  private Key(byte[] bytes) {
    this.bytes = bytes;
  }

  /** The empty key: sorts before every other key. */
  public static Key empty() {
    return EMPTY;
  }

  /** A key of exactly these bytes (copied). */
  public static Key ofBytes(byte[] bytes) {
    return new Key(bytes.clone());
  }

  /** A long (or an int, widened) in 8 order-preserving bytes. */
  public static Key of(long value) {
    return new KeyBuilder().add(value).build();
  }

  /**
   * An int in 4 order-preserving bytes: a compact key that is not equal to {@link #of(long)} of
   * the same number; use one form for all keys of a collection.
   */
  public static Key ofInt(int value) {
    return new KeyBuilder().addInt(value).build();
  }

  /** A string, UTF-8 with escaped NULs and a terminator (see the class comment). */
  public static Key of(String value) {
    return new KeyBuilder().add(value).build();
  }

  /** A UUID in 16 bytes ordered as {@link UUID#compareTo}. */
  public static Key of(UUID value) {
    return new KeyBuilder().add(value).build();
  }

  /** The concatenation of {@code parts}, which sorts by the first part, then the next, ... */
  public static Key composite(Key... parts) {
    KeyBuilder b = new KeyBuilder();
    for (Key p : parts) {
      b.add(p);
    }
    return b.build();
  }

  /** A builder that appends components. */
  public static KeyBuilder builder() {
    return new KeyBuilder();
  }

  /** Wraps bytes that nobody else holds (no copy); for this package's decoding paths. */
  static Key wrap(byte[] bytes) {
    return new Key(bytes);
  }

  /** A fresh copy of the bytes. */
  public byte[] toBytes() {
    return bytes.clone();
  }

  /** The bytes without a copy: callers in this package must not change them. */
  byte[] bytesUnsafe() {
    return bytes;
  }

  public int length() {
    return bytes.length;
  }

  /** Whether this key begins with {@code prefix}'s bytes. */
  public boolean startsWith(Key prefix) {
    return bytes.length >= prefix.bytes.length
        && Arrays.equals(bytes, 0, prefix.bytes.length, prefix.bytes, 0, prefix.bytes.length);
  }

  /** A reader of this key's components, in the order they were appended. */
  public KeyDecoder decoder() {
    return new KeyDecoder(bytes);
  }

  @Override
  public int compareTo(Key o) {
    return Arrays.compareUnsigned(bytes, o.bytes);
  }

  @Override
  public boolean equals(Object o) {
    return this == o || (o instanceof Key && Arrays.equals(bytes, ((Key) o).bytes));
  }

  @Override
  public int hashCode() {
    return Arrays.hashCode(bytes);
  }

  /** The bytes in lower-case hex. */
  @Override
  public String toString() {
    return HexFormat.of().formatHex(bytes);
  }

  /** {@code raw} with each 0x00 escaped as 0x00 0xFF and the terminator 0x00 0x01 appended. */
  static byte[] escape(byte[] raw) {
    int zeros = 0;
    for (byte b : raw) {
      if (b == 0) {
        zeros++;
      }
    }
    byte[] out = new byte[raw.length + zeros + 2];
    int j = 0;
    for (byte b : raw) {
      out[j++] = b;
      if (b == 0) {
        out[j++] = (byte) 0xFF;
      }
    }
    out[j++] = 0;
    out[j] = 1;
    return out;
  }

  static byte[] utf8(String s) {
    return Args.notNull(s, "value").getBytes(StandardCharsets.UTF_8);
  }
}
