package io.stratus.btree;

import java.io.ByteArrayOutputStream;
import java.util.Arrays;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * The keys of a secondary index: (search key, record key) packed into one tree key so that
 * duplicate search keys are allowed (the record key makes each entry unique) and entries sort by
 * search key, then record key (paper 000, section 3.4). The entry's value is empty.
 *
 * <p><b>Encoding.</b> {@code escape(searchKey) 0x00 0x01 recordKey}, where {@code escape}
 * replaces every 0x00 byte by 0x00 0xFF. Why it sorts right, in unsigned byte order:
 *
 * <ul>
 *   <li>search keys that differ at a byte compare there, since escaping keeps non-zero bytes and
 *       maps 0x00 to 0x00 0xFF, which sorts below every non-zero byte;
 *   <li>a search key that is a proper prefix of another ends with the terminator 0x00 0x01, which
 *       sorts below whatever continues the longer one (a non-zero byte, or 0x00 0xFF);
 *   <li>equal search keys share the same escaped form and terminator, so the record keys decide.
 * </ul>
 *
 * <p>The record key is appended raw (it is the last component and needs no delimiter). The
 * escaping is the one the record manager's order-preserving key encoding uses for strings, so the
 * layers share one layout; any byte string can be a search key. A composite must respect the
 * tree's {@link BLinkTree#maxKeyBytes(int) key limit}: escaping adds one byte per 0x00 in the
 * search key, plus two for the terminator.
 */
public final class SecondaryKeys {
  private static final byte ESCAPE = (byte) 0xFF;
  private static final byte TERMINATOR = 0x01;

  private SecondaryKeys() {}

  /** The tree key of the entry for the record {@code recordKey} with {@code searchKey}. */
  public static byte[] compose(byte[] searchKey, byte[] recordKey) {
    Objects.requireNonNull(recordKey, "recordKey");
    ByteArrayOutputStream out = new ByteArrayOutputStream(searchKey.length + recordKey.length + 4);
    writeTerminated(out, searchKey);
    out.writeBytes(recordKey);
    return out.toByteArray();
  }

  /** The search key of a composite made by {@link #compose}. */
  public static byte[] searchKey(byte[] composite) {
    ByteArrayOutputStream out = new ByteArrayOutputStream(composite.length);
    int end = decodeSearchKey(composite, out);
    if (end < 0) {
      throw new IllegalArgumentException("not a secondary-index key: no terminator");
    }
    return out.toByteArray();
  }

  /** The record key of a composite made by {@link #compose}. */
  public static byte[] recordKey(byte[] composite) {
    int end = decodeSearchKey(composite, null);
    if (end < 0) {
      throw new IllegalArgumentException("not a secondary-index key: no terminator");
    }
    return Arrays.copyOfRange(composite, end, composite.length);
  }

  /** The entries whose search key is exactly {@code searchKey} (any record key). */
  public static KeyRange forSearchKey(byte[] searchKey) {
    return forSearchRange(KeyRange.singleton(searchKey));
  }

  /** The entries whose search key lies in [lo, hi]. */
  public static KeyRange forSearchRange(byte[] lo, byte[] hi) {
    return forSearchRange(KeyRange.closed(lo, hi));
  }

  /**
   * The entries whose search key lies in {@code searchKeys}, a range over search keys.
   *
   * <p>With {@code e(s) = escape(s) 0x00}: all entries of search key s lie in [e(s) 0x01, e(s)
   * 0x02), and every search key above s encodes to at least e(s) 0x02 (a longer key continues with
   * 0x00 0xFF or a non-zero byte). So an inclusive lower bound s maps to e(s) 0x01, an exclusive
   * one to e(s) 0x02; an inclusive upper bound to "below e(s) 0x02", an exclusive one to "below
   * e(s) 0x01".
   */
  public static KeyRange forSearchRange(KeyRange searchKeys) {
    byte[] lo = searchKeys.lowerRaw();
    byte[] hi = searchKeys.upperRaw();
    byte[] lower = lo == null ? null : bound(lo, searchKeys.isLowerInclusive() ? 0x01 : 0x02);
    byte[] upper = hi == null ? null : bound(hi, searchKeys.isUpperInclusive() ? 0x02 : 0x01);
    return KeyRange.of(lower, true, upper, false);
  }

  private static byte[] bound(byte[] searchKey, int last) {
    ByteArrayOutputStream out = new ByteArrayOutputStream(searchKey.length + 4);
    writeEscaped(out, searchKey);
    out.write(0x00);
    out.write(last);
    return out.toByteArray();
  }

  private static void writeTerminated(ByteArrayOutputStream out, byte[] searchKey) {
    writeEscaped(out, searchKey);
    out.write(0x00);
    out.write(TERMINATOR);
  }

  private static void writeEscaped(ByteArrayOutputStream out, byte[] searchKey) {
    for (byte b : Objects.requireNonNull(searchKey, "searchKey")) {
      out.write(b);
      if (b == 0x00) {
        out.write(ESCAPE);
      }
    }
  }

  /**
   * Unescapes the search key into {@code out} (if not null); returns the index after the
   * terminator, or -1 if there is none.
   */
  private static int decodeSearchKey(byte[] composite, @Nullable ByteArrayOutputStream out) {
    int i = 0;
    while (i < composite.length) {
      byte b = composite[i];
      if (b != 0x00) {
        if (out != null) {
          out.write(b);
        }
        i++;
        continue;
      }
      if (i + 1 >= composite.length) {
        return -1;
      }
      byte next = composite[i + 1];
      if (next == TERMINATOR) {
        return i + 2;
      }
      if (next != ESCAPE) {
        throw new IllegalArgumentException("not a secondary-index key: bad escape at " + i);
      }
      if (out != null) {
        out.write(0x00);
      }
      i += 2;
    }
    return -1;
  }
}
