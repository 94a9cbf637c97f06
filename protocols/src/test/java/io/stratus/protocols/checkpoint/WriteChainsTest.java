package io.stratus.protocols.checkpoint;

import static org.assertj.core.api.Assertions.assertThat;

import io.stratus.cloudapi.testing.Seed;
import io.stratus.cloudapi.testing.SeedExtension;
import io.stratus.pagemanager.Page;
import io.stratus.pagemanager.PageKind;
import io.stratus.protocols.LogicalChange;
import io.stratus.protocols.log.LaneDependency;
import io.stratus.protocols.log.LogMessages;
import io.stratus.protocols.log.LogRecord;
import io.stratus.protocols.log.WriterIds;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Random;
import java.util.Set;
import java.util.function.Function;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/** Chains, duplicates, gaps and lane dependencies as one checkpoint sees them. */
@ExtendWith(SeedExtension.class)
class WriteChainsTest {
  private static final String PAGE = "db/c/t/leaf-1";
  private static final String INCARNATION = "a#k1-0001";

  private static LogRecord rec(
      int lane, long counter, String value, long commitTime, LaneDependency... after) {
    LogicalChange change =
        new LogicalChange(
            LogicalChange.Kind.UPDATE,
            "db/c/t/root",
            new byte[] {3},
            value.getBytes(),
            Optional.of(PAGE));
    return new LogRecord(
        change,
        WriterIds.of(INCARNATION, lane),
        counter,
        "tx-" + value,
        commitTime,
        0,
        List.of(after));
  }

  /** One data-page checkpoint's view of {@code records}, nothing blocked. */
  private static WriteChains.Filtered filter(List<LogRecord> records, Map<String, Long> header) {
    return WriteChains.filter(
        records,
        new ChainState(header, Map.of(), List.of())
            .writeTo(Page.builder(PAGE, PageKind.LEAF).build()),
        false,
        PAGE,
        r -> false,
        WriteChains.Policy.unbounded(0));
  }

  private static List<String> values(List<LogRecord> rs) {
    List<String> out = new ArrayList<>();
    for (LogRecord r : rs) {
      out.add(new String(r.change().value()));
    }
    return out;
  }

  /** A data-page checkpoint over a header {@code state}, {@code damaged} blocked by damage. */
  private static WriteChains.Filtered filterDamaged(
      List<LogRecord> records, ChainState state, Set<LogRecord> damaged) {
    return WriteChains.filter(
        records,
        state.writeTo(Page.builder(PAGE, PageKind.LEAF).build()),
        false,
        PAGE,
        damaged::contains,
        damaged::contains,
        WriteChains.Policy.unbounded(0));
  }

  @Test
  void aRecordBlockedByDamageIsHeldWhileItsChainGoesOnAndAppliedOnceHealthy() {
    String key = WriteChains.key(WriterIds.of(INCARNATION, 0), false);
    LogRecord r1 = rec(0, 1, "r1", 10);
    LogRecord r2 = rec(0, 2, "r2", 20);
    LogRecord r3 = rec(0, 3, "r3", 30);
    WriteChains.Filtered damaged =
        filterDamaged(List.of(r3, r2, r1), ChainState.EMPTY, Set.of(r1, r3));
    assertThat(values(damaged.apply())).containsExactly("r2");
    assertThat(values(damaged.deferred())).containsExactlyInAnyOrder("r1", "r3");
    assertThat(damaged.counters()).containsEntry(key, 3L);
    assertThat(damaged.held()).containsEntry(key, List.of(1L, 3L));
    ChainState after =
        new ChainState(damaged.counters(), Map.of(), List.of(), Map.of(), damaged.held());
    assertThat(ChainState.of(after.writeTo(Page.builder(PAGE, PageKind.LEAF).build())))
        .isEqualTo(after);
    assertThat(after.applied(key, 2)).isTrue();
    assertThat(after.applied(key, 1)).isFalse();

    // A held record not in the checkpoint: where it lands is unknown, so the chain waits.
    LogRecord r4 = rec(0, 4, "r4", 40);
    WriteChains.Filtered oneMissing = filterDamaged(List.of(r4, r3), after, Set.of());
    assertThat(values(oneMissing.apply())).isEmpty();
    assertThat(oneMissing.held()).containsEntry(key, List.of(1L, 3L));

    // Repaired: the held records in counter order, then the chain; a copy of r2 stays a duplicate.
    WriteChains.Filtered repaired = filterDamaged(List.of(r4, r3, r2, r1), after, Set.of());
    assertThat(values(repaired.apply())).containsExactly("r1", "r3", "r4");
    assertThat(repaired.deferred()).isEmpty();
    assertThat(repaired.held()).isEmpty();
    assertThat(repaired.counters()).containsEntry(key, 4L);
  }

