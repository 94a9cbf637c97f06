package io.stratus.pagemanager;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.google.protobuf.ByteString;
import com.google.protobuf.UnknownFieldSet;
import io.stratus.CorruptPageException;
import io.stratus.cloudapi.testing.Seed;
import io.stratus.cloudapi.testing.SeedExtension;
import io.stratus.pagemanager.proto.PageBody;
import io.stratus.pagemanager.proto.StoredPage;
import io.stratus.pagemanager.proto.StoredPageKind;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

@ExtendWith(SeedExtension.class)
class PageCodecTest {
  private static final String URI = "db/t/page-1";

  @Test
  void roundTripsRandomPagesWithEveryHeaderField(@Seed long seed) {
    Random r = new Random(seed);
    for (int i = 0; i < 500; i++) {
      Page p = RandomPages.page(r, "db/t/" + i);
      Page back = PageCodec.decode(p.uri(), PageCodec.encode(p));
      assertThat(back).isEqualTo(p);
      assertThat(back.kind()).isEqualTo(p.kind());
      assertThat(back.level()).isEqualTo(p.level());
      assertThat(back.lowKey()).isEqualTo(p.lowKey());
      assertThat(back.highKey().isPresent()).isEqualTo(p.highKey().isPresent());
      p.highKey().ifPresent(h -> assertThat(back.highKey().orElseThrow()).isEqualTo(h));
      assertThat(back.rightSibling()).isEqualTo(p.rightSibling());
      assertThat(back.protocolState()).isEqualTo(p.protocolState());
      assertThat(back.versionStamp()).isEqualTo(p.versionStamp());
      assertThat(back.entryCount()).isEqualTo(p.entryCount());
    }
  }

  @Test
  void roundTripsEmptyPagesAndKeepsEmptyHighKeyApartFromNone() {
    Page empty = Page.builder(URI, PageKind.LEAF).build();
    assertThat(PageCodec.decode(URI, PageCodec.encode(empty))).isEqualTo(empty);

    Page emptyHigh =
        Page.builder(URI, PageKind.INNER).highKey(new byte[0]).rightSibling("").build();
    Page back = PageCodec.decode(URI, PageCodec.encode(emptyHigh));
    assertThat(back).isEqualTo(emptyHigh);
    assertThat(back.highKey()).isPresent();
    assertThat(back.rightSibling()).contains("");
    assertThat(PageCodec.decode(URI, PageCodec.encode(empty)).highKey()).isEmpty();
    assertThat(PageCodec.decode(URI, PageCodec.encode(empty)).rightSibling()).isEmpty();
  }

  @Test
  void aValidPageReadUnderAnotherAddressIsRefused() {
    Page p = RandomPages.leaf(URI, 3, 10);
    assertThatThrownBy(() -> PageCodec.decode("elsewhere", PageCodec.encode(p)))
        .isInstanceOf(CorruptPageException.class)
        .hasMessageContaining("page elsewhere is corrupt")
        .hasMessageContaining("holds page " + URI);
    assertThat(PageCodec.decode(URI, PageCodec.encode(p)).uri()).isEqualTo(URI);
  }

  @Test
  void encodedSizeNeverExceedsTheBound(@Seed long seed) {
    Random r = new Random(seed);
    for (int i = 0; i < 2000; i++) {
      // Short URIs leave the bound the least slack (the URI is counted but not stored).
      Page p = RandomPages.page(r, "u" + (i % 10));
      assertThat(PageCodec.encode(p).length)
          .as("page %s", p)
          .isLessThanOrEqualTo(p.encodedSizeBound());
    }
  }

