package io.stratus.pagemanager;

import com.google.protobuf.ByteString;
import com.google.protobuf.InvalidProtocolBufferException;
import com.google.protobuf.UnsafeByteOperations;
import io.stratus.CorruptPageException;
import io.stratus.cloudapi.CloudFutures;
import io.stratus.cloudapi.UnreadablePayloadException;
import io.stratus.pagemanager.proto.PageBody;
import io.stratus.pagemanager.proto.StoredPage;
import io.stratus.pagemanager.proto.StoredPageKind;
import java.util.List;
import java.util.zip.CRC32C;

/**
 * Turns a {@link Page} into the bytes of its storage item and back (the format is {@code
 * page.proto}: a {@code StoredPage} envelope holding a CRC32C-checked, serialized {@code
 * PageBody}).
 *
 * <p>Why so strict on the way in: a page read from storage feeds the shared buffer pool, and a
 * wrong page there (bit rot, a truncated upload, a foreign item under a page URI) would silently
 * corrupt every transaction that reads it. So {@link #decode} checks the format version, the
 * checksum over the exact stored body bytes, the page's identity (the URI it was written for is
 * the one it is read from) and the structure (known kind, non-negative level, sorted unique keys,
 * one value per key), and either returns a correct page or throws {@link
 * CorruptPageException}; it never returns a page built from bad bytes. The envelope must not carry
 * unknown fields either: the format is ours and its envelope has exactly three.
 *
 * <p>Every page's encoding is at most {@link Page#encodedSizeBound()} bytes; the page-size checks
 * of the layers above rely on that (the tests check it over random pages). Stateless and
 * thread-safe.
 */
public final class PageCodec {
  /**
   * The newest format this codec writes. 5: leaves may keep tombstones (format 4 software would
   * drop them on its next write of the page, so it must refuse such pages; a page without
   * tombstones is still written as format 4, which that software reads). 4: entries may carry
   * write stamps (format 3 software would drop
   * them on its next write of the page, so it must refuse such pages); 3: the body names the page's own URI
   * (format 2 did not, so a page copied to another item's name was accepted as that page); 2:
   * protocol state as one opaque field (format 1 kept writers' counters and chain times in fields
   * of their own).
   */
  public static final int FORMAT_VERSION = 5;

  /** The format of pages without tombstones (see {@link #FORMAT_VERSION}). */
  static final int FORMAT_WITHOUT_TOMBSTONES = 4;

  /**
   * The oldest format this codec reads: a format 3 page is a format 4 page without stamps, a
   * format 4 page a format 5 page without tombstones.
   */
  public static final int OLDEST_READABLE_FORMAT = 3;

  private PageCodec() {}

  /**
   * The stored form of {@code page}. Its URI is part of it as well as the item's name, so that
   * {@link #decode} can tell the page that belongs under a name from one copied there.
   */
  public static byte[] encode(Page page) {
    PageBody.Builder body =
        PageBody.newBuilder()
            .setUri(page.uri())
            .setKind(kindOf(page.kind()))
            .setLevel(page.level())
            .setLowKey(UnsafeByteOperations.unsafeWrap(page.lowKey()))
            .setVersionStamp(page.versionStamp());
    page.highKey().ifPresent(h -> body.setHighKey(UnsafeByteOperations.unsafeWrap(h)));
    page.rightSibling().ifPresent(body::setRightSibling);
    byte[] state = page.protocolState();
    if (state.length > 0) {
      body.setProtocolState(UnsafeByteOperations.unsafeWrap(state));
    }
    int n = page.entryCount();
    for (int i = 0; i < n; i++) {
      // key(i) and value(i) return fresh copies, so wrapping them without another copy is safe.
      body.addKeys(UnsafeByteOperations.unsafeWrap(page.key(i)));
      body.addValues(UnsafeByteOperations.unsafeWrap(page.value(i)));
    }
    if (page.hasStamps()) {
      for (long stamp : page.stamps()) {
        body.addWriteStamps(stamp);
      }
    }
    int tombstones = page.tombstoneCount();
    for (int i = 0; i < tombstones; i++) {
      body.addTombstoneKeys(UnsafeByteOperations.unsafeWrap(page.tombstoneKey(i)));
      body.addTombstoneStamps(page.tombstoneStamp(i));
    }
    byte[] bodyBytes = body.build().toByteArray();
    return StoredPage.newBuilder()
        .setFormatVersion(tombstones > 0 ? FORMAT_VERSION : FORMAT_WITHOUT_TOMBSTONES)
        .setCrc32C(crc32c(bodyBytes))
        .setBody(UnsafeByteOperations.unsafeWrap(bodyBytes))
        .build()
        .toByteArray();
  }

