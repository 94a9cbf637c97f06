package io.stratus.pagemanager;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;
import java.util.Comparator;

/**
 * The one order of keys everywhere in Stratus: unsigned lexicographic order of the bytes, the order
 * in which the order-preserving key encodings of the record manager are designed to sort.
 */
public final class Keys {
  /** Compares two keys as unsigned byte strings. */
  public static final Comparator<byte[]> ORDER = Keys::compare;

  /** Eight bytes of an array as one big-endian long, whose unsigned order is theirs. */
  private static final VarHandle EIGHT_BYTES =
      MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.BIG_ENDIAN);

  private Keys() {}

  /**
   * Compares two keys as unsigned byte strings (a prefix sorts first): negative, zero or positive
   * as {@code a} sorts before, with or after {@code b}, like {@link
   * java.util.Arrays#compareUnsigned(byte[], byte[])}. It compares eight bytes at a time: the
   * encodings of numbers share their leading bytes (a long key of a small number starts with
   * 0x80 and six zero bytes), which defeats the JDK comparison's first-byte shortcut, and every
   * descent of a tree makes some twenty comparisons.
   */
  public static int compare(byte[] a, byte[] b) {
    int common = Math.min(a.length, b.length);
    int i = 0;
    for (; i + Long.BYTES <= common; i += Long.BYTES) {
      long x = (long) EIGHT_BYTES.get(a, i);
      long y = (long) EIGHT_BYTES.get(b, i);
      if (x != y) {
        return Long.compareUnsigned(x, y);
      }
    }
    for (; i < common; i++) {
      if (a[i] != b[i]) {
        return Byte.compareUnsigned(a[i], b[i]);
      }
    }
    return a.length - b.length;
  }
}