  @Test
  void aHeaderWithoutHeldCountersDecodesAsHoldingNone() {
    ChainState old =
        new ChainState(
            Map.of("t:a#k-0001", 7L),
            Map.of("t:a#k-0001", 9),
            List.of(new ChainState.Retired(5, 4)));
    // Held counters are a field of their own: without them the bytes are those of older headers.
    ChainState decoded = ChainState.of(old.writeTo(Page.builder(PAGE, PageKind.LEAF).build()));
    assertThat(decoded.held()).isEmpty();
    assertThat(decoded.counters()).containsEntry("t:a#k-0001", 7L);
    assertThat(decoded.applied("t:a#k-0001", 7)).isTrue();
    assertThat(decoded.retired()).containsExactly(new ChainState.Retired(5, 4));
  }

  @Test
  void aRecordWaitsForTheLaneCountersItDependsOn() {
    LogRecord a1 = rec(0, 1, "a1", 10);
    LogRecord a2 = rec(0, 2, "a2", 20);
    LogRecord c1 = rec(1, 1, "c1", 15, new LaneDependency(0, 2)); // began after a2 completed
    LogRecord c2 = rec(1, 2, "c2", 30);

    WriteChains.Filtered all = filter(List.of(c2, c1, a2, a1), Map.of());
    assertThat(values(all.apply())).containsExactly("a1", "a2", "c1", "c2");
    assertThat(all.deferred()).isEmpty();

    WriteChains.Filtered missing = filter(List.of(c2, c1, a1), Map.of());
    assertThat(values(missing.apply())).containsExactly("a1");
    assertThat(values(missing.deferred())).containsExactlyInAnyOrder("c1", "c2");
    assertThat(missing.counters())
        .containsEntry(WriteChains.key(WriterIds.of(INCARNATION, 0), false), 1L);

    // The page already applied a2: c1's dependency is met by the header alone.
    Map<String, Long> header = Map.of(WriteChains.key(WriterIds.of(INCARNATION, 0), false), 2L);
    WriteChains.Filtered later = filter(List.of(c1, a2, a1), header);
    assertThat(values(later.apply())).containsExactly("c1");
  }

  @Test
  void anyDeliveryOrderWithDuplicatesAppliesEachRecordOnceInADependencyRespectingOrder(
      @Seed long seed) {
    Random random = new Random(seed);
    for (int trial = 0; trial < 200; trial++) {
      List<LogRecord> rs =
          new ArrayList<>(
              List.of(
                  rec(0, 1, "a1", 1),
                  rec(1, 1, "b1", 1),
                  rec(0, 2, "a2", 2, new LaneDependency(1, 1)),
                  rec(2, 1, "c1", 3, new LaneDependency(0, 2), new LaneDependency(1, 1)),
                  rec(1, 2, "b2", 4, new LaneDependency(2, 1))));
      rs.add(rs.get(random.nextInt(rs.size()))); // a duplicate delivery
      Collections.shuffle(rs, random);
      List<String> order = values(filter(rs, Map.of()).apply());
      assertThat(order).hasSize(5).containsExactlyInAnyOrder("a1", "b1", "a2", "c1", "b2");
      assertThat(order.indexOf("a2"))
          .isGreaterThan(order.indexOf("a1"))
          .isGreaterThan(order.indexOf("b1"));
      assertThat(order.indexOf("c1")).isGreaterThan(order.indexOf("a2"));
      assertThat(order.indexOf("b2")).isGreaterThan(order.indexOf("c1"));
    }
  }