  /**
   * How a failed read of the item at {@code uri} is reported to page readers: an item the storage
   * could not open (client-side encryption: it failed authentication or names an unknown key)
   * becomes a {@link CorruptPageException}, as damaged bytes would, so the readers' handling of
   * corrupt pages applies; any other failure is returned unwrapped and unchanged.
   */
  public static Throwable readFailure(String uri, Throwable failure) {
    Throwable f = CloudFutures.unwrap(failure);
    if (f instanceof UnreadablePayloadException) {
      return new CorruptPageException(uri, ((UnreadablePayloadException) f).problem(), f);
    }
    return f;
  }

  /**
   * The page stored as {@code bytes} under {@code uri}.
   *
   * @throws CorruptPageException when the bytes are not a well-formed page of a known format
   *     version whose checksum matches
   */
  public static Page decode(String uri, byte[] bytes) {
    StoredPage envelope;
    try {
      envelope = StoredPage.parseFrom(bytes);
    } catch (InvalidProtocolBufferException e) {
      throw new CorruptPageException(uri, "unparsable envelope (" + bytes.length + " bytes)", e);
    }
    if (!envelope.getUnknownFields().asMap().isEmpty()) {
      throw new CorruptPageException(uri, "unknown fields in the envelope");
    }
    if (envelope.getFormatVersion() < OLDEST_READABLE_FORMAT
        || envelope.getFormatVersion() > FORMAT_VERSION) {
      throw new CorruptPageException(
          uri, "unknown format version " + Integer.toUnsignedString(envelope.getFormatVersion()));
    }
    ByteString bodyBytes = envelope.getBody();
    int expected = envelope.getCrc32C();
    int actual = crc32c(bodyBytes);
    if (expected != actual) {
      throw new CorruptPageException(
          uri, String.format("checksum mismatch (stored %08x, computed %08x)", expected, actual));
    }
    PageBody body;
    try {
      body = PageBody.parseFrom(bodyBytes);
    } catch (InvalidProtocolBufferException e) {
      throw new CorruptPageException(uri, "unparsable body", e);
    }
    if (envelope.getFormatVersion() < FORMAT_VERSION && body.getTombstoneKeysCount() > 0) {
      throw new CorruptPageException(
          uri, "tombstones in a page of format " + envelope.getFormatVersion());
    }
    // The format version is outside the checksum, so a damaged one must be told by what it
    // claims: no writer put format 5 on a page without tombstones, or format 3 on stamps.
    if (envelope.getFormatVersion() == FORMAT_VERSION && body.getTombstoneKeysCount() == 0) {
      throw new CorruptPageException(uri, "format " + FORMAT_VERSION + " without tombstones");
    }
    if (envelope.getFormatVersion() < FORMAT_WITHOUT_TOMBSTONES && body.getWriteStampsCount() > 0) {
      throw new CorruptPageException(
          uri, "write stamps in a page of format " + envelope.getFormatVersion());
    }
    return toPage(uri, body);
  }