  @Test
  void encodedSizeBoundHoldsForLargeProtocolStateAndMultiByteSiblings() {
    Page.Builder b =
        Page.builder("u", PageKind.INNER)
            .level(Integer.MAX_VALUE)
            .lowKey(new byte[200])
            .highKey(new byte[200])
            .rightSibling("中".repeat(300))
            .protocolState(new byte[1 << 20]);
    Page p = b.build();
    assertThat(PageCodec.encode(p).length).isLessThanOrEqualTo(p.encodedSizeBound());

    // The worst fixed header: no URI slack, every varint at its longest.
    Page header =
        Page.builder("", PageKind.META)
            .level(Integer.MAX_VALUE)
            .lowKey(new byte[1 << 21])
            .highKey(new byte[1 << 21])
            .rightSibling("")
            .versionStamp(Long.MAX_VALUE)
            .build();
    assertThat(PageCodec.encode(header).length).isLessThanOrEqualTo(header.encodedSizeBound());
  }

  /**
   * Every change of one byte is refused as corrupt, except a change of the format version (outside
   * the checksum) to another readable format that describes the same page, which decodes to it.
   */
  @Test
  void everySingleByteChangeIsDetected(@Seed long seed) throws Exception {
    Random r = new Random(seed);
    for (int round = 0; round < 20; round++) {
      Page p = RandomPages.page(r, URI);
      byte[] good = PageCodec.encode(p);
      for (int i : positions(r, good.length)) {
        byte[] bad = good.clone();
        bad[i] ^= (byte) (1 + r.nextInt(255));
        Page read;
        try {
          read = PageCodec.decode(URI, bad);
        } catch (CorruptPageException e) {
          assertThat(e.uri()).isEqualTo(URI);
          continue;
        }
        // The format version is outside the checksum: a change to another readable format that
        // describes the same page (format 3 is format 4 without stamps) decodes to that page.
        assertThat(StoredPage.parseFrom(bad).getFormatVersion())
            .as("byte %d of %d changed and not detected", i, good.length)
            .isNotEqualTo(StoredPage.parseFrom(good).getFormatVersion());
        assertThat(read)
            .as("byte %d of %d changed the format version", i, good.length)
            .isEqualTo(p);
      }
    }
  }

  @Test
  void everyTruncationIsDetected(@Seed long seed) {
    Random r = new Random(seed);
    byte[] good = PageCodec.encode(RandomPages.page(r, URI));
    for (int len : positions(r, good.length)) {
      byte[] bad = Arrays.copyOf(good, len);
      assertThatThrownBy(() -> PageCodec.decode(URI, bad))
          .as("truncated to %d of %d", len, good.length)
          .isInstanceOf(CorruptPageException.class);
    }
  }

  @Test
  void garbageIsDetected(@Seed long seed) {
    Random r = new Random(seed);
    for (int i = 0; i < 1000; i++) {
      byte[] garbage = RandomPages.bytes(r, r.nextInt(300));
      assertThatThrownBy(() -> PageCodec.decode(URI, garbage))
          .isInstanceOf(CorruptPageException.class);
    }
    byte[] text = "<Error><Code>AccessDenied</Code></Error>".getBytes(StandardCharsets.UTF_8);
    assertThatThrownBy(() -> PageCodec.decode(URI, text)).isInstanceOf(CorruptPageException.class);
  }

  @Test
  void unknownFormatVersionIsRefused() {
    byte[] body = body(StoredPageKind.STORED_PAGE_KIND_LEAF).build().toByteArray();
    for (int version : new int[] {0, 1, PageCodec.FORMAT_VERSION + 1, -1}) {
      byte[] stored = envelope(body).setFormatVersion(version).build().toByteArray();
      assertThatThrownBy(() -> PageCodec.decode(URI, stored))
          .isInstanceOf(CorruptPageException.class)
          .hasMessageContaining("unknown format version");
    }
  }

  @Test
  void unknownEnvelopeFieldsAreRefused() {
    byte[] body = body(StoredPageKind.STORED_PAGE_KIND_LEAF).build().toByteArray();
    byte[] good = envelope(body).build().toByteArray();
    byte[] extra = Arrays.copyOf(good, good.length + 2);
    extra[good.length] = (byte) (9 << 3); // field 9, varint
    extra[good.length + 1] = 1;
    assertThat(PageCodec.decode(URI, good).kind()).isEqualTo(PageKind.LEAF);
    assertThatThrownBy(() -> PageCodec.decode(URI, extra))
        .isInstanceOf(CorruptPageException.class)
        .hasMessageContaining("unknown fields");
  }

