package io.stratus.core;

import java.io.ByteArrayOutputStream;
import java.util.UUID;

/**
 * Appends order-preserving components to a composite {@link Key}; see {@link Key} for each
 * encoding. A composite sorts by its first component, then by the next, and so on, because every
 * component except {@link #addRaw} is self-delimiting. Not thread-safe; use one per key.
 */
public final class KeyBuilder {
  private final ByteArrayOutputStream out = new ByteArrayOutputStream(32);

  KeyBuilder() {}

  /** Appends a long as 8 bytes, sign bit flipped, big-endian. */
  public KeyBuilder add(long value) {
    long v = value ^ Long.MIN_VALUE;
    for (int shift = 56; shift >= 0; shift -= 8) {
      out.write((int) (v >>> shift));
    }
    return this;
  }

  /**
   * Appends an int as 4 bytes, sign bit flipped, big-endian: a different (shorter) component than
   * {@link #add(long)} of the same number, so it has its own name; an {@code int} passed to {@code
   * add} is widened to a long.
   */
  public KeyBuilder addInt(int value) {
    int v = value ^ Integer.MIN_VALUE;
    for (int shift = 24; shift >= 0; shift -= 8) {
      out.write(v >>> shift);
    }
    return this;
  }

  /** Appends a string: UTF-8, 0x00 escaped as 0x00 0xFF, terminated by 0x00 0x01. */
  public KeyBuilder add(String value) {
    out.writeBytes(Key.escape(Key.utf8(value)));
    return this;
  }

  /** Appends a UUID as 16 bytes ordered like {@link UUID#compareTo}. */
  public KeyBuilder add(UUID value) {
    Args.notNull(value, "value");
    add(value.getMostSignificantBits());
    add(value.getLeastSignificantBits());
    return this;
  }

  /**
   * Appends arbitrary bytes escaped and terminated like a string, so that they may be followed by
   * further components and still sort correctly.
   */
  public KeyBuilder addBytes(byte[] value) {
    out.writeBytes(Key.escape(Args.notNull(value, "value")));
    return this;
  }

  /**
   * Appends bytes unchanged. Not self-delimiting: only safe as the last component (or for bytes of
   * a fixed width).
   */
  public KeyBuilder addRaw(byte[] value) {
    out.writeBytes(Args.notNull(value, "value"));
    return this;
  }

  /** Appends another key's bytes unchanged (its components stay self-delimiting). */
  public KeyBuilder add(Key key) {
    out.writeBytes(key.bytesUnsafe());
    return this;
  }

  public Key build() {
    return Key.wrap(out.toByteArray());
  }
}
