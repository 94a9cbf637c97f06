package io.stratus.bench.tpcw.bookstore;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * The bookstore's compact binary row format: a format byte, then the row's fields in a fixed
 * order, ints and longs as zig-zag varints, strings as a varint length and UTF-8 bytes. No field
 * names and no per-field tags: a row type's decoder knows its layout and checks the format byte,
 * so a payload of the wrong table or an older layout fails loudly instead of being misread.
 *
 * <p>Writers and readers are single-use and not thread-safe; the codecs create one per row.
 */
final class RowCodec {
  private RowCodec() {}

  /** Appends fields to a growing byte array. */
  static final class Writer {
    private byte[] buf = new byte[64];
    private int size;

    Writer(int format) {
      writeRawByte(format);
    }

    Writer putInt(int v) {
      return putLong(v);
    }

    Writer putLong(long v) {
      long z = (v << 1) ^ (v >> 63); // zig-zag: small magnitudes, either sign, take few bytes
      while ((z & ~0x7FL) != 0) {
        writeRawByte((int) ((z & 0x7F) | 0x80));
        z >>>= 7;
      }
      writeRawByte((int) z);
      return this;
    }

    Writer putString(String s) {
      byte[] b = s.getBytes(StandardCharsets.UTF_8);
      putLong(b.length);
      ensure(b.length);
      System.arraycopy(b, 0, buf, size, b.length);
      size += b.length;
      return this;
    }

    Writer putLongs(long[] values) {
      putLong(values.length);
      for (long v : values) {
        putLong(v);
      }
      return this;
    }

    byte[] toBytes() {
      return Arrays.copyOf(buf, size);
    }

    private void writeRawByte(int b) {
      ensure(1);
      buf[size++] = (byte) b;
    }

    private void ensure(int more) {
      if (size + more > buf.length) {
        buf = Arrays.copyOf(buf, Math.max(buf.length * 2, size + more));
      }
    }
  }

  /** Reads fields back in the order they were written. */
  static final class Reader {
    private final byte[] buf;
    private int pos;

    /** Starts reading a payload, checking its format byte. */
    Reader(byte[] payload, int expectedFormat, String table) {
      if (payload.length == 0 || (payload[0] & 0xFF) != expectedFormat) {
        throw new IllegalStateException(
            "not a "
                + table
                + " row of format "
                + expectedFormat
                + (payload.length == 0
                    ? " (empty payload)"
                    : " (format byte " + (payload[0] & 0xFF) + ")"));
      }
      this.buf = payload;
      this.pos = 1;
    }

    int getInt() {
      return Math.toIntExact(getLong());
    }

    long getLong() {
      long z = 0;
      int shift = 0;
      while (true) {
        if (pos >= buf.length) {
          throw new IllegalStateException("row ends inside a number");
        }
        int b = buf[pos++] & 0xFF;
        z |= (long) (b & 0x7F) << shift;
        if ((b & 0x80) == 0) {
          break;
        }
        shift += 7;
        if (shift > 63) {
          throw new IllegalStateException("number too long in row");
        }
      }
      return (z >>> 1) ^ -(z & 1);
    }

    String getString() {
      int n = getInt();
      if (n < 0 || pos + n > buf.length) {
        throw new IllegalStateException("row ends inside a string");
      }
      String s = new String(buf, pos, n, StandardCharsets.UTF_8);
      pos += n;
      return s;
    }

    /** Steps over a string without decoding it (for readers that need only later fields). */
    void skipString() {
      int n = getInt();
      if (n < 0 || pos + n > buf.length) {
        throw new IllegalStateException("row ends inside a string");
      }
      pos += n;
    }

    long[] getLongs() {
      int n = getInt();
      if (n < 0 || n > buf.length) {
        throw new IllegalStateException("bad array length in row");
      }
      long[] out = new long[n];
      for (int i = 0; i < n; i++) {
        out[i] = getLong();
      }
      return out;
    }
  }
}