  @Test
  void structurallyInvalidBodiesWithValidChecksumsAreRefused() {
    assertCorrupt(
        body(StoredPageKind.STORED_PAGE_KIND_LEAF)
            .addKeys(bs("b"))
            .addKeys(bs("a"))
            .addValues(bs("1"))
            .addValues(bs("2")),
        "unsorted");
    assertCorrupt(
        body(StoredPageKind.STORED_PAGE_KIND_LEAF)
            .addKeys(bs("a"))
            .addKeys(bs("a"))
            .addValues(bs("1"))
            .addValues(bs("2")),
        "duplicate");
    assertCorrupt(
        body(StoredPageKind.STORED_PAGE_KIND_LEAF)
            .addKeys(bs("a"))
            .addKeys(bs("b"))
            .addValues(bs("1")),
        "2 keys but 1 values");
    assertCorrupt(body(StoredPageKind.STORED_PAGE_KIND_UNSPECIFIED), "unknown page kind");
    assertCorrupt(body(StoredPageKind.STORED_PAGE_KIND_LEAF).setKindValue(17), "unknown page kind");
    assertCorrupt(body(StoredPageKind.STORED_PAGE_KIND_INNER).setLevel(-5), "level");
  }

  @Test
  void writeStampsRoundTripAndFormat3PagesReadAsPagesWithoutStamps() {
    Page stamped =
        Page.builder(URI, PageKind.LEAF)
            .entries(
                new byte[][] {{1}, {2}, {3}},
                new byte[][] {{1}, {2}, {3}},
                new long[] {0, 42, Long.MAX_VALUE})
            .build();
    Page back = PageCodec.decode(URI, PageCodec.encode(stamped));
    assertThat(back).isEqualTo(stamped);
    assertThat(back.stamps()).containsExactly(0, 42, Long.MAX_VALUE);
    assertThat(back.maxStamp()).isEqualTo(Long.MAX_VALUE);

    byte[] body =
        body(StoredPageKind.STORED_PAGE_KIND_LEAF)
            .addKeys(bs("a"))
            .addValues(bs("1"))
            .build()
            .toByteArray();
    Page format3 = PageCodec.decode(URI, envelope(body).setFormatVersion(3).build().toByteArray());
    assertThat(format3.hasStamps()).isFalse();
    assertThat(format3.stamp(0)).isZero();
  }

  /**
   * Pages written before the checkpoint times moved into the protocol state carry them in body
   * fields 6 and 11: every format reads such a page, with everything else intact and the times
   * left out (the protocol then takes the page as never checkpointed), and writes it back without
   * them.
   */
  @Test
  void pagesCarryingTheFormerCheckpointTimesAreReadWithoutThem(@Seed long seed) {
    Random r = new Random(seed);
    for (int i = 0; i < 200; i++) {
      Page p = RandomPages.page(r, "db/t/" + i);
      byte[] now = PageCodec.encode(p);
      StoredPage envelope = parse(now);
      PageBody body = parseBody(envelope.getBody());
      UnknownFieldSet former =
          UnknownFieldSet.newBuilder()
              .addField(6, UnknownFieldSet.Field.newBuilder().addVarint(r.nextLong()).build())
              .addField(11, UnknownFieldSet.Field.newBuilder().addVarint(r.nextLong()).build())
              .build();
      byte[] oldBody = body.toBuilder().setUnknownFields(former).build().toByteArray();
      int format =
          p.tombstoneCount() > 0 || p.hasStamps()
              ? envelope.getFormatVersion()
              : 3 + r.nextInt(2); // format 3 and 4 describe a page without stamps alike
      byte[] old =
          StoredPage.newBuilder()
              .setFormatVersion(format)
              .setCrc32C(PageCodec.crc32c(oldBody))
              .setBody(ByteString.copyFrom(oldBody))
              .build()
              .toByteArray();
      assertThat(old.length).isGreaterThan(now.length);

      Page read = PageCodec.decode(p.uri(), old);
      assertThat(read).as("seed %d, page %d", seed, i).isEqualTo(p);
      assertThat(PageCodec.encode(read)).isEqualTo(now);
      assertThat(parseBody(parse(PageCodec.encode(read)).getBody()).getUnknownFields().asMap())
          .isEmpty();
    }
  }

