package io.stratus.btree;

import io.stratus.RecordTooLargeException;
import io.stratus.pagemanager.Page;
import io.stratus.pagemanager.PageKind;
import java.nio.charset.StandardCharsets;

/**
 * How much fits into a page, and the limits on keys and entries that guarantee every split makes
 * progress.
 *
 * <p><b>Why limits at all.</b> A split must always be able to cut an over-full node into pieces
 * that each fit, and the levels above must shrink as the tree grows (otherwise a root split would
 * never end). Two conditions give that, for the worst-case header (low and high key of maximal
 * length, own URI and right-sibling URI of reserved length):
 *
 * <ul>
 *   <li>an inner node fits at least three (maximal separator, reserved URI) entries, so keys are
 *       limited to {@link #maxKeyBytes} (and never beyond {@link #KEY_CAP});
 *   <li>a leaf fits any single entry, so key + value are limited to {@link #maxEntryBytes}.
 * </ul>
 *
 * <p>The page's own size formula ({@link Page#encodedSizeBound()}) belongs to the page manager; the
 * fixed and per-entry overheads are measured from it once rather than copied, so a change of the
 * page format moves the limits with it. Header fields the protocols add later (client commit
 * counters) are not reserved: they only lower the fan-out, and a split that cannot place even one
 * entry reports {@link RecordTooLargeException} before writing anything. Nor are a leaf's
 * tombstones: a split cuts on entries and tombstones alike, so each piece holds at least one of
 * them, and one entry alone fits by the limits above.
 */
final class PageSizing {
  /**
   * Keys are never longer than this, whatever the page size: every page reserves room for a
   * maximal low and high key, so a smaller key limit leaves more room for payload (at 8 KB pages
   * about 70% of the page for one record, at 64 KB about 96%).
   */
  static final int KEY_CAP = 1024;

  /** Bytes of an empty leaf with an empty URI and no keys, siblings or counters. */
  static final int FIXED;

  /** Bytes one entry without a write stamp costs beyond its key and value. */
  static final int PER_ENTRY;

  /**
   * Bytes one entry costs beyond its key and value at most: with a write stamp, and the page's
   * one-off cost of carrying stamps counted with it (what a leaf must fit for any one record).
   */
  static final int PER_STAMPED_ENTRY;

  /** Bytes a write stamp adds to an entry of a page that already carries stamps, at most. */
  static final int PER_STAMP;

  /** Bytes a page pays once for carrying stamps at all. */
  static final int STAMPS_FIXED;

  /** Extra bytes a present (empty) high key costs beyond its length. */
  static final int HIGH_KEY_PRESENT;

  /** Extra bytes a present (empty) right-sibling URI costs beyond its length. */
  static final int SIBLING_PRESENT;

  static {
    byte[] none = new byte[0];
    FIXED = Page.builder("", PageKind.LEAF).build().encodedSizeBound();
    PER_ENTRY =
        Page.builder("", PageKind.LEAF)
                .entries(new byte[][] {none}, new byte[][] {none})
                .build()
                .encodedSizeBound()
            - FIXED;
    PER_STAMPED_ENTRY =
        Page.builder("", PageKind.LEAF)
                .entries(new byte[][] {none}, new byte[][] {none}, new long[] {Long.MAX_VALUE})
                .build()
                .encodedSizeBound()
            - FIXED;
    int twoStamped =
        Page.builder("", PageKind.LEAF)
                .entries(
                    new byte[][] {none, {0}}, // keys must differ: the second is one byte long
                    new byte[][] {none, none},
                    new long[] {Long.MAX_VALUE, Long.MAX_VALUE})
                .build()
                .encodedSizeBound()
            - FIXED
            - 1;
    PER_STAMP = twoStamped - PER_STAMPED_ENTRY - PER_ENTRY;
    STAMPS_FIXED = PER_STAMPED_ENTRY - PER_ENTRY - PER_STAMP;
    HIGH_KEY_PRESENT =
        Page.builder("", PageKind.LEAF).highKey(none).build().encodedSizeBound() - FIXED;
    SIBLING_PRESENT =
        Page.builder("", PageKind.LEAF).rightSibling("").build().encodedSizeBound() - FIXED;
  }

  private PageSizing() {}

  /**
   * The largest key (and separator) of a tree whose page URIs have at most {@code uriBytes} bytes:
   * an inner node with a maximal low and high key, its own and its sibling's URI, must still hold
   * three (key, URI) entries.
   */
  static int maxKeyBytes(int pageSize, int uriBytes) {
    int worstHeader = FIXED + HIGH_KEY_PRESENT + SIBLING_PRESENT + 2 * uriBytes;
    int room = pageSize - worstHeader - 3 * (uriBytes + PER_ENTRY);
    return Math.max(0, Math.min(KEY_CAP, room / 5));
  }

  /**
   * The largest key + value of one entry: it must fit alone into a leaf with a worst-case header
   * (low and high key of {@link #maxKeyBytes}, own and sibling URI of {@code uriBytes}).
   */
  static int maxEntryBytes(int pageSize, int uriBytes) {
    int worstHeader =
        FIXED
            + HIGH_KEY_PRESENT
            + SIBLING_PRESENT
            + 2 * uriBytes
            + 2 * maxKeyBytes(pageSize, uriBytes);
    return Math.max(0, pageSize - worstHeader - PER_STAMPED_ENTRY);
  }

  /** Bytes an entry adds to a page. */
  static int entryBytes(byte[] key, byte[] value) {
    return key.length + value.length + PER_ENTRY;
  }

  /** Bytes an entry adds to a leaf once it carries a write stamp (at most). */
  static int stampedEntryBytes(byte[] key, byte[] value) {
    return entryBytes(key, value) + PER_STAMP;
  }

  /**
   * Estimated bytes of a page header with these fields and no client counters (additive in the
   * field lengths, as the page format's bound is); pages built from estimates are checked against
   * the real bound before they are written.
   */
  static int headerBytes(int uriBytes, int lowKeyBytes, int highKeyBytes, int siblingBytes) {
    return FIXED
        + uriBytes
        + lowKeyBytes
        + (highKeyBytes < 0 ? 0 : HIGH_KEY_PRESENT + highKeyBytes)
        + (siblingBytes < 0 ? 0 : SIBLING_PRESENT + siblingBytes);
  }

  static int utf8Length(String s) {
    return s.getBytes(StandardCharsets.UTF_8).length;
  }

  /** Throws {@link RecordTooLargeException} unless the entry respects both limits. */
  static void checkEntry(byte[] key, byte[] value, int pageSize, int uriBytes) {
    int maxKey = maxKeyBytes(pageSize, uriBytes);
    if (key.length > maxKey) {
      throw new RecordTooLargeException(key.length, maxKey);
    }
    int maxEntry = maxEntryBytes(pageSize, uriBytes);
    if (key.length + value.length > maxEntry) {
      throw new RecordTooLargeException(key.length + value.length, maxEntry);
    }
  }
}
