package io.stratus.protocols.checkpoint;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.stratus.CorruptPageException;
import io.stratus.cloudapi.testing.Seed;
import io.stratus.cloudapi.testing.SeedExtension;
import io.stratus.pagemanager.Page;
import io.stratus.pagemanager.PageKind;
import io.stratus.protocols.checkpoint.proto.ChainGroup;
import io.stratus.protocols.checkpoint.proto.HeldCounters;
import io.stratus.protocols.checkpoint.proto.StoredChainState;
import io.stratus.protocols.log.WriterIds;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/** The stored form of the chain state: chains grouped per incarnation, and the form before. */
@ExtendWith(SeedExtension.class)
class ChainStateTest {
  private static final String PAGE = "db/c/t/leaf-1";

  private static ChainState read(byte[] stored) {
    return ChainState.of(Page.builder(PAGE, PageKind.LEAF).protocolState(stored).build());
  }

  private static ChainState roundTrip(ChainState state) {
    return ChainState.of(state.writeTo(Page.builder(PAGE, PageKind.LEAF).build()));
  }

  /**
   * Pages written before chains were grouped keep them in one map, times aligned by sorted key:
   * they read as the same state, and are written back grouped.
   */
  @Test
  void headersOfTheFormBeforeGroupsReadAsTheSameState() {
    String a0 = "t:" + WriterIds.of("a#k1-0001", 0);
    String a3 = "t:" + WriterIds.of("a#k1-0001", 3);
    String b1 = "q:" + WriterIds.of("b#k2-0002", 1);
    String old = "t:c#k3"; // a writer id of a version before lanes
    // Aligned with the keys in ascending order: a0, a3, b1 (q: before t:), old.
    List<String> sorted = new ArrayList<>(new TreeSet<>(List.of(a0, a3, b1, old)));
    assertThat(sorted).containsExactly(b1, a0, a3, old);
    byte[] stored =
        StoredChainState.newBuilder()
            .putCounters(a0, 7)
            .putCounters(a3, 2)
            .putCounters(b1, 40_000)
            .putCounters(old, 1)
            .addAllAppliedMinutes(List.of(29_000_001, 29_000_002, 0, 29_000_004))
            .addAllFreeMinutes(List.of(0, 0, 29_000_010, 0))
            .addHeld(HeldCounters.newBuilder().setKey(b1).addCounters(39_998))
            .addRetired(12345)
            .addRetiredCounters(9)
            .build()
            .toByteArray();
    ChainState expected =
        new ChainState(
            Map.of(a0, 7L, a3, 2L, b1, 40_000L, old, 1L),
            Map.of(b1, 29_000_001, a0, 29_000_002, old, 29_000_004),
            List.of(new ChainState.Retired(12345, 9)),
            Map.of(a3, 29_000_010),
            Map.of(b1, List.of(39_998L)));
    ChainState decoded = read(stored);
    assertThat(decoded).isEqualTo(expected);

    StoredChainState rewritten = parse(decoded.encode());
    assertThat(rewritten.getCountersMap()).isEmpty();
    assertThat(rewritten.getAppliedMinutesList()).isEmpty();
    assertThat(rewritten.getFreeMinutesList()).isEmpty();
    assertThat(rewritten.getGroupsList())
        .extracting(ChainGroup::getPrefix)
        .containsExactly("q:b#k2-0002.", "t:a#k1-0001.", "t:c#k3");
    assertThat(rewritten.getGroups(1).getLanesList()).containsExactly(1, 4);
    assertThat(read(decoded.encode())).isEqualTo(expected);
  }

  /** Times not aligned with the keys (of another length) are unknown, as before groups. */
  @Test
  void timesOfAnotherLengthAreUnknown() {
    String a0 = "t:" + WriterIds.of("a#k1-0001", 0);
    ChainGroup group =
        ChainGroup.newBuilder()
            .setPrefix("t:a#k1-0001.")
            .addLanes(1)
            .addLanes(2)
            .addCounters(3)
            .addCounters(4)
            .addAppliedMinutes(5)
            .build();
    ChainState decoded = read(StoredChainState.newBuilder().addGroups(group).build().toByteArray());
    assertThat(decoded.counters())
        .containsOnly(Map.entry(a0, 3L), Map.entry("t:" + WriterIds.of("a#k1-0001", 1), 4L));
    assertThat(decoded.appliedMinutes()).isEmpty();
  }