  private static StoredPage parse(byte[] stored) {
    try {
      return StoredPage.parseFrom(stored);
    } catch (com.google.protobuf.InvalidProtocolBufferException e) {
      throw new IllegalArgumentException(e);
    }
  }

  private static PageBody parseBody(ByteString body) {
    try {
      return PageBody.parseFrom(body);
    } catch (com.google.protobuf.InvalidProtocolBufferException e) {
      throw new IllegalArgumentException(e);
    }
  }

  @Test
  void invalidWriteStampsAreRefused() {
    assertCorrupt(
        body(StoredPageKind.STORED_PAGE_KIND_LEAF)
            .addKeys(bs("a"))
            .addKeys(bs("b"))
            .addValues(bs("1"))
            .addValues(bs("2"))
            .addWriteStamps(7),
        "2 keys but 1 write stamps");
    assertCorrupt(
        body(StoredPageKind.STORED_PAGE_KIND_LEAF)
            .addKeys(bs("a"))
            .addValues(bs("1"))
            .addWriteStamps(-1L), // 2^64 - 1 unsigned: beyond what a stamp may be
        "write stamp must not be negative");
  }

  @Test
  void tombstonesRoundTripInFormat5AndPagesWithoutThemStayFormat4() throws Exception {
    Page leaf =
        Page.builder(URI, PageKind.LEAF)
            .entries(new byte[][] {{2}}, new byte[][] {{2}}, new long[] {5})
            .tombstones(new byte[][] {{1}, {3}}, new long[] {7, Long.MAX_VALUE})
            .build();
    byte[] stored = PageCodec.encode(leaf);
    assertThat(StoredPage.parseFrom(stored).getFormatVersion()).isEqualTo(5);
    Page back = PageCodec.decode(URI, stored);
    assertThat(back).isEqualTo(leaf);
    assertThat(back.entryCount()).as("a tombstone is no entry").isEqualTo(1);
    assertThat(back.get(new byte[] {1})).isEmpty();
    assertThat(back.tombstoneStamp(new byte[] {1})).isEqualTo(7);
    assertThat(back.tombstoneStamp(new byte[] {2})).isZero();
    assertThat(back.maxStamp()).as("tombstones count for stamps seen").isEqualTo(Long.MAX_VALUE);
    Page without = Page.builder(URI, PageKind.LEAF).build();
    assertThat(StoredPage.parseFrom(PageCodec.encode(without)).getFormatVersion()).isEqualTo(4);
  }

  @Test
  void invalidTombstonesAreRefused() {
    PageBody.Builder tombstoned =
        body(StoredPageKind.STORED_PAGE_KIND_LEAF).addTombstoneKeys(bs("a")).addTombstoneStamps(3);
    byte[] format4 =
        envelope(tombstoned.build().toByteArray()).setFormatVersion(4).build().toByteArray();
    assertThatThrownBy(() -> PageCodec.decode(URI, format4))
        .isInstanceOf(CorruptPageException.class)
        .hasMessageContaining("tombstones in a page of format 4");
    assertCorrupt(
        body(StoredPageKind.STORED_PAGE_KIND_LEAF)
            .addTombstoneKeys(bs("a"))
            .addTombstoneKeys(bs("b"))
            .addTombstoneStamps(3),
        "2 tombstone keys but 1 stamps");
    assertCorrupt(
        body(StoredPageKind.STORED_PAGE_KIND_LEAF)
            .addKeys(bs("a"))
            .addValues(bs("1"))
            .addTombstoneKeys(bs("a"))
            .addTombstoneStamps(3),
        "both an entry and a tombstone");
    assertCorrupt(
        body(StoredPageKind.STORED_PAGE_KIND_LEAF)
            .addTombstoneKeys(bs("b"))
            .addTombstoneKeys(bs("a"))
            .addTombstoneStamps(3)
            .addTombstoneStamps(4),
        "sorted and unique");
    assertCorrupt(
        body(StoredPageKind.STORED_PAGE_KIND_LEAF).addTombstoneKeys(bs("a")).addTombstoneStamps(0),
        "must be positive");
    assertCorrupt(
        body(StoredPageKind.STORED_PAGE_KIND_INNER).addTombstoneKeys(bs("a")).addTombstoneStamps(3),
        "only leaves keep tombstones");
  }