  /**
   * The order a pass applies chained records in is the one a plain rescan gives — take, among the
   * heads that are next in their chain, not blocked and with their lane dependencies applied, the
   * earliest in commit order; repeat — over random chains of three incarnations with four lanes
   * each: random dependencies, gaps, duplicates, blocked records and header counters.
   */
  @Test
  void thePassAppliesWhatARescanWouldInTheSameOrder(@Seed long seed) {
    Random random = new Random(seed);
    for (int trial = 0; trial < 300; trial++) {
      List<LogRecord> rs = new ArrayList<>();
      Map<String, Long> header = new java.util.HashMap<>();
      for (int inc = 0; inc < 3; inc++) {
        String incarnation = "w" + inc + "#k1-0001";
        for (int lane = 0; lane < 4; lane++) {
          String writer = WriterIds.of(incarnation, lane);
          long applied = random.nextInt(4) == 0 ? random.nextInt(3) : 0;
          if (applied > 0) {
            header.put(WriteChains.key(writer, false), applied);
          }
          int length = random.nextInt(6);
          for (long c = 1; c <= length; c++) {
            if (random.nextInt(12) == 0) {
              continue; // a gap: a record not received
            }
            List<LaneDependency> after = new ArrayList<>();
            if (random.nextInt(3) == 0) {
              after.add(new LaneDependency(random.nextInt(4), 1 + random.nextInt(4)));
            }
            LogicalChange change =
                new LogicalChange(
                    LogicalChange.Kind.UPDATE,
                    "db/c/t/root",
                    new byte[] {3},
                    (writer + ":" + c).getBytes(),
                    Optional.of(PAGE));
            rs.add(
                new LogRecord(change, writer, c, "tx-" + writer + c, random.nextInt(50), 0, after));
          }
        }
      }
      for (int d = random.nextInt(3); d > 0 && !rs.isEmpty(); d--) {
        rs.add(rs.get(random.nextInt(rs.size()))); // duplicate deliveries
      }
      Collections.shuffle(rs, random);
      Set<LogRecord> blocked = new java.util.HashSet<>();
      for (LogRecord r : rs) {
        if (random.nextInt(15) == 0) {
          blocked.add(r);
        }
      }
      List<String> expected = values(rescan(rs, header, blocked::contains));
      WriteChains.Filtered pass =
          WriteChains.filter(
              rs,
              new ChainState(header, Map.of(), List.of())
                  .writeTo(Page.builder(PAGE, PageKind.LEAF).build()),
              false,
              PAGE,
              blocked::contains,
              WriteChains.Policy.unbounded(0));
      assertThat(values(pass.apply())).as("seed %d, trial %d", seed, trial).isEqualTo(expected);
    }
  }

  /** The reference: rescan every chain for each record taken. */
  private static List<LogRecord> rescan(
      List<LogRecord> records,
      Map<String, Long> header,
      java.util.function.Predicate<LogRecord> blocked) {
    Map<String, Long> counters = new java.util.HashMap<>(header);
    Map<String, List<LogRecord>> byWriter = new java.util.TreeMap<>();
    for (LogRecord r : records) {
      byWriter.computeIfAbsent(r.clientId(), w -> new ArrayList<>()).add(r);
    }
    List<LogRecord> out = new ArrayList<>();
    while (true) {
      LogRecord best = null;
      for (Map.Entry<String, List<LogRecord>> w : byWriter.entrySet()) {
        long last = counters.getOrDefault(WriteChains.key(w.getKey(), false), 0L);
        for (LogRecord r : w.getValue()) {
          if (r.clientCounter() != last + 1 || blocked.test(r)) {
            continue;
          }
          boolean met = true;
          for (LaneDependency d : r.after()) {
            String sibling = WriteChains.key(WriterIds.sibling(w.getKey(), d.lane()), false);
            met &= counters.getOrDefault(sibling, 0L) >= d.counter();
          }
          if (met && (best == null || Checkpointer.COMMIT_ORDER.compare(r, best) < 0)) {
            best = r;
          }
          break; // one copy of the next record is enough
        }
      }
      if (best == null) {
        return out;
      }
      counters.put(WriteChains.key(best.clientId(), false), best.clientCounter());
      out.add(best);
    }
  }

  @Test
  void laneDependenciesTravelInLogMessages() {
    LogRecord c1 = rec(1, 1, "c1", 15, new LaneDependency(0, 2), new LaneDependency(3, 7));
    List<byte[]> messages = LogMessages.pack(List.of(c1), 256 * 1024);
    assertThat(LogMessages.unpack(messages.get(0))).containsExactly(c1);
  }

  private static final long MINUTE = 60_000;
  private static final long HORIZON = 15 * MINUTE;
  private static final long DEATH = 5 * MINUTE;

  /** When the idle chains of the retirement cases last advanced. */
  private static final long T0 = 1_000 * MINUTE;

