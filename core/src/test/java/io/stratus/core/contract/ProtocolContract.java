package io.stratus.core.contract;

import static io.stratus.core.contract.ContractCloud.COLLECTION;
import static io.stratus.core.contract.ContractCloud.bytes;
import static io.stratus.core.contract.ContractCloud.initial;
import static io.stratus.core.contract.ContractCloud.read;
import static io.stratus.core.contract.ContractCloud.scan;
import static io.stratus.core.contract.ContractCloud.update;
import static org.assertj.core.api.Assertions.assertThat;

import io.stratus.CommitFailedException;
import io.stratus.CommitStateUnknownException;
import io.stratus.StratusException;
import io.stratus.cloudapi.CloudFutures;
import io.stratus.cloudapi.QueueMessage;
import io.stratus.cloudapi.inprocess.QueueBehavior;
import io.stratus.cloudapi.inprocess.StorageConsistency;
import io.stratus.core.Database;
import io.stratus.core.IndexPlacement;
import io.stratus.core.Key;
import io.stratus.core.Transaction;
import io.stratus.protocols.Guarantee;
import io.stratus.protocols.ProtocolKind;
import io.stratus.testkit.Guarantees;
import io.stratus.testkit.History;
import java.lang.reflect.Method;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.TestInfo;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The contract every commit protocol runs: adversarial schedules on the in-process cloud, each
 * judged by what the protocol declares in {@link ProtocolKind#guarantees()}. A subclass names
 * only the protocol. Where a protocol does not make a guarantee, the test asserts the weaker
 * promise it does make instead of skipping: every protocol keeps the commits of one handle that
 * returned, keeps its trees well-formed, and shows only values somebody wrote; {@link
 * Guarantee#DURABLE} extends "nothing lost" to concurrent clients, {@link
 * Guarantee#MONOTONIC_WRITES} adds "and the latest write of a handle wins", and so on.
 *
 * <p>Schedules that need several writers use {@link #writers}: separate handles when the protocol
 * is durable across clients, otherwise one handle for all of them (what the protocol promises).
 *
 * <p>Every test runs once per seed of {@link ContractSeeds#seeds()}; the seed is printed and named
 * in every failure, with the property that replays it. The seeded history runs ({@link
 * HistoryHarness}) come last. The crash-point sweep over every protocol is {@link
 * CrashPointSweepTest}.
 */
@ExtendWith(ContractSeeds.class)
public abstract class ProtocolContract {
  /** The seed of the running test, for the failure report; null before it starts. */
  Long seed;

  private String test = "test";

  /** The protocol under test. */
  protected abstract ProtocolKind kind();

  @BeforeEach
  void nameTest(TestInfo info) {
    test = info.getTestMethod().map(Method::getName).orElse("test");
  }

  final boolean promises(Guarantee g) {
    return kind().guarantees(g);
  }

  /** Starts a test with {@code s}: remembers and prints the seed. */
  final void start(long s) {
    seed = s;
    System.out.println(
        "[contract] "
            + kind()
            + " "
            + getClass().getSimpleName()
            + "."
            + test
            + " seed="
            + s
            + " (replay: -D"
            + ContractSeeds.SEED
            + "="
            + s
            + ")");
  }

  final ContractCloud cloud(long s) {
    return cloud(s, QueueBehavior.reliable(), StorageConsistency.strong());
  }

  final ContractCloud cloud(long s, QueueBehavior queues, StorageConsistency storage) {
    start(s);
    return new ContractCloud(kind(), s, queues, storage);
  }

  /**
   * {@code n} writers named {@code <prefix>i}: n handles when the protocol is durable across
   * clients, else one handle n times.
   */
  final List<Database> writers(ContractCloud c, String prefix, int n) {
    List<Database> out = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      out.add(i == 0 || promises(Guarantee.DURABLE) ? c.open(prefix + i) : out.get(0));
    }
    return out;
  }

  /**
   * After quiescence, a key one handle wrote {@code writes} to in this order shows the last of
   * them with monotonic writes; without, any of them (a late or repeated redo record may re-apply
   * an older one), but never a value from before them.
   */
  final void assertSettled(String what, String actual, List<String> writes) {
    if (promises(Guarantee.MONOTONIC_WRITES)) {
      assertThat(actual)
          .as("%s: the handle's last write wins", what)
          .isEqualTo(writes.get(writes.size() - 1));
    } else {
      assertThat(actual).as("%s: one of the handle's writes %s", what, writes).isIn(writes);
    }
  }

  /** With read-your-writes, the writer sees {@code expected} at once (before any checkpoint). */
  final void assertOwnRead(String what, Database writer, long key, String expected) {
    if (promises(Guarantee.READ_YOUR_WRITES)) {
      assertThat(read(writer, key))
          .as("%s: the writer reads its own write", what)
          .isEqualTo(expected);
    }
  }

  /** With convergence, every handle in {@code views} sees what {@code reader} sees. */
  final void assertConverged(Database reader, List<Database> views) {
    if (promises(Guarantee.CONVERGES)) {
      Map<Long, String> expected = scan(reader);
      for (Database db : views) {
        assertThat(scan(db)).as("converged").isEqualTo(expected);
      }
    }
  }

  /**
   * Short and empty receives while messages are queued: checkpoints end early, and quiescence
   * applies the rest. Three writers (one handle without durability) change different keys on
   * shared pages, one key several times.
   */
  @ParameterizedTest(name = "seed {0}")
  @MethodSource("io.stratus.core.contract.ContractSeeds#seeds")
  void shortAndEmptyReceivesLoseNothing(long s) {
    try (ContractCloud c =
        cloud(s, new QueueBehavior(false, 0.5, 0), StorageConsistency.strong())) {
      List<Database> w = writers(c, "w", 3);
      ContractCloud.load(w.get(0), 60);
      Random r = new Random(s);
      Map<Long, String> once = new LinkedHashMap<>();
      List<String> hot = new ArrayList<>();
      for (int i = 0; i < 12; i++) {
        int who = i % 3;
        long key = 3 * (i + 1) + who;
        String value = "w" + who + "-" + i;
        update(w.get(who), key, value);
        once.put(key, value);
        assertOwnRead("key " + key, w.get(who), key, value);
        String h = "hot-" + i;
        update(w.get(0), 1, h);
        hot.add(h);
        assertOwnRead("hot key", w.get(0), 1, h);
        if (r.nextInt(3) == 0) {
          w.get(r.nextInt(3)).admin().checkpointAll(); // receives may come back short or empty
        }
      }
      c.settle(w.get(1));
      c.settle(w.get(2));
      Database reader = c.open("reader");
      once.forEach((k, v) -> assertThat(read(reader, k)).as("key %d", k).isEqualTo(v));
      assertSettled("hot key", read(reader, 1), hot);
      assertThat(scan(reader)).as("no record lost or added").hasSize(60);
      assertConverged(reader, w);
    }
  }

  /**
   * A loader under queue faults ({@link PropagationFaults}): one request thread, 4 KB pages, a
   * secondary index, simple-queue calls failing or losing their replies on every path. After the
   * faults heal, the writer checkpoints and closes and another client settles, every commit the
   * writer was told succeeded is there, in the collection and in its index, for every protocol
   * (one handle's acknowledged commits are kept even without durability across clients).
   */
  @ParameterizedTest(name = "seed {0}")
  @MethodSource("io.stratus.core.contract.ContractSeeds#seeds")
  void aLoaderUnderQueueFaultsKeepsEveryAcknowledgedCommit(long s) {
    try (ContractCloud c = cloud(s)) {
      PropagationFaults.Outcome o = PropagationFaults.load(c, 250);
      if (kind() != ProtocolKind.NAIVE) { // the naive protocol uses no queue
        assertThat(o.faults()).as("faults injected").isPositive();
      }
      Database settler = PropagationFaults.open(c, "settler");
      c.settle(settler);
      Database reader = PropagationFaults.open(c, "reader");
      assertThat(scan(reader).keySet())
          .as("acknowledged commits in the collection")
          .containsAll(o.acknowledged());
      assertThat(PropagationFaults.indexed(reader))
          .as("acknowledged commits in the index")
          .containsAll(o.acknowledged());
    }
  }

  /**
   * Redelivery: every delivered message may be delivered once more later, even after it was
   * deleted. A handle writes one key four times with checkpoints in between, so an older update
   * can come back after a newer one was applied.
   */
  @ParameterizedTest(name = "seed {0}")
  @MethodSource("io.stratus.core.contract.ContractSeeds#seeds")
  void redeliveredUpdatesAreAppliedOnceInOrder(long s) {
    try (ContractCloud c =
        cloud(s, new QueueBehavior(false, 0, 0.5), StorageConsistency.strong())) {
      Database w = c.open("w");
      ContractCloud.load(w, 30);
      List<String> writes = new ArrayList<>();
      for (int i = 0; i < 4; i++) {
        String v = "x" + i;
        update(w, 7, v);
        writes.add(v);
        update(w, 20, "y" + i);
        assertOwnRead("key 7", w, 7, v);
        c.runBackground();
        c.clock.advance(ContractCloud.LEASES);
        w.admin().checkpointAll();
      }
      c.settle(w);
      c.settle(w);
      Database reader = c.open("reader");
      assertSettled("key 7", read(reader, 7), writes);
      assertSettled("key 20", read(reader, 20), List.of("y0", "y1", "y2", "y3"));
      assertSettled("key 7 as the writer sees it", read(w, 7), writes);
      assertConverged(reader, List.of(w));
    }
  }

  /**
   * Reordering: the first update's messages are hidden (received and not deleted) while the second
   * is checkpointed, then reappear; and queues that deliver in random order throughout.
   */
  @ParameterizedTest(name = "seed {0}")
  @MethodSource("io.stratus.core.contract.ContractSeeds#seeds")
  void reorderedUpdatesKeepTheWritersOrder(long s) {
    try (ContractCloud c = cloud(s, new QueueBehavior(true, 0, 0), StorageConsistency.strong())) {
      Database w = c.open("w");
      ContractCloud.load(w, 30);
      update(w, 4, "first");
      c.runBackground(); // atomic: propagated to the pending-update queues
      int hidden = hidePendingUpdates(c, Duration.ofSeconds(40));
      update(w, 4, "second");
      assertOwnRead("key 4", w, 4, "second");
      c.runBackground();
      w.admin().checkpointAll();
      c.clock.advance(ContractCloud.TTL.plusSeconds(1));
      if (hidden > 0 && promises(Guarantee.MONOTONIC_WRITES)) {
        assertThat(read(c.open("early"), 4))
            .as("the second waits for the hidden first")
            .isNotEqualTo("second");
      }
      List<String> writes = new ArrayList<>(List.of("first", "second"));
      for (int i = 0; i < 6; i++) {
        update(w, 4, "more-" + i);
        writes.add("more-" + i);
      }
      c.settle(w); // the hidden messages are visible again
      Database reader = c.open("reader");
      assertSettled("key 4", read(reader, 4), writes);
      assertConverged(reader, List.of(w));
    }
  }

  /**
   * A late record of another writer: the first writer's update is hidden in its queue while a
   * second writer's later update of the same key is applied; then it reappears and is applied
   * too. The later write stays the last word (write stamps), under every protocol.
   */
  @ParameterizedTest(name = "seed {0}")
  @MethodSource("io.stratus.core.contract.ContractSeeds#seeds")
  void aLateRecordNeverOverwritesALaterWriter(long s) {
    try (ContractCloud c = cloud(s)) {
      List<Database> w = writers(c, "w", 2);
      ContractCloud.load(w.get(0), 30);
      update(w.get(0), 4, "earlier");
      c.runBackground(); // atomic: propagated to the pending-update queues
      hidePendingUpdates(c, Duration.ofSeconds(40));
      c.clock.advance(Duration.ofMillis(1));
      update(w.get(1), 4, "later");
      c.runBackground();
      w.get(1).admin().checkpointAll();
      c.settle(w.get(1)); // the hidden record is visible again and applied
      c.settle(w.get(0));
      Database reader = c.open("reader");
      assertThat(read(reader, 4)).as("the later of two returned writes").isEqualTo("later");
      assertConverged(reader, w);
    }
  }

  /**
   * A delete sticks: the first writer's create of a key is hidden in its queue (a receive whose
   * reply was lost) while a second writer writes the key, deletes it and checkpoints; then the
   * create reappears and is applied. A durable protocol keeps the key deleted (the delete's stamp
   * outweighs the older create), and a create after the delete brings it back. Without {@link
   * Guarantee#DURABLE} both writers are one handle, whose last commit, the delete, holds as well.
   */
  @ParameterizedTest(name = "seed {0}")
  @MethodSource("io.stratus.core.contract.ContractSeeds#seeds")
  void aCreateArrivingAfterALaterDeleteDoesNotBringTheKeyBack(long s) {
    try (ContractCloud c = cloud(s)) {
      List<Database> w = writers(c, "w", 2);
      ContractCloud.load(w.get(0), 30);
      long key = 100; // not loaded: the leaf of the largest keys
      create(w.get(0), key - 1, "neighbour");
      c.runBackground();
      w.get(0)
          .admin()
          .checkpointAll(); // the tree was just checkpointed: the next create schedules none
      create(w.get(0), key, "earlier");
      c.runBackground(); // atomic: propagated to the pending-update queues
      int hidden = hidePendingUpdates(c, Duration.ofSeconds(40));
      c.clock.advance(Duration.ofMillis(1));
      try (Transaction tx = w.get(1).begin()) { // a create where the first is not seen yet
        tx.put(COLLECTION, Key.of(key), bytes("later"));
        tx.commit();
      }
      c.runBackground();
      w.get(1).admin().checkpointAll();
      c.clock.advance(Duration.ofMillis(1));
      delete(w.get(1), key);
      c.runBackground();
      w.get(1).admin().checkpointAll();
      c.settle(w.get(1)); // the hidden create is visible again and applied
      c.settle(w.get(0));
      Database reader = c.open("reader");
      assertThat(read(reader, key))
          .as(
              promises(Guarantee.DURABLE)
                  ? "a create older than the delete, arrived late (%d messages hidden)"
                  : "the handle's last commit, a delete (%d messages hidden)",
              hidden)
          .isNull();
      assertThat(read(reader, key - 1)).as("the neighbour").isEqualTo("neighbour");
      assertConverged(reader, w);
      create(w.get(0), key, "again"); // after the delete: the key comes back
      c.settle(w.get(0));
      assertThat(read(c.open("late-reader"), key))
          .as("a create after the delete")
          .isEqualTo("again");
    }
  }

  /** Receives every visible pending-update message with {@code hideFor}; returns how many. */
  private static int hidePendingUpdates(ContractCloud c, Duration hideFor) {
    int n = 0;
    for (String q : c.queues(ContractCloud.DB + "/pu/")) {
      List<QueueMessage> got;
      do {
        got = CloudFutures.await(c.services().simpleQueues().receive(q, 10, hideFor));
        n += got.size();
      } while (!got.isEmpty());
    }
    return n;
  }

  /**
   * A tree checkpoint of another client runs between two puts of a data-page checkpoint that
   * splits its page: the page checkpoint is held after its first put while the tree checkpoint
   * inserts into the same leaves, then finishes. Nothing committed may be lost and the tree stays
   * well-formed.
   */
  @ParameterizedTest(name = "seed {0}")
  @MethodSource("io.stratus.core.contract.ContractSeeds#seeds")
  void aTreeCheckpointBetweenAPageCheckpointsPutsLosesNothing(long s) throws Exception {
    try (ContractCloud c = cloud(s)) {
      PutGate gate = new PutGate("gated-checkpoint", 2);
      StepExecutor background = new StepExecutor();
      Database h1 =
          c.open(
              c.checkpoints(
                  c.config("h1", gate),
                  b -> b.checkpointExecutor(background).checkpointInterval(Duration.ofSeconds(1))));
      Database h2 = promises(Guarantee.DURABLE) ? c.open("h2") : h1;
      List<Long> loaded = new ArrayList<>();
      for (long k = 0; k < 30; k++) {
        loaded.add(10 * k);
      }
      ContractCloud.load(h1, loaded);
      c.clock.advance(Duration.ofSeconds(2)); // past the interval: commits schedule checkpoints
      Map<Long, String> expected = new LinkedHashMap<>();
      loaded.forEach(k -> expected.put(k, initial(k)));
      Random r = new Random(s);
      try (Transaction tx = h1.begin()) {
        for (long k = 0; k < 12; k++) { // long payloads: the leaf overflows and splits
          String v = "grown-" + k + "-" + "x".repeat(90 + r.nextInt(20));
          tx.update(COLLECTION, Key.of(10 * k), bytes(v));
          expected.put(10 * k, v);
        }
        tx.commit();
      }
      try (Transaction tx = h2.begin()) {
        for (long k = 0; k < 15; k++) { // between the updated keys: the same leaves
          long key = 10 * k + 5;
          tx.create(COLLECTION, Key.of(key), bytes("new-" + key));
          expected.put(key, "new-" + key);
        }
        tx.commit();
      }
      CompletableFuture<Void> worker = new CompletableFuture<>();
      Thread t =
          new Thread(
              () -> {
                try {
                  background.runAll(); // h1's page checkpoint (and atomic propagation before it)
                  worker.complete(null);
                } catch (Throwable e) {
                  worker.completeExceptionally(e);
                }
              },
              "gated-checkpoint");
      t.start();
      boolean held = gate.awaitHeldOrDone(worker);
      if (!c.queues(ContractCloud.DB + "/pu/p/").isEmpty()) {
        assertThat(held).as("the data-page checkpoint was held between its puts").isTrue();
      }
      if (held) {
        h2.admin().checkpointAll(); // the tree checkpoint runs while the page checkpoint is held
      }
      gate.open();
      worker.get(20, TimeUnit.SECONDS);
      c.settle(h2);
      c.settle(h1);
      System.out.println("[contract] page checkpoint held between puts: " + held);
      Database reader = c.open("reader");
      assertThat(scan(reader)).as("every committed record, once").isEqualTo(expected);
      assertConverged(reader, List.of(h1, h2));
    }
  }

  /**
   * Two threads run checkpointAll on one handle at once, repeatedly, over pending inserts and
   * updates of several writers (small checkpoints, so each takes several passes).
   */
  @ParameterizedTest(name = "seed {0}")
  @MethodSource("io.stratus.core.contract.ContractSeeds#seeds")
  void twoCheckpointThreadsOnOneHandleLoseNothing(long s) throws Exception {
    try (ContractCloud c = cloud(s)) {
      Database cp = c.open(c.checkpoints(c.config("cp"), b -> b.maxRecordsPerCheckpoint(8)));
      List<Database> w = writers(c, "w", 2);
      ContractCloud.load(cp, 80);
      Map<Long, String> expected = new LinkedHashMap<>(scan(cp));
      Random r = new Random(s);
      for (int round = 0; round < 3; round++) {
        for (int i = 0; i < 10; i++) {
          Database writer = w.get(i % 2);
          try (Transaction tx = writer.begin()) {
            // Each writer its own keys: monotonic writes orders one writer's writes, and across
            // writers no order is promised beyond commit order within one checkpoint.
            long key = 2L * r.nextInt(40) + (i % 2);
            String v = "r" + round + "-" + i + "-" + key;
            tx.update(COLLECTION, Key.of(key), bytes(v));
            long fresh = 500 + round * 100 + i;
            tx.create(COLLECTION, Key.of(fresh), bytes("n" + fresh));
            tx.commit();
            expected.put(key, v);
            expected.put(fresh, "n" + fresh);
            c.clock.advance(Duration.ofMillis(1)); // commit-time order = real-time order
          }
        }
        c.runBackground();
        CountDownLatch go = new CountDownLatch(1);
        List<CompletableFuture<Void>> both = new ArrayList<>();
        for (int t = 0; t < 2; t++) {
          CompletableFuture<Void> f = new CompletableFuture<>();
          new Thread(
                  () -> {
                    try {
                      go.await();
                      cp.admin().checkpointAll();
                      f.complete(null);
                    } catch (Throwable e) {
                      f.completeExceptionally(e);
                    }
                  },
                  "checkpoint-" + t)
              .start();
          both.add(f);
        }
        go.countDown();
        for (CompletableFuture<Void> f : both) {
          f.get(30, TimeUnit.SECONDS); // neither may fail
        }
      }
      c.settle(cp);
      Database reader = c.open("reader");
      Map<Long, String> seen = scan(reader);
      // Reliable queues and commit times in real-time order: the latest write of a key wins
      // even without monotonic writes (nothing is redelivered or reordered to re-apply).
      assertThat(seen).as("every committed write, the last one per key").isEqualTo(expected);
      assertConverged(reader, List.of(cp));
    }
  }

  /**
   * Root splits under pending updates: with a root that is a leaf, one writer's updates wait in
   * its queue while another's inserts split the root (at every level, over the rounds); checkpoint
   * order and timing come from the seed.
   */
  @ParameterizedTest(name = "seed {0}")
  @MethodSource("io.stratus.core.contract.ContractSeeds#seeds")
  void rootSplitsUnderPendingUpdatesLoseNothing(long s) {
    try (ContractCloud c = cloud(s)) {
      List<Database> w = writers(c, "w", 2);
      ContractCloud.load(w.get(0), 6);
      Random r = new Random(s);
      Map<Long, List<String>> updates = new LinkedHashMap<>();
      Map<Long, String> inserts = new LinkedHashMap<>();
      long next = 100;
      for (int round = 0; round < 5; round++) {
        for (long k = 0; k < 6; k++) {
          String v = "u" + round + "-" + k;
          update(w.get(0), k, v);
          updates.computeIfAbsent(k, x -> new ArrayList<>()).add(v);
        }
        assertOwnRead("key 0", w.get(0), 0, "u" + round + "-0");
        try (Transaction tx = w.get(1).begin()) {
          for (int i = 0; i < 25; i++, next++) {
            tx.create(COLLECTION, Key.of(next), bytes("i" + next + "-" + "y".repeat(20)));
            inserts.put(next, "i" + next + "-" + "y".repeat(20));
          }
          tx.commit();
        }
        c.runBackground();
        switch (r.nextInt(3)) {
          case 0 -> w.get(r.nextInt(2)).admin().checkpointAll(); // trees first, then the pages
          case 1 -> c.clock.advance(ContractCloud.LEASES); // leave everything pending
          default -> {
            c.clock.advance(ContractCloud.LEASES);
            c.settle(w.get(1));
          }
        }
      }
      c.settle(w.get(0));
      c.settle(w.get(1));
      Database reader = c.open("reader");
      Map<Long, String> seen = scan(reader);
      assertThat(seen).as("every record once").hasSize(6 + inserts.size());
      inserts.forEach((k, v) -> assertThat(seen.get(k)).as("insert %d", k).isEqualTo(v));
      updates.forEach((k, vs) -> assertSettled("key " + k, seen.get(k), vs));
      assertConverged(reader, w);
    }
  }

  /**
   * One handle deletes a key and creates it again (the delete and the create reach the tree's
   * queue, updates before and after reach the page's): the key ends with the re-created value,
   * or the update after it, also as the writer sees it.
   */
  @ParameterizedTest(name = "seed {0}")
  @MethodSource("io.stratus.core.contract.ContractSeeds#seeds")
  void aDeletedAndRecreatedKeyKeepsItsLastValue(long s) {
    try (ContractCloud c = cloud(s)) {
      Database w = c.open("w");
      ContractCloud.load(w, 30);
      Random r = new Random(s);
      // key 3: delete, re-create. key 9: update, delete, re-create, update.
      update(w, 9, "before");
      maybeCheckpoint(c, w, r);
      delete(w, 3);
      delete(w, 9);
      assertOwnRead("key 3 deleted", w, 3, null);
      maybeCheckpoint(c, w, r);
      create(w, 3, "recreated-3");
      create(w, 9, "recreated-9");
      assertOwnRead("key 3 re-created", w, 3, "recreated-3");
      maybeCheckpoint(c, w, r);
      // Without read-your-writes the writer may not see its re-created key yet: then it cannot
      // update it, and "after" is not one of its writes.
      boolean updated;
      try (Transaction tx = w.begin()) {
        updated = tx.update(COLLECTION, Key.of(9L), bytes("after"));
        tx.commit();
      }
      if (promises(Guarantee.READ_YOUR_WRITES)) {
        assertThat(updated).as("the writer updates the key it re-created").isTrue();
      }
      assertOwnRead("key 9 updated", w, 9, "after");
      String last9 = updated ? "after" : "recreated-9";
      c.settle(w);
      Database reader = c.open("reader");
      for (Database db : List.of(reader, w)) {
        String who = db == w ? "the writer" : "a reader";
        String v3 = read(db, 3);
        String v9 = read(db, 9);
        if (promises(Guarantee.MONOTONIC_WRITES)) {
          assertThat(v3).as("key 3 as %s sees it", who).isEqualTo("recreated-3");
          assertThat(v9).as("key 9 as %s sees it", who).isEqualTo(last9);
        } else {
          assertThat(v3)
              .as("key 3 as %s sees it: not the loaded value", who)
              .isIn(null, "recreated-3");
          assertThat(v9)
              .as("key 9 as %s sees it: one of the writes", who)
              .isIn("before", null, "recreated-9", "after");
        }
      }
      assertThat(scan(reader).keySet())
          .as("well-formed, other keys untouched")
          .containsAll(List.of(0L, 1L, 2L, 4L, 8L, 10L, 29L));
      assertConverged(reader, List.of(w));
    }
  }

  private static void maybeCheckpoint(ContractCloud c, Database db, Random r) {
    c.runBackground();
    if (r.nextBoolean()) {
      c.clock.advance(ContractCloud.LEASES);
      db.admin().checkpointAll();
    }
  }

  static void delete(Database db, long key) {
    try (Transaction tx = db.begin()) {
      assertThat(tx.delete(COLLECTION, Key.of(key))).as("key %d deleted", key).isTrue();
      tx.commit();
    }
  }

  static void create(Database db, long key, String value) {
    try (Transaction tx = db.begin()) {
      tx.create(COLLECTION, Key.of(key), bytes(value));
      tx.commit();
    }
  }

  /** A write of a hot key by a request thread: ticks before it began and after it ended. */
  private record HotWrite(long key, String value, long start, long end, Outcome outcome) {}

  private enum Outcome {
    OK,
    FAILED,
    UNKNOWN
  }

  /**
   * Unknown outcomes across writer lanes: four request threads share one handle whose queue sends
   * lose their replies (the send happens) or fail at random; each commit updates a hot key and a
   * key of its own. Commits that returned keep their own key; failed ones leave nothing; the hot
   * keys end in real-time order where monotonic writes are promised.
   */
  @ParameterizedTest(name = "seed {0}")
  @MethodSource("io.stratus.core.contract.ContractSeeds#seeds")
  void unknownOutcomesAcrossLanesKeepCommitsAndOrder(long s) throws Exception {
    try (ContractCloud c = cloud(s)) {
      LostReplies faults = new LostReplies(s, c.clock);
      Database w = c.open("w", faults);
      ContractCloud.load(w, 100);
      faults.on = true;
      java.util.concurrent.atomic.AtomicLong ticks = new java.util.concurrent.atomic.AtomicLong();
      java.util.concurrent.ConcurrentLinkedQueue<HotWrite> hot =
          new java.util.concurrent.ConcurrentLinkedQueue<>();
      Map<Long, HotWrite> own = new java.util.concurrent.ConcurrentHashMap<>();
      List<CompletableFuture<Void>> threads = new ArrayList<>();
      for (int t = 0; t < 4; t++) {
        int id = t;
        Random r = new Random(s + 17 * t);
        CompletableFuture<Void> done = new CompletableFuture<>();
        new Thread(
                () -> {
                  try {
                    for (int i = 0; i < 8; i++) {
                      long hotKey = r.nextInt(2);
                      long ownKey = 10 + id * 10 + i;
                      String v = "t" + id + "-" + i;
                      long start = ticks.incrementAndGet();
                      Outcome o = commitBoth(w, hotKey, ownKey, v);
                      long end = ticks.incrementAndGet();
                      hot.add(new HotWrite(hotKey, v, start, end, o));
                      own.put(ownKey, new HotWrite(ownKey, v, start, end, o));
                      if (o == Outcome.OK && promises(Guarantee.READ_YOUR_WRITES)) {
                        assertThat(read(w, ownKey)).as("%s reads its own write", v).isEqualTo(v);
                      }
                    }
                    done.complete(null);
                  } catch (Throwable e) {
                    done.completeExceptionally(e);
                  }
                },
                "request-" + t)
            .start();
        threads.add(done);
      }
      for (CompletableFuture<Void> f : threads) {
        f.get(60, TimeUnit.SECONDS);
      }
      faults.on = false;
      c.settle(w);
      c.settle(w);
      Database reader = c.open("reader");
      System.out.println(
          "[contract] outcomes: " + own.values().stream().map(HotWrite::outcome).toList());
      for (HotWrite o : own.values()) {
        String seen = read(reader, o.key());
        switch (o.outcome()) {
          case OK -> assertThat(seen).as("own key of OK %s", o.value()).isEqualTo(o.value());
          case FAILED ->
              assertThat(seen).as("own key of FAILED %s", o.value()).isEqualTo(initial(o.key()));
          default ->
              assertThat(seen)
                  .as("own key of UNKNOWN %s", o.value())
                  .isIn(o.value(), initial(o.key()));
        }
      }
      for (long key = 0; key < 2; key++) {
        String seen = read(reader, key);
        long k = key;
        List<HotWrite> ofKey = hot.stream().filter(h -> h.key() == k).toList();
        if (seen.equals(initial(key))) {
          assertThat(ofKey)
              .as("hot key %d shows its loaded value: no OK write", key)
              .noneMatch(h -> h.outcome() == Outcome.OK);
          continue;
        }
        HotWrite winner =
            ofKey.stream()
                .filter(h -> h.value().equals(seen))
                .findFirst()
                .orElseThrow(
                    () ->
                        new AssertionError(
                            "hot key " + k + " shows " + seen + ", which no commit wrote"));
        assertThat(winner.outcome())
            .as("hot key %d shows %s", key, seen)
            .isNotEqualTo(Outcome.FAILED);
        if (promises(Guarantee.MONOTONIC_WRITES)) {
          assertThat(ofKey)
              .as("hot key %d shows %s, but an OK write began after it ended", key, seen)
              .noneMatch(h -> h.outcome() == Outcome.OK && h.start() > winner.end());
        }
      }
      assertConverged(reader, List.of(w));
    }
  }

  private static Outcome commitBoth(Database db, long hotKey, long ownKey, String v) {
    try (Transaction tx = db.begin()) {
      tx.update(COLLECTION, Key.of(hotKey), bytes(v));
      tx.update(COLLECTION, Key.of(ownKey), bytes(v));
      tx.commit();
      return Outcome.OK;
    } catch (CommitStateUnknownException e) {
      return Outcome.UNKNOWN;
    } catch (CommitFailedException e) {
      return Outcome.FAILED;
    }
  }

  /**
   * Eventually consistent page reads: storage answers with the previous version for two minutes
   * after a write, far longer than the TTL. A reader polls a key one writer keeps changing: with
   * monotonic reads it never goes back; every value it sees was written.
   */
  @ParameterizedTest(name = "seed {0}")
  @MethodSource("io.stratus.core.contract.ContractSeeds#seeds")
  void eventuallyConsistentPageReads(long s) {
    Duration window = Duration.ofMinutes(2);
    try (ContractCloud c =
        cloud(s, QueueBehavior.reliable(), StorageConsistency.eventual(window))) {
      Database w = c.open("w");
      Database reader = c.open("reader");
      loadByCommit(c, w, 40);
      Random r = new Random(s);
      List<String> writes = new ArrayList<>();
      int lastSeen = -1;
      for (int i = 0; i < 15; i++) {
        String v = "e" + i;
        update(w, 5, v);
        writes.add(v);
        assertOwnRead("key 5", w, 5, v);
        c.runBackground();
        if (r.nextBoolean()) {
          w.admin().checkpointAll();
        }
        c.clock.advance(ContractCloud.TTL.plusSeconds(1)); // the reader refreshes, maybe stale
        String seen = readRetrying(reader, 5);
        int index = seen.equals(initial(5)) ? -1 : writes.indexOf(seen);
        assertThat(seen.equals(initial(5)) || index >= 0).as("read %s was written", seen).isTrue();
        if (promises(Guarantee.MONOTONIC_READS)) {
          assertThat(index)
              .as("read %s after having read write %d", seen, lastSeen)
              .isGreaterThanOrEqualTo(lastSeen);
        }
        lastSeen = Math.max(lastSeen, index);
      }
      c.settle(w);
      assertSettled("key 5", readRetrying(reader, 5), writes);
      assertConverged(reader, List.of(w));
    }
  }

  /**
   * A delete checkpointed on a stale leaf: one client's checkpoint inserts a key into a leaf, and
   * another client, whose storage still serves the leaf from before the insert, checkpoints the
   * key's delete. The delete finds nothing to remove there; it must not be counted as applied.
   */
  @ParameterizedTest(name = "seed {0}")
  @MethodSource("io.stratus.core.contract.ContractSeeds#seeds")
  void aDeleteCheckpointedOnAStaleLeafIsNotLost(long s) {
    try (ContractCloud c =
        cloud(s, QueueBehavior.reliable(), StorageConsistency.eventual(Duration.ofMinutes(2)))) {
      Database w = c.open("w");
      loadByCommit(c, w, 120); // several leaves: the leaf is not the root
      create(w, 5000, "fresh");
      c.runBackground();
      Database first = promises(Guarantee.DURABLE) ? c.open("first") : w;
      first
          .admin()
          .checkpointAll(); // the insert reaches the leaf; reads serve the old leaf for a while
      delete(w, 5000);
      c.runBackground();
      Database second = promises(Guarantee.DURABLE) ? c.open("second") : w;
      second.admin().checkpointAll(); // may read the leaf as it was before the insert
      c.clock.advance(Duration.ofMinutes(3)); // storage has settled
      c.settle(w);
      Database reader = c.open("reader");
      assertThat(readRetrying(reader, 5000)).as("the deleted key").isNull();
      assertConverged(reader, List.of(w));
    }
  }

  /** Creates the collection and its records by one commit, then waits until storage settled. */
  static void loadByCommit(ContractCloud c, Database db, int n) {
    db.createCollection(COLLECTION);
    try (Transaction tx = db.begin()) {
      for (long k = 0; k < n; k++) {
        tx.create(COLLECTION, Key.of(k), bytes(initial(k)));
      }
      tx.commit();
    }
    c.settle(db);
  }

  /** A read that retries what stale storage makes retryable (a bounded number of times). */
  static String readRetrying(Database db, long key) {
    for (int attempt = 0; ; attempt++) {
      try {
        return read(db, key);
      } catch (StratusException e) {
        if (!e.isRetryable() || attempt >= 20) {
          throw e;
        }
      }
    }
  }

  /**
   * The seeded history of three clients on a reliable cloud, checked by every checker the
   * protocol's guarantees select ({@link HistoryHarness#checkersFor}).
   */
  @ParameterizedTest(name = "seed {0}")
  @MethodSource("io.stratus.core.contract.ContractSeeds#seeds")
  void historyOfClientsOnAReliableCloud(long s) {
    start(s);
    History h = new HistoryHarness(kind(), s, HistoryHarness.Setting.reliable(), null).runClients();
    HistoryHarness.assertClientsValid(kind(), h);
  }

  /**
   * The same under every weak knob at once: storage stale for two minutes (far beyond the TTL),
   * queues that reorder, duplicate and return short, failed sends, lost replies, refused reads.
   */
  @ParameterizedTest(name = "seed {0}")
  @MethodSource("io.stratus.core.contract.ContractSeeds#seeds")
  void historyOfClientsOnAWeakCloudWithFaults(long s) {
    start(s);
    HistoryHarness.Setting weak = HistoryHarness.Setting.weak();
    History h = new HistoryHarness(kind(), s, weak, null).runClients();
    h.check(HistoryHarness.checkersFor(kind().guarantees(), weak.queues())).assertValid();
  }

  /**
   * Request threads sharing one handle, each a session. Besides what the guarantees select, every
   * protocol promises one handle that its commits which returned survive.
   */
  @ParameterizedTest(name = "seed {0}")
  @MethodSource("io.stratus.core.contract.ContractSeeds#seeds")
  void historyOfRequestThreadsSharingOneHandle(long s) throws Exception {
    start(s);
    History h = new HistoryHarness(kind(), s, HistoryHarness.Setting.reliable(), null).runThreads();
    HistoryHarness.assertThreadsValid(kind(), h);
  }

  /** Isolation as the guarantees declare it, on a list-append history ({@link IsolationContract}). */
  @ParameterizedTest(name = "seed {0}")
  @MethodSource("io.stratus.core.contract.ContractSeeds#seeds")
  void isolationOfConcurrentTransactionsIsWhatTheGuaranteesSay(long s) throws Exception {
    start(s);
    IsolationContract.check(kind(), s);
  }

  /** Queries read their own writes and page across transactions ({@link QueryContract}). */
  @ParameterizedTest(name = "seed {0}")
  @MethodSource("io.stratus.core.contract.ContractSeeds#seeds")
  void queriesReadOwnWritesAndPageAcrossTransactions(long s) {
    start(s);
    QueryContract.ownWritesAndPagesAcrossTransactions(kind(), s, IndexPlacement.CLIENT_TREE);
  }

  /** The same with the index held by the index service ({@link QueryContract}). */
  @ParameterizedTest(name = "seed {0}")
  @MethodSource("io.stratus.core.contract.ContractSeeds#seeds")
  void queriesOverAServiceIndexReadOwnWritesAndPageAcrossTransactions(long s) {
    start(s);
    QueryContract.ownWritesAndPagesAcrossTransactions(kind(), s, IndexPlacement.INDEX_SERVICE);
  }

  /** A service index's range query admits no phantom where serializable ({@link QueryContract}). */
  @ParameterizedTest(name = "seed {0}")
  @MethodSource("io.stratus.core.contract.ContractSeeds#seeds")
  void aServiceIndexRangeQueryAdmitsNoPhantom(long s) {
    start(s);
    QueryContract.aServiceIndexRangeQueryAdmitsNoPhantom(kind(), s);
  }

  /** A join shows a concurrent commit whole or not at all ({@link QueryContract}). */
  @ParameterizedTest(name = "seed {0}")
  @MethodSource("io.stratus.core.contract.ContractSeeds#seeds")
  void aJoinSeesAConcurrentCommitWholeOrNotAtAll(long s) {
    start(s);
    QueryContract.aJoinSeesAConcurrentCommitWholeOrNotAtAll(kind(), s);
  }

  /** A range query's page admits no phantom where serializable ({@link QueryContract}). */
  @ParameterizedTest(name = "seed {0}")
  @MethodSource("io.stratus.core.contract.ContractSeeds#seeds")
  void aRangeQueryPageAdmitsNoPhantom(long s) {
    start(s);
    QueryContract.aRangeQueryPageAdmitsNoPhantom(kind(), s);
  }

  /** A commit refused for its size leaves nothing held ({@link RejectedCommitContract}). */
  @ParameterizedTest(name = "seed {0}")
  @MethodSource("io.stratus.core.contract.ContractSeeds#seeds")
  void aCommitRefusedForItsSizeLeavesNothingHeld(long s) {
    start(s);
    RejectedCommitContract.check(kind(), s);
  }

  /**
   * The harness sees what it checks: where monotonic reads are promised, switching the buffer
   * pool's guard off makes the weak run show a stale read to the checker (within four seeds, as
   * the anomaly needs a stale answer at the right moment). Where they are not promised the guard
   * is off anyway, and such a run must still keep every guarantee the protocol makes. The
   * isolating protocols read pages as of a snapshot or the latest commit from the archive, not
   * through the guard: with it off they too must keep everything.
   */
  @ParameterizedTest(name = "seed {0}")
  @MethodSource("io.stratus.core.contract.ContractSeeds#seeds")
  void theHistoryCheckerSeesStaleReadsWithoutTheGuard(long s) {
    start(s);
    HistoryHarness.Setting weak = HistoryHarness.Setting.weak();
    Guarantees checks = HistoryHarness.checkersFor(kind().guarantees(), weak.queues());
    boolean readsTheArchive =
        promises(Guarantee.SNAPSHOT_ISOLATION) || promises(Guarantee.SERIALIZABLE);
    if (promises(Guarantee.MONOTONIC_READS) && !readsTheArchive) {
      boolean caught = false;
      for (int i = 0; i < 4 && !caught; i++) {
        caught =
            new HistoryHarness(kind(), s + i, weak, false)
                .runClients()
                .check(checks)
                .failedCheckers()
                .contains("monotonicReads");
      }
      assertThat(caught).as("a stale read caught with the guard off").isTrue();
    } else {
      new HistoryHarness(kind(), s + 1, weak, false).runClients().check(checks).assertValid();
    }
  }
}