  /** A group whose counters are not aligned with its lanes, or a key stored twice, is corrupt. */
  @Test
  void aGroupThatDoesNotAddUpIsCorrupt() {
    ChainGroup unaligned =
        ChainGroup.newBuilder().setPrefix("t:a#k.").addLanes(1).addLanes(2).addCounters(3).build();
    assertThatThrownBy(
            () -> read(StoredChainState.newBuilder().addGroups(unaligned).build().toByteArray()))
        .isInstanceOf(CorruptPageException.class)
        .hasMessageContaining(PAGE)
        .hasMessageContaining("2 lanes has 1 counters");
    byte[] twice =
        StoredChainState.newBuilder()
            .putCounters("t:a#k.0", 1)
            .addGroups(ChainGroup.newBuilder().setPrefix("t:a#k.").addLanes(1).addCounters(2))
            .build()
            .toByteArray();
    assertThatThrownBy(() -> read(twice))
        .isInstanceOf(CorruptPageException.class)
        .hasMessageContaining("t:a#k.0 is stored twice");
  }

  /** Any state reads back as itself from its grouped form. */
  @Test
  void anyStateReadsBackAsItself(@Seed long seed) {
    Random random = new Random(seed);
    for (int trial = 0; trial < 500; trial++) {
      ChainState state = randomState(random);
      assertThat(roundTrip(state)).as("seed %d, trial %d", seed, trial).isEqualTo(state);
      assertThat(parse(state.encode()).getCountersMap()).isEmpty();
    }
  }

  /**
   * The bytes {@link HeaderSize} counts for a state are never fewer than its stored form takes in
   * a page: the budget a checkpoint keeps relies on it.
   */
  @Test
  void theCountedBytesBoundTheStoredForm(@Seed long seed) {
    Random random = new Random(seed);
    Page empty = Page.builder(PAGE, PageKind.LEAF).build();
    for (int trial = 0; trial < 500; trial++) {
      ChainState state = randomState(random);
      int stored = state.writeTo(empty).encodedSizeBound() - empty.encodedSizeBound();
      int bound = HeaderSize.of(state).bytes();
      assertThat(stored).as("seed %d, trial %d: %s", seed, trial, state).isLessThanOrEqualTo(bound);
    }
  }

  /**
   * A random state: incarnations of default-length or short ids with a few lanes (some lanes large
   * or written with leading zeros, so not stored as lane numbers), keys of writers without lanes,
   * any counters and times, some found free, some holding counters, some chains retired.
   */
  static ChainState randomState(Random random) {
    Map<String, Long> counters = new HashMap<>();
    Map<String, Integer> applied = new HashMap<>();
    Map<String, Integer> free = new HashMap<>();
    Map<String, List<Long>> held = new HashMap<>();
    for (int inc = random.nextInt(6); inc > 0; inc--) {
      String kind = random.nextBoolean() ? "t:" : "q:";
      String incarnation =
          random.nextBoolean()
              ? java.util.UUID.nameUUIDFromBytes(new byte[] {(byte) random.nextInt()})
                  + "#lz3k9q2a-4f1e8b2c"
              : "c" + random.nextInt(100) + "#k" + random.nextInt(10);
      for (int lanes = 1 + random.nextInt(5); lanes > 0; lanes--) {
        String key =
            switch (random.nextInt(8)) {
              case 0 -> kind + incarnation; // a writer without lanes
              case 1 -> kind + incarnation + ".0" + random.nextInt(10); // not a lane number
              case 2 -> kind + incarnation + "." + (random.nextInt(Integer.MAX_VALUE));
              case 3 -> kind + incarnation + ".";
              default -> kind + WriterIds.of(incarnation, random.nextInt(40));
            };
        long counter =
            switch (random.nextInt(4)) {
              case 0 -> random.nextLong();
              case 1 -> 0;
              default -> random.nextInt(1_000_000);
            };
        counters.put(key, counter);
        if (random.nextInt(4) != 0) {
          applied.put(key, random.nextInt(3) == 0 ? random.nextInt() : 29_000_000);
        }
        if (random.nextInt(4) == 0) {
          free.put(key, random.nextInt(3) == 0 ? random.nextInt() : 29_000_500);
        }
        if (random.nextInt(6) == 0) {
          List<Long> h = new ArrayList<>();
          for (int n = 1 + random.nextInt(16); n > 0; n--) {
            h.add(random.nextInt(3) == 0 ? random.nextLong() : random.nextInt(1_000));
          }
          held.put(key, h);
        }
      }
    }
    List<ChainState.Retired> retired = new ArrayList<>();
    for (int n = random.nextInt(WriteChains.RETIRED_KEPT + 1); n > 0; n--) {
      retired.add(
          new ChainState.Retired(random.nextInt(), random.nextInt(3) == 0 ? 0 : random.nextLong()));
    }
    return new ChainState(counters, applied, retired, free, held);
  }

  private static StoredChainState parse(byte[] bytes) {
    try {
      return StoredChainState.parseFrom(bytes);
    } catch (com.google.protobuf.InvalidProtocolBufferException e) {
      throw new AssertionError(e);
    }
  }
}