  /** The lease of {@link #INCARNATION} is free; every other writer's is held. */
  private static final Function<String, WriterLeases.State> OURS_FREE =
      w -> w.startsWith("a#") ? WriterLeases.State.FREE : WriterLeases.State.ALIVE;

  /**
   * {@link #PAGE} whose header holds lane 0 of {@link #INCARNATION} at counter 3, idle since
   * {@link #T0}, beside 12 other writers' chains: past half of {@link #budget}, so retirement runs.
   */
  private static Map<String, Long> idleAmongOthers() {
    Map<String, Long> counters = new HashMap<>();
    counters.put(IDLE, 3L);
    for (int i = 0; i < 12; i++) {
      counters.put(WriteChains.key(WriterIds.of("w" + i + "#k1-0001", 0), false), 1L);
    }
    return counters;
  }

  /** The key of the idle chain of {@link #idleAmongOthers}. */
  private static final String IDLE = WriteChains.key(WriterIds.of(INCARNATION, 0), false);

  /** {@link #PAGE} with the header of {@link #idleAmongOthers}. */
  private static Page idlePage() {
    return new ChainState(idleAmongOthers(), Map.of(IDLE, (int) (T0 / MINUTE)), List.of())
        .writeTo(Page.builder(PAGE, PageKind.LEAF).build());
  }

  /** A header budget 64 bytes above what {@code counters} take. */
  private static int budget(Map<String, Long> counters) {
    return WriteChains.headerBytes(counters, List.of()) + 64;
  }

  /** One checkpoint of {@code records} into {@code page} at {@code now}, nothing blocked. */
  private static WriteChains.Filtered pass(
      List<LogRecord> records,
      Page page,
      boolean tree,
      long now,
      int budget,
      Function<String, WriterLeases.State> leases) {
    return WriteChains.filter(
        records,
        page,
        tree,
        page.uri(),
        r -> false,
        new WriteChains.Policy(now, budget, HORIZON, DEATH, leases));
  }

  /**
   * A free writer lease is counted, not believed: a lock-service restart frees every live
   * writer's lease until its next renewal. A chain past the horizon is retired only when its lease
   * is found free again a death time after the first sighting (kept in the header, so another
   * client's checkpoint continues the count), and a probe finding it held starts over.
   */
  @Test
  void aChainIsRetiredOnlyOnceItsLeaseWasFoundFreeForADeathTime() {
    String idle = IDLE;
    int budget = budget(idleAmongOthers());
    Page page = idlePage();
    Function<String, WriterLeases.State> held = w -> WriterLeases.State.ALIVE;

    long t1 = T0 + HORIZON + 2 * MINUTE; // past the horizon; the lease free (a restart?)
    WriteChains.Filtered first = pass(List.of(), page, false, t1, budget, OURS_FREE);
    assertThat(first.counters()).containsKey(idle);
    assertThat(first.free()).containsEntry(idle, (int) (t1 / MINUTE));
    page = first.header(page);

    // Found held in between (the writer renewed): the count starts over.
    WriteChains.Filtered renewed = pass(List.of(), page, false, t1 + MINUTE, budget, held);
    assertThat(renewed.free()).doesNotContainKey(idle);
    page = renewed.header(page);
    WriteChains.Filtered again =
        pass(List.of(), page, false, t1 + DEATH + 2 * MINUTE, budget, OURS_FREE);
    assertThat(again.counters()).as("free again, but not for a death time").containsKey(idle);
    page = again.header(page);
    assertThat(ChainState.of(page).freeMinutes()).containsKey(idle);

    long t2 = t1 + 2 * DEATH + 4 * MINUTE;
    WriteChains.Filtered dead = pass(List.of(), page, false, t2, budget, OURS_FREE);
    assertThat(dead.counters()).doesNotContainKey(idle);
    assertThat(dead.retired()).isEqualTo(1);
    assertThat(dead.free()).isEmpty();
  }