  private static Page toPage(String uri, PageBody body) {
    if (!body.getUri().equals(uri)) {
      // A valid page of another address: taking it for this one made scans return a fraction of
      // the records and commits land in the foreign page.
      throw new CorruptPageException(
          uri, "it holds page " + body.getUri() + " (copied or moved from another address)");
    }
    PageKind kind = kindOf(uri, body.getKind());
    if (body.getLevel() < 0) {
      throw new CorruptPageException(
          uri, "level out of range: " + Integer.toUnsignedString(body.getLevel()));
    }
    List<ByteString> keys = body.getKeysList();
    List<ByteString> values = body.getValuesList();
    if (keys.size() != values.size()) {
      throw new CorruptPageException(uri, keys.size() + " keys but " + values.size() + " values");
    }
    if (body.getWriteStampsCount() != 0 && body.getWriteStampsCount() != keys.size()) {
      throw new CorruptPageException(
          uri, keys.size() + " keys but " + body.getWriteStampsCount() + " write stamps");
    }
    byte[][] k = new byte[keys.size()][];
    byte[][] v = new byte[values.size()][];
    for (int i = 0; i < k.length; i++) {
      k[i] = keys.get(i).toByteArray();
      v[i] = values.get(i).toByteArray();
      if (i > 0 && Keys.compare(k[i - 1], k[i]) >= 0) {
        throw new CorruptPageException(uri, "keys unsorted or duplicate at entry " + i);
      }
    }
    Page.Builder b = Page.builder(uri, kind).lowKey(body.getLowKey().toByteArray());
    try {
      b.versionStamp(body.getVersionStamp());
      b.level(body.getLevel());
      if (body.hasHighKey()) {
        b.highKey(body.getHighKey().toByteArray());
      }
      if (body.hasRightSibling()) {
        b.rightSibling(body.getRightSibling());
      }
      b.protocolState(body.getProtocolState().toByteArray());
      b.tombstones(tombstoneKeys(uri, body), tombstoneStamps(body));
      if (body.getWriteStampsCount() == 0) {
        return b.entries(k, v).build();
      }
      long[] stamps = new long[k.length];
      for (int i = 0; i < stamps.length; i++) {
        stamps[i] = body.getWriteStamps(i);
      }
      return b.entries(k, v, stamps).build();
    } catch (IllegalArgumentException e) {
      // Defence in depth: whatever else Page refuses is a corrupt page, not a programming error.
      throw new CorruptPageException(uri, "invalid page: " + e.getMessage(), e);
    }
  }

  private static byte[][] tombstoneKeys(String uri, PageBody body) {
    if (body.getTombstoneKeysCount() != body.getTombstoneStampsCount()) {
      throw new CorruptPageException(
          uri,
          body.getTombstoneKeysCount()
              + " tombstone keys but "
              + body.getTombstoneStampsCount()
              + " stamps");
    }
    byte[][] keys = new byte[body.getTombstoneKeysCount()][];
    for (int i = 0; i < keys.length; i++) {
      keys[i] = body.getTombstoneKeys(i).toByteArray();
    }
    return keys;
  }

  private static long[] tombstoneStamps(PageBody body) {
    long[] stamps = new long[body.getTombstoneStampsCount()];
    for (int i = 0; i < stamps.length; i++) {
      stamps[i] = body.getTombstoneStamps(i);
    }
    return stamps;
  }

  private static StoredPageKind kindOf(PageKind kind) {
    switch (kind) {
      case LEAF:
        return StoredPageKind.STORED_PAGE_KIND_LEAF;
      case INNER:
        return StoredPageKind.STORED_PAGE_KIND_INNER;
      case META:
        return StoredPageKind.STORED_PAGE_KIND_META;
      default:
        throw new IllegalArgumentException("no stored form for page kind " + kind);
    }
  }

  private static PageKind kindOf(String uri, StoredPageKind kind) {
    switch (kind) {
      case STORED_PAGE_KIND_LEAF:
        return PageKind.LEAF;
      case STORED_PAGE_KIND_INNER:
        return PageKind.INNER;
      case STORED_PAGE_KIND_META:
        return PageKind.META;
      default:
        throw new CorruptPageException(uri, "unknown page kind " + kind);
    }
  }

  static int crc32c(byte[] bytes) {
    CRC32C crc = new CRC32C();
    crc.update(bytes, 0, bytes.length);
    return (int) crc.getValue();
  }

  private static int crc32c(ByteString bytes) {
    CRC32C crc = new CRC32C();
    crc.update(bytes.asReadOnlyByteBuffer());
    return (int) crc.getValue();
  }
}
