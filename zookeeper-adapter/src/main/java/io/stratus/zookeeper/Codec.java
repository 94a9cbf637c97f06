package io.stratus.zookeeper;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;

/**
 * The binary form of the adapter's znode records: big-endian fields behind a format byte.
 *
 * <p>Why binary and exact: instants and durations keep their nanoseconds, because a holder judges
 * its lease from the instant it sent the request, and a grant time truncated below that instant
 * would end the lease earlier for other clients than for the holder. Why a format byte: a later
 * layout can then be read next to this one during a rolling upgrade.
 *
 * <p>Not thread-safe; one writer or reader per record.
 */
final class Codec {
  /** The only format so far; every record starts with it. */
  static final int FORMAT = 1;

  private Codec() {}

  /** Writes one record. */
  static final class Writer {
    private final ByteArrayOutputStream bytes = new ByteArrayOutputStream(64);
    private final DataOutputStream out = new DataOutputStream(bytes);

    Writer() {
      writeByte(FORMAT);
    }

    Writer writeByte(int b) {
      return io(() -> out.writeByte(b));
    }

    Writer writeInt(int v) {
      return io(() -> out.writeInt(v));
    }

    Writer writeLong(long v) {
      return io(() -> out.writeLong(v));
    }

    Writer writeString(String s) {
      byte[] b = s.getBytes(StandardCharsets.UTF_8);
      return io(
          () -> {
            out.writeInt(b.length);
            out.write(b);
          });
    }

    Writer writeInstant(Instant t) {
      return io(
          () -> {
            out.writeLong(t.getEpochSecond());
            out.writeInt(t.getNano());
          });
    }

    Writer writeDuration(Duration d) {
      return io(
          () -> {
            out.writeLong(d.getSeconds());
            out.writeInt(d.getNano());
          });
    }

    byte[] toBytes() {
      return bytes.toByteArray();
    }

    private Writer io(IoAction a) {
      try {
        a.run();
      } catch (IOException e) {
        throw new UncheckedIOException(e); // a ByteArrayOutputStream does not fail
      }
      return this;
    }
  }

  /** Reads one record; a malformed record fails with {@link IllegalStateException}. */
  static final class Reader {
    private final DataInputStream in;
    private final String what;

    Reader(byte[] data, String what) {
      this.in = new DataInputStream(new ByteArrayInputStream(data));
      this.what = what;
      int format = readByte();
      if (format != FORMAT) {
        throw new IllegalStateException(what + " has unknown format " + format);
      }
    }

    int readByte() {
      return io(in::readUnsignedByte);
    }

    int readInt() {
      return io(in::readInt);
    }

    long readLong() {
      return io(in::readLong);
    }

    String readString() {
      int n = readInt();
      if (n < 0 || n > 1 << 20) {
        throw new IllegalStateException(what + " is corrupt: string of " + n + " bytes");
      }
      byte[] b = new byte[n];
      io(
          () -> {
            in.readFully(b);
            return b;
          });
      return new String(b, StandardCharsets.UTF_8);
    }

    Instant readInstant() {
      return Instant.ofEpochSecond(readLong(), readInt());
    }

    Duration readDuration() {
      return Duration.ofSeconds(readLong(), readInt());
    }

    /** Whether bytes remain after what was read (a later layout's optional tail). */
    boolean hasMore() {
      return io(in::available) > 0;
    }

    /** A count that the remaining bytes can hold, each element at least {@code minBytes}. */
    int readCount(int minBytes) {
      int n = readInt();
      if (n < 0 || (long) n * minBytes > io(in::available)) {
        throw new IllegalStateException(what + " is corrupt: count " + n);
      }
      return n;
    }

    private <T> T io(IoRead<T> r) {
      try {
        return r.read();
      } catch (IOException | RuntimeException e) {
        throw new IllegalStateException(what + " is corrupt", e);
      }
    }
  }

  private interface IoAction {
    void run() throws IOException;
  }

  private interface IoRead<T> {
    T read() throws IOException;
  }
}