  /**
   * A retirement taken in error — the writer's lease found free for a death time while its
   * process ran on (paused, or its renewals failing) — must not cost a write: the chain resumes
   * at the counter it had reached, and only copies of records applied before it retired are
   * skipped, even once the writer is gone for real.
   */
  @Test
  void aChainRetiredWhileItsWriterLivedResumesWhereItStopped() {
    String idle = IDLE;
    int budget = budget(idleAmongOthers());
    Page page = idlePage();
    long t1 = T0 + HORIZON + 2 * MINUTE;
    for (long t : new long[] {t1, t1 + 2 * DEATH + 4 * MINUTE}) {
      page = pass(List.of(), page, false, t, budget, OURS_FREE).header(page);
    }
    assertThat(ChainState.of(page).counters()).doesNotContainKey(idle);
    assertThat(ChainState.of(page).retired())
        .containsExactly(new ChainState.Retired(idle.hashCode(), 3));
    long later = t1 + 3 * DEATH;

    // The writer lived on: its next records arrive, with a redelivered copy of one applied before.
    WriteChains.Filtered resumed =
        pass(
            List.of(rec(0, 5, "r5", 50), rec(0, 2, "old", 20), rec(0, 4, "r4", 40)),
            page,
            false,
            later,
            budget,
            OURS_FREE);
    assertThat(values(resumed.apply())).containsExactly("r4", "r5");
    assertThat(values(resumed.leftovers())).containsExactly("old");
    assertThat(resumed.deferred()).isEmpty();
    assertThat(resumed.counters()).containsEntry(idle, 5L);
    assertThat(resumed.retiredChains()).isEmpty();

    // A sibling lane's record that must follow the retired chain's third record: met.
    WriteChains.Filtered sibling =
        pass(
            List.of(rec(1, 1, "c1", 60, new LaneDependency(0, 3))),
            page,
            false,
            later,
            budget,
            OURS_FREE);
    assertThat(values(sibling.apply())).containsExactly("c1");

    // A gap after the retired counter waits, like any gap.
    WriteChains.Filtered gap =
        pass(List.of(rec(0, 5, "r5", 50)), page, false, later, budget, OURS_FREE);
    assertThat(gap.apply()).isEmpty();
    assertThat(values(gap.deferred())).containsExactly("r5");
    assertThat(gap.leftovers()).isEmpty();
  }

  /**
   * A root that was a leaf keeps its data-page chains ({@code q:…}) after it split; its
   * data-page queue may never be checkpointed again, so the tree's checkpoints retire them too —
   * otherwise they hold a small root's header budget for good.
   */
  @Test
  void aSplitRootsDataPageChainsAreRetiredByTheTreesCheckpoints() {
    String root = "db/c/t/root";
    Map<String, Long> counters = new HashMap<>();
    Map<String, Integer> applied = new HashMap<>();
    for (int i = 0; i < 6; i++) {
      String key = WriteChains.key(WriterIds.of("gone" + i + "#k1-0001", 0), false);
      counters.put(key, 4L);
      applied.put(key, (int) (T0 / MINUTE));
    }
    Page page =
        new ChainState(counters, applied, List.of())
            .writeTo(Page.builder(root, PageKind.INNER).level(1).build());
    int budget = WriteChains.headerBytes(counters, List.of()) + 32;
    long t1 = T0 + HORIZON + 2 * MINUTE;
    for (int pass = 0; pass < 4; pass++) { // a few probes per checkpoint
      long t = t1 + pass * (2 * DEATH + 4 * MINUTE);
      page = pass(List.of(), page, true, t, budget, w -> WriterLeases.State.FREE).header(page);
    }
    ChainState after = ChainState.of(page);
    assertThat(after.counters()).hasSizeLessThan(6); // retired until the header is half the budget
    assertThat(WriteChains.headerBytes(after.counters(), after.retired())).isLessThan(budget);
    assertThat(after.retired()).hasSize(6 - after.counters().size());
  }

  /** The record of lane 0 of {@code writer} with {@code counter}, for {@link #PAGE}. */
  private static LogRecord recOf(String writer, long counter, String value) {
    LogRecord r = rec(0, counter, value, counter * 10);
    return new LogRecord(
        r.change(), writer, counter, r.transactionId(), r.commitTimeMillis(), 0, List.of());
  }

