package io.stratus.core;

import io.stratus.InvalidRequestException;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.UUID;

/**
 * Reads the components of a {@link Key} back, in the order a {@link KeyBuilder} appended them; the
 * caller knows the key's layout (for example "a string, then a long"). A read that does not match
 * the bytes fails with {@link InvalidRequestException}. Not thread-safe.
 */
public final class KeyDecoder {
  private final byte[] bytes;
  private int pos;

  KeyDecoder(byte[] bytes) {
    this.bytes = bytes;
  }

  public long nextLong() {
    need(8, "a long");
    long v = 0;
    for (int i = 0; i < 8; i++) {
      v = (v << 8) | (bytes[pos++] & 0xFF);
    }
    return v ^ Long.MIN_VALUE;
  }

  public int nextInt() {
    need(4, "an int");
    int v = 0;
    for (int i = 0; i < 4; i++) {
      v = (v << 8) | (bytes[pos++] & 0xFF);
    }
    return v ^ Integer.MIN_VALUE;
  }

  public UUID nextUuid() {
    long hi = nextLong();
    long lo = nextLong();
    return new UUID(hi, lo);
  }

  public String nextString() {
    return new String(nextEscaped("a string"), StandardCharsets.UTF_8);
  }

  /** Reads bytes appended with {@link KeyBuilder#addBytes}. */
  public byte[] nextBytes() {
    return nextEscaped("escaped bytes");
  }

  /** The bytes not read yet (e.g. a trailing {@link KeyBuilder#addRaw} component). */
  public byte[] rest() {
    byte[] r = Arrays.copyOfRange(bytes, pos, bytes.length);
    pos = bytes.length;
    return r;
  }

  public boolean hasRemaining() {
    return pos < bytes.length;
  }

  private byte[] nextEscaped(String what) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    while (true) {
      need(1, what);
      byte b = bytes[pos++];
      if (b != 0) {
        out.write(b);
        continue;
      }
      need(1, what);
      byte next = bytes[pos++];
      if (next == 1) {
        return out.toByteArray();
      }
      if (next != (byte) 0xFF) {
        throw new InvalidRequestException("key is not " + what + " at byte " + (pos - 1));
      }
      out.write(0);
    }
  }

  private void need(int n, String what) {
    if (bytes.length - pos < n) {
      throw new InvalidRequestException(
          "key has "
              + (bytes.length - pos)
              + " bytes left at byte "
              + pos
              + ", too few for "
              + what);
    }
  }
}