  @Test
  void aPutOfATombstonedKeyRemovesTheTombstoneAndARemoveKeepsThem() {
    Page leaf =
        Page.builder(URI, PageKind.LEAF)
            .entries(new byte[][] {{2}}, new byte[][] {{2}})
            .tombstones(new byte[][] {{1}, {3}}, new long[] {7, 9})
            .build();
    Page put = leaf.withPut(new byte[] {1}, new byte[] {1}, 8);
    assertThat(put.tombstoneCount()).isEqualTo(1);
    assertThat(put.tombstoneStamp(new byte[] {1})).isZero();
    assertThat(put.get(new byte[] {1})).isPresent();
    assertThat(put.encodedSizeBound()).isLessThan(leaf.encodedSizeBound() + 30);
    Page removed = put.withRemoved(new byte[] {2});
    assertThat(removed.entryCount()).isEqualTo(1);
    assertThat(removed.tombstoneStamp(new byte[] {3})).isEqualTo(9);
    assertThat(leaf.withPut(new byte[] {4}, new byte[0]).tombstoneCount()).isEqualTo(2);
  }

  @Test
  void keysAreOrderedAsUnsignedBytes() {
    // 0x7f < 0x80 unsigned (not signed): a page sorted that way must decode.
    Page p =
        Page.builder(URI, PageKind.LEAF)
            .entries(new byte[][] {{0x7f}, {(byte) 0x80}}, new byte[][] {{1}, {2}})
            .build();
    assertThat(PageCodec.decode(URI, PageCodec.encode(p))).isEqualTo(p);
  }

  /**
   * Every position of the envelope and the page header (the first 256 bytes), and 256 random ones
   * beyond: large pages would make trying them all quadratic.
   */
  private static int[] positions(Random r, int length) {
    if (length <= 512) {
      return java.util.stream.IntStream.range(0, length).toArray();
    }
    return java.util.stream.IntStream.concat(
            java.util.stream.IntStream.range(0, 256), r.ints(256, 256, length))
        .toArray();
  }

  private static void assertCorrupt(PageBody.Builder body, String problem) {
    byte[] stored = envelope(body.build().toByteArray()).build().toByteArray();
    assertThatThrownBy(() -> PageCodec.decode(URI, stored))
        .isInstanceOf(CorruptPageException.class)
        .hasMessageContaining(problem);
  }

  private static PageBody.Builder body(StoredPageKind kind) {
    return PageBody.newBuilder().setUri(URI).setKind(kind);
  }

  /** An envelope of {@code body} with the format the encoder writes for it. */
  private static StoredPage.Builder envelope(byte[] body) {
    int format;
    try {
      format =
          PageBody.parseFrom(body).getTombstoneKeysCount() > 0
              ? PageCodec.FORMAT_VERSION
              : PageCodec.FORMAT_WITHOUT_TOMBSTONES;
    } catch (com.google.protobuf.InvalidProtocolBufferException e) {
      throw new IllegalArgumentException(e);
    }
    return StoredPage.newBuilder()
        .setFormatVersion(format)
        .setCrc32C(PageCodec.crc32c(body))
        .setBody(ByteString.copyFrom(body));
  }

  private static ByteString bs(String s) {
    return ByteString.copyFrom(s.getBytes(StandardCharsets.ISO_8859_1));
  }
}