  /**
   * Pages written while data-page keys carried the page's URI ({@code p:<writer>@<pageUri>}) are
   * read with today's keys: the page's own chains go on where they were, copies of other pages'
   * chains (old splits) are dropped, and a chain retired under the old key's hash is still known.
   */
  @Test
  void chainKeysWrittenWithThePagesUriAreReadAsTodaysKeys() {
    String writer = WriterIds.of(INCARNATION, 0);
    String retiredWriter = WriterIds.of("r#k1-0001", 0);
    Map<String, Long> old = new HashMap<>();
    old.put("p:" + writer + "@" + PAGE, 5L);
    old.put("p:" + WriterIds.of("x#k1-0001", 0) + "@db/c/t/leaf-9", 3L); // another page's copy
    old.put("t:" + WriterIds.of("y#k1-0001", 0), 2L);
    ChainState legacy =
        new ChainState(
            old,
            Map.of("p:" + writer + "@" + PAGE, 17),
            List.of(new ChainState.Retired(("p:" + retiredWriter + "@" + PAGE).hashCode(), 4)),
            Map.of(),
            Map.of("p:" + writer + "@" + PAGE, List.of(2L)));
    Page page = legacy.writeTo(Page.builder(PAGE, PageKind.LEAF).build());

    ChainState read = ChainState.of(page);
    String key = WriteChains.key(writer, false);
    assertThat(read.counters())
        .containsOnly(
            Map.entry(key, 5L), Map.entry(WriteChains.key(WriterIds.of("y#k1-0001", 0), true), 2L));
    assertThat(read.appliedMinutes()).containsOnly(Map.entry(key, 17));
    assertThat(read.held()).containsOnly(Map.entry(key, List.of(2L)));
    assertThat(read.applied(key, 5)).isTrue();
    assertThat(read.applied(key, 2)).isFalse();

    WriteChains.Filtered f =
        WriteChains.filter(
            List.of(
                recOf(writer, 5, "dup"),
                recOf(writer, 6, "w6"),
                recOf(writer, 2, "held"),
                recOf(retiredWriter, 3, "stray"),
                recOf(retiredWriter, 5, "resumed")),
            page,
            false,
            PAGE,
            r -> false,
            WriteChains.Policy.unbounded(0));
    assertThat(values(f.apply())).containsExactlyInAnyOrder("held", "w6", "resumed");
    assertThat(values(f.leftovers())).containsExactly("stray");
    assertThat(f.counters())
        .containsEntry(key, 6L)
        .containsEntry(WriteChains.key(retiredWriter, false), 5L)
        .allSatisfy((k, v) -> assertThat(k).doesNotStartWith("p:"));
    assertThat(f.retiredChains()).isEmpty(); // the resumed chain left the retired list
    assertThat(f.held()).isEmpty();
  }

  /**
   * A data page's chain key names the writer alone: splits start new pages without chains, so no
   * copy can stand for another page. On 1 KB pages half the page then holds the chains of six
   * writers with default ids (a UUID client id, an incarnation, a lane) rather than three.
   */
  @Test
  void aOneKilobytePagesHeaderHoldsTheChainsOfSixWritersWithDefaultIds() {
    String page = "s3://stratus-bucket/shop/c/orders/p-0f3a9c2e-5b7d-4e1a-9c3b-2d8e7f6a1b0c";
    List<LogRecord> records = new ArrayList<>();
    for (int i = 0; i < 6; i++) {
      String writer =
          WriterIds.of(
              java.util.UUID.nameUUIDFromBytes(new byte[] {(byte) i}) + "#lz3k9q2a-4f1e8b2c", 3);
      records.add(recOf(writer, 1, "w" + i));
    }
    WriteChains.Filtered f =
        WriteChains.filter(
            records,
            Page.builder(page, PageKind.LEAF).build(),
            false,
            page,
            r -> false,
            new WriteChains.Policy(
                T0,
                CheckpointPages.headerBudget(1024, Optional.empty()),
                HORIZON,
                DEATH,
                w -> WriterLeases.State.ALIVE));
    assertThat(f.waiting()).isZero();
    assertThat(f.apply()).hasSize(6);
  }

  /** Writer {@code lane} of incarnation {@code i} with a default-length id (UUID client id). */
  private static String defaultWriter(int i, int lane) {
    return WriterIds.of(
        java.util.UUID.nameUUIDFromBytes(new byte[] {(byte) i}) + "#lz3k9q2a-4f1e8b2c", lane);
  }

