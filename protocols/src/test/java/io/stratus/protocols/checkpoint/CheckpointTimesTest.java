package io.stratus.protocols.checkpoint;

import static org.assertj.core.api.Assertions.assertThat;

import io.stratus.cloudapi.testing.Seed;
import io.stratus.cloudapi.testing.SeedExtension;
import io.stratus.pagemanager.Page;
import io.stratus.pagemanager.PageCodec;
import io.stratus.pagemanager.PageKind;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The checkpoint times in the queue protocols' page state: they round-trip with the chains through
 * the page format, writing either part keeps the other, and a split's new pages keep the page's
 * time only.
 */
@ExtendWith(SeedExtension.class)
class CheckpointTimesTest {
  private static final String PAGE = "db/c/t/leaf-1";

  private static long anyTime(Random r) {
    return switch (r.nextInt(4)) {
      case 0 -> 0;
      case 1 -> r.nextLong(); // a clock far off, either way
      default -> 1_700_000_000_000L + r.nextInt(1_000_000_000);
    };
  }

  private static Page stored(Page p) {
    return PageCodec.decode(p.uri(), PageCodec.encode(p));
  }

  @Test
  void timesAndChainsRoundTripThroughThePageFormat(@Seed long seed) {
    Random r = new Random(seed);
    for (int trial = 0; trial < 500; trial++) {
      ChainState chains = ChainStateTest.randomState(r);
      CheckpointTimes times = new CheckpointTimes(anyTime(r), anyTime(r));
      Page page =
          stored(
              Page.builder(PAGE, PageKind.LEAF)
                  .entries(new byte[][] {{1}}, new byte[][] {{2}})
                  .protocolState(chains.encode(times))
                  .build());
      assertThat(CheckpointTimes.of(page)).as("seed %d, trial %d", seed, trial).isEqualTo(times);
      assertThat(ChainState.of(page)).as("seed %d, trial %d", seed, trial).isEqualTo(chains);
      assertThat(PageCodec.encode(page).length).isLessThanOrEqualTo(page.encodedSizeBound());
    }
  }

  @Test
  void writingEitherPartKeepsTheOther(@Seed long seed) {
    Random r = new Random(seed);
    Page empty = Page.builder(PAGE, PageKind.LEAF).build();
    for (int trial = 0; trial < 300; trial++) {
      ChainState chains = ChainStateTest.randomState(r);
      CheckpointTimes times = new CheckpointTimes(anyTime(r), anyTime(r));
      Page timesFirst = stored(chains.writeTo(times.writeTo(empty)));
      Page chainsFirst = stored(times.writeTo(chains.writeTo(empty)));
      for (Page p : new Page[] {timesFirst, chainsFirst}) {
        assertThat(CheckpointTimes.of(p)).as("seed %d, trial %d", seed, trial).isEqualTo(times);
        assertThat(ChainState.of(p)).as("seed %d, trial %d", seed, trial).isEqualTo(chains);
      }
      CheckpointTimes later = times.withPage(anyTime(r)).withTree(anyTime(r));
      assertThat(CheckpointTimes.of(later.writeTo(timesFirst))).isEqualTo(later);
      assertThat(ChainState.of(later.writeTo(timesFirst))).isEqualTo(chains);
    }
  }

  @Test
  void aPageNeverCheckpointedAndWithoutChainsCarriesNoState() {
    assertThat(ChainState.EMPTY.encode(CheckpointTimes.NEVER)).isEmpty();
    Page empty = Page.builder(PAGE, PageKind.LEAF).build();
    assertThat(CheckpointTimes.of(empty)).isEqualTo(CheckpointTimes.NEVER);
    assertThat(CheckpointTimes.NEVER.writeTo(empty)).isEqualTo(empty);
    assertThat(CheckpointTimes.of(new CheckpointTimes(5, 0).writeTo(empty)).pageMillis())
        .isEqualTo(5);
  }

  @Test
  void aSplitsNewPagesKeepThePagesTimeOnly(@Seed long seed) {
    Random r = new Random(seed);
    for (int trial = 0; trial < 200; trial++) {
      ChainState chains = ChainStateTest.randomState(r);
      CheckpointTimes times = new CheckpointTimes(anyTime(r), anyTime(r));
      byte[] piece = CheckpointTimes.PIECES.ofNewPiece(chains.encode(times));
      Page p = Page.builder("db/c/t/new", PageKind.LEAF).protocolState(piece).build();
      assertThat(CheckpointTimes.of(p)).isEqualTo(new CheckpointTimes(times.pageMillis(), 0));
      assertThat(ChainState.of(p)).isEqualTo(ChainState.EMPTY);
    }
    assertThat(CheckpointTimes.PIECES.ofNewPiece(new byte[0])).isEmpty();
  }

  @Test
  void aPageOfAnotherProtocolHasNoTimesForTools() {
    Page snapshot =
        Page.builder(PAGE, PageKind.LEAF).protocolState(new byte[] {1, 0, 0, 0, 0}).build();
    assertThat(CheckpointTimes.ofAnyProtocol(snapshot)).isEmpty();
    assertThat(CheckpointTimes.orNever(snapshot)).isEqualTo(CheckpointTimes.NEVER);
  }
}