  /**
   * Chains are stored per incarnation, its lanes sharing its id's bytes: a 1 KB data page and a
   * 1 KB index root each take the chains of three processes with four request threads each
   * (default-length ids) at once, rather than keeping the records of half of them waiting for room
   * for as long as the others live.
   */
  @Test
  void aOneKilobytePageAndRootTakeTheChainsOfThreeIncarnationsOfFourLanes() {
    String root =
        new io.stratus.protocols.StorageLayout("s3://stratus-bucket/shop")
            .indexRoot("orders", "byCustomer");
    String page = "s3://stratus-bucket/shop/c/orders/p-0f3a9c2e-5b7d-4e1a-9c3b-2d8e7f6a1b0c";
    for (boolean tree : new boolean[] {false, true}) {
      String uri = tree ? root : page;
      int budget = CheckpointPages.headerBudget(1024, tree ? Optional.of(root) : Optional.empty());
      List<LogRecord> records = new ArrayList<>();
      for (int i = 0; i < 3; i++) {
        for (int lane = 0; lane < 4; lane++) {
          records.add(recOf(defaultWriter(i, lane), 1, "w" + i + "." + lane));
        }
      }
      Page empty =
          tree
              ? Page.builder(uri, PageKind.INNER).level(1).build()
              : Page.builder(uri, PageKind.LEAF).build();
      WriteChains.Filtered f =
          WriteChains.filter(
              records,
              empty,
              tree,
              uri,
              r -> false,
              new WriteChains.Policy(T0, budget, HORIZON, DEATH, w -> WriterLeases.State.ALIVE));
      assertThat(f.waiting()).as("tree %s, budget %d", tree, budget).isZero();
      assertThat(f.apply()).hasSize(12);
      Page written = f.header(empty);
      assertThat(written.encodedSizeBound() - empty.encodedSizeBound()).isLessThanOrEqualTo(budget);
    }
  }

  /**
   * Whatever the writers, lanes, counters, damage and budget, a pass never writes a header beyond
   * its budget (the bytes it counts bound what the stored form takes), and a chain without room
   * waits rather than breaking that.
   */
  @Test
  void aPassNeverWritesAHeaderBeyondItsBudget(@Seed long seed) {
    Random random = new Random(seed);
    for (int trial = 0; trial < 200; trial++) {
      int budget = 60 + random.nextInt(500);
      Page empty = Page.builder(PAGE, PageKind.LEAF).build();
      // A header within the budget to start from, some chains far along.
      Map<String, Long> next = new HashMap<>();
      Map<String, Long> start = new HashMap<>();
      Map<String, Integer> times = new HashMap<>();
      for (int n = random.nextInt(8); n > 0; n--) {
        String writer = writerFor(random);
        long counter = random.nextBoolean() ? 1 + random.nextInt(100) : random.nextLong() >>> 20;
        start.put(WriteChains.key(writer, false), counter);
        times.put(WriteChains.key(writer, false), (int) (T0 / MINUTE) - random.nextInt(100));
        if (HeaderSize.of(new ChainState(start, times, List.of())).bytes() > budget) {
          start.remove(WriteChains.key(writer, false));
          times.remove(WriteChains.key(writer, false));
        } else {
          next.put(writer, counter);
        }
      }
      Page page = new ChainState(start, times, List.of()).writeTo(empty);
      List<LogRecord> waiting = new ArrayList<>();
      for (int pass = 0; pass < 6; pass++) {
        List<LogRecord> records = new ArrayList<>(waiting);
        Set<LogRecord> damaged = new java.util.HashSet<>();
        for (int n = random.nextInt(12); n > 0; n--) {
          String writer = writerFor(random);
          long counter = next.merge(writer, 1L, Long::sum);
          LogRecord r = recOf(writer, counter, writer + counter);
          records.add(r);
          if (random.nextInt(5) == 0) {
            damaged.add(r);
          }
        }
        Collections.shuffle(records, random);
        long now = T0 + pass * MINUTE + random.nextInt(1000) * MINUTE;
        WriteChains.Filtered f =
            WriteChains.filter(
                records,
                page,
                false,
                PAGE,
                damaged::contains,
                damaged::contains,
                new WriteChains.Policy(
                    now, budget, Long.MAX_VALUE, Long.MAX_VALUE, w -> WriterLeases.State.ALIVE));
        page = f.header(page);
        waiting = f.deferred();
        assertThat(page.encodedSizeBound() - empty.encodedSizeBound())
            .as("seed %d, trial %d, pass %d", seed, trial, pass)
            .isLessThanOrEqualTo(budget);
      }
    }
  }

  /** A writer with a default-length id or a short one, of a few incarnations and lanes. */
  private static String writerFor(Random random) {
    return random.nextBoolean()
        ? defaultWriter(random.nextInt(6), random.nextInt(5))
        : WriterIds.of("c" + random.nextInt(4) + "#k1-0001", random.nextInt(200));
  }
}
