package io.stratus.core;

import static io.stratus.core.BasicProtocolTest.load;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.stratus.InvalidConfigurationException;
import io.stratus.TransactionConflictException;
import io.stratus.TransactionTimeoutException;
import io.stratus.cloudapi.CloudFutures;
import io.stratus.cloudapi.Operation;
import io.stratus.cloudapi.StoredItem;
import io.stratus.cloudapi.decorate.Call;
import io.stratus.cloudapi.decorate.CallInterceptor;
import io.stratus.cloudapi.testing.Seed;
import io.stratus.cloudapi.testing.SeedExtension;
import io.stratus.protocols.ProtocolKind;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.SplittableRandom;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Supplier;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Snapshot isolation and its serializable mode (paper 000, section 5.4): what each transaction
 * reads is one snapshot, however pages move underneath (commits, checkpoints, splits); of two
 * concurrent writers of one record only the first commits; write skew passes under snapshot
 * isolation and aborts when serializable; money moved between accounts by many threads of two
 * handles never changes the total any audit sees.
 */
@ExtendWith(SeedExtension.class)
class SnapshotIsolationTest {

  static DatabaseConfig.Builder snapshot(
      Fixture f, ProtocolKind kind, String client, ManualExecutor ex) {
    return f.config().protocol(kind).clientId(client).checkpointExecutor(ex);
  }

  static String read(Transaction tx, long key) {
    return tx.read("items", Key.of(key)).map(Fixture::string).orElse(null);
  }

  /** Creates records 0..n-1 of "items", each with {@code value}. */
  static void records(Database db, int n, String value) {
    db.createCollection("items");
    db.run(
        tx -> {
          for (int i = 0; i < n; i++) {
            tx.create("items", Key.of(i), Fixture.bytes(value));
          }
          return null;
        });
  }

  /**
   * Retries as in production (a few ms of back-off): a commit of the serializable mode waits for
   * the commit ids below its own, and losers retrying without pause would use up their attempts.
   */
  static RetryPolicy retries(long seed) {
    return RetryPolicy.builder()
        .maxAttempts(1000)
        .initialBackoff(Duration.ofMillis(1))
        .maxBackoff(Duration.ofMillis(5))
        .seed(seed)
        .build();
  }

  /** A body run by each of {@code threads} threads, given its number. */
  interface ThreadBody {
    void run(int thread) throws Exception;
  }

  /** Runs {@code body} on {@code threads} threads and waits for all (failures rethrown). */
  static void inThreads(int threads, ThreadBody body) throws Exception {
    ExecutorService pool = Executors.newFixedThreadPool(threads);
    try {
      List<Future<?>> work = new ArrayList<>();
      for (int t = 0; t < threads; t++) {
        int thread = t;
        work.add(
            pool.submit(
                () -> {
                  body.run(thread);
                  return null;
                }));
      }
      for (Future<?> w : work) {
        w.get(2, TimeUnit.MINUTES);
      }
    } finally {
      pool.shutdownNow();
    }
  }

  /** Two transactions read one record and both write it back: the second commit aborts. */
  @ParameterizedTest
  @EnumSource(names = {"SNAPSHOT_ISOLATION", "SERIALIZABLE_SNAPSHOT"})
  void concurrentReadModifyWritesLoseNoUpdate(ProtocolKind kind, @Seed long seed) {
    try (Fixture f = new Fixture(seed)) {
      ManualExecutor ex = new ManualExecutor();
      Database a = f.open(snapshot(f, kind, "a", ex));
      Database b = f.open(snapshot(f, kind, "b", ex));
      load(a, 40);
      for (Database second : List.of(a, b)) { // another transaction of one handle, or a client
        Transaction t1 = a.begin();
        Transaction t2 = second.begin();
        String v1 = read(t1, 7);
        String v2 = read(t2, 7);
        assertThat(v2).isEqualTo(v1);
        t1.update("items", Key.of(7), Fixture.bytes(v1 + "+1"));
        t2.update("items", Key.of(7), Fixture.bytes(v2 + "+2"));
        t1.commit();
        assertThatThrownBy(t2::commit)
            .isInstanceOf(TransactionConflictException.class)
            .satisfies(e -> assertThat(((TransactionConflictException) e).isRetryable()).isTrue());
        try (Transaction check = b.begin()) {
          assertThat(read(check, 7)).isEqualTo(v1 + "+1");
        }
      }
    }
  }

  /**
   * Two doctors on call; each transaction checks that the other is on call and goes off call
   * itself. Snapshot isolation lets both commit (write skew, G2); the serializable mode aborts the
   * second.
   */
  @ParameterizedTest
  @EnumSource(names = {"SNAPSHOT_ISOLATION", "SERIALIZABLE_SNAPSHOT"})
  void writeSkewPassesUnderSnapshotIsolationOnly(ProtocolKind kind, @Seed long seed) {
    try (Fixture f = new Fixture(seed)) {
      ManualExecutor ex = new ManualExecutor();
      Database a = f.open(snapshot(f, kind, "a", ex));
      load(a, 2);
      Transaction t1 = a.begin();
      Transaction t2 = a.begin();
      assertThat(read(t1, 0)).isEqualTo("v0-0");
      assertThat(read(t1, 1)).isEqualTo("v0-1");
      assertThat(read(t2, 0)).isEqualTo("v0-0");
      assertThat(read(t2, 1)).isEqualTo("v0-1");
      t1.update("items", Key.of(0), Fixture.bytes("off"));
      t2.update("items", Key.of(1), Fixture.bytes("off"));
      t1.commit();
      if (kind == ProtocolKind.SERIALIZABLE_SNAPSHOT) {
        assertThatThrownBy(t2::commit).isInstanceOf(TransactionConflictException.class);
        assertThat(Fixture.itemsByKey(a)).containsEntry("0", "off").containsEntry("1", "v0-1");
      } else {
        t2.commit(); // write skew: both off call
        assertThat(Fixture.itemsByKey(a)).containsEntry("0", "off").containsEntry("1", "off");
      }
    }
  }

  /**
   * The serializable mode keeps a scan of a whole collection as the whole tree read: point reads
   * after it, of keys read before or not, change nothing of what the commit is checked against. Of
   * two doctors who each scanned every record, read both again and went off call, the second to
   * commit aborts; so does a scanner of every record once another transaction created one.
   */
  @Test
  void aWholeScanStillCatchesWriteSkewAndPhantoms(@Seed long seed) {
    try (Fixture f = new Fixture(seed)) {
      ManualExecutor ex = new ManualExecutor();
      Database a = f.open(snapshot(f, ProtocolKind.SERIALIZABLE_SNAPSHOT, "a", ex));
      load(a, 100);
      Transaction t1 = a.begin();
      Transaction t2 = a.begin();
      for (Transaction t : List.of(t1, t2)) {
        assertThat(Fixture.itemsIn(t)).hasSize(100);
        for (int again = 0; again < 3; again++) {
          assertThat(read(t, 0)).isEqualTo("v0-0");
          assertThat(read(t, 1)).isEqualTo("v0-1");
        }
      }
      t1.update("items", Key.of(0), Fixture.bytes("off"));
      t2.update("items", Key.of(1), Fixture.bytes("off"));
      t1.commit();
      assertThatThrownBy(t2::commit).isInstanceOf(TransactionConflictException.class);
      Transaction scanner = a.begin();
      assertThat(Fixture.itemsIn(scanner)).hasSize(100);
      scanner.update("items", Key.of(50), Fixture.bytes("scanned"));
      a.run(
          tx -> {
            tx.create("items", Key.of(500L), Fixture.bytes("phantom"));
            return null;
          });
      assertThatThrownBy(scanner::commit).isInstanceOf(TransactionConflictException.class);
      assertThat(Fixture.itemsByKey(a))
          .containsEntry("0", "off")
          .containsEntry("1", "v0-1")
          .containsEntry("50", "v0-50")
          .containsEntry("500", "phantom");
    }
  }

  /**
   * A transaction whose snapshot predates commits and checkpoints that rewrote and split the
   * pages it reads sees exactly its snapshot: updated records with their old values, no inserted
   * record, deleted records still there (pages rolled back). A new transaction sees everything at
   * once, before any checkpoint (pages rolled forward from the archive).
   */
  @ParameterizedTest
  @EnumSource(names = {"SNAPSHOT_ISOLATION", "SERIALIZABLE_SNAPSHOT"})
  void aSnapshotSurvivesCommitsCheckpointsAndSplits(ProtocolKind kind, @Seed long seed) {
    try (Fixture f = new Fixture(seed)) {
      ManualExecutor ex = new ManualExecutor();
      Database writer = f.open(snapshot(f, kind, "w", ex));
      Database reader = f.open(snapshot(f, kind, "r", ex));
      load(writer, 30);
      Map<String, String> before = Fixture.itemsByKey(writer);
      try (Transaction old = reader.begin()) {
        for (int round = 0; round < 3; round++) {
          for (int i = 0; i < 30; i += 3) {
            int r = round;
            int k = i;
            writer.run(
                tx -> {
                  tx.update("items", Key.of(k), Fixture.bytes("r" + r + "-" + k + "-".repeat(40)));
                  tx.create("items", Key.of(1000 + r * 100 + k), Fixture.bytes("new" + k));
                  if (k % 2 == 0 && r == 0) {
                    tx.delete("items", Key.of(k + 1));
                  }
                  return null;
                });
          }
          // Without a checkpoint: new transactions see it all, rolled forward from the archive.
          Map<String, String> now = Fixture.itemsByKey(reader);
          assertThat(now)
              .containsEntry("3", "r" + round + "-3" + "-".repeat(40))
              .containsKey(Long.toString(1000 + round * 100 + 27));
          writer.admin().checkpointAll();
        }
        Map<String, String> seen = new java.util.HashMap<>();
        try (RecordCursor c = old.scan("items")) {
          while (c.hasNext()) {
            Record r = c.next();
            seen.put(Long.toString(r.key().decoder().nextLong()), Fixture.string(r.payload()));
          }
        }
        assertThat(seen).as("the old snapshot, rolled back").isEqualTo(before);
      }
      Map<String, String> after = Fixture.itemsByKey(reader);
      assertThat(after)
          .hasSize(30 - 5 + 30)
          .containsEntry("0", "r2-0" + "-".repeat(40))
          .doesNotContainKey("1");
      reader.admin().checkpointAll();
      assertThat(Fixture.itemsByKey(writer)).isEqualTo(after);
    }
  }

  /**
   * Bank transfers by four threads over two handles (two threads each) between ten accounts, with
   * read-only audits: every audit sums to the starting total, and so does the end state.
   */
  @ParameterizedTest
  @EnumSource(names = {"SNAPSHOT_ISOLATION", "SERIALIZABLE_SNAPSHOT", "TWO_PHASE_LOCKING"})
  void transfersKeepTheTotalForEveryAudit(ProtocolKind kind, @Seed long seed) throws Exception {
    try (Fixture f = new Fixture(seed)) {
      ManualExecutor ex = new ManualExecutor();
      Database a = f.open(snapshot(f, kind, "a", ex));
      Database b = f.open(snapshot(f, kind, "b", ex));
      records(a, 10, "100");
      RetryPolicy retries = retries(seed);
      AtomicInteger audits = new AtomicInteger();
      AtomicInteger transfers = new AtomicInteger();
      inThreads(
          4,
          t -> {
            Database db = t % 2 == 0 ? a : b;
            SplittableRandom r = new SplittableRandom(seed + t);
            for (int i = 0; i < 60; i++) {
              if (i % 4 == 3) {
                int total =
                    db.read(
                        retries,
                        tx -> {
                          int sum = 0;
                          for (int k = 0; k < 10; k++) {
                            sum += Integer.parseInt(read(tx, k));
                          }
                          return sum;
                        });
                assertThat(total).as("seed " + seed + ": an audit's total").isEqualTo(1000);
                audits.incrementAndGet();
                continue;
              }
              int from = r.nextInt(10);
              int to = (from + 1 + r.nextInt(9)) % 10;
              int amount = 1 + r.nextInt(20);
              db.run(
                  retries,
                  tx -> {
                    int x = Integer.parseInt(read(tx, from));
                    int y = Integer.parseInt(read(tx, to));
                    tx.update("items", Key.of(from), Fixture.bytes(Integer.toString(x - amount)));
                    tx.update("items", Key.of(to), Fixture.bytes(Integer.toString(y + amount)));
                    return null;
                  });
              transfers.incrementAndGet();
            }
          });
      a.admin().checkpointAll();
      int total = Fixture.itemsByKey(b).values().stream().mapToInt(Integer::parseInt).sum();
      assertThat(total).as("seed " + seed).isEqualTo(1000);
      assertThat(transfers.get()).isEqualTo(4 * 45);
      assertThat(audits.get()).isEqualTo(4 * 15);
    }
  }

  /**
   * Six threads over two handles increment three shared counters by read-modify-write: every
   * increment that committed is in the final values (no lost update).
   */
  @ParameterizedTest
  @EnumSource(names = {"SNAPSHOT_ISOLATION", "SERIALIZABLE_SNAPSHOT", "TWO_PHASE_LOCKING"})
  void incrementsByManyThreadsAreNeverLost(ProtocolKind kind, @Seed long seed) throws Exception {
    try (Fixture f = new Fixture(seed)) {
      ManualExecutor ex = new ManualExecutor();
      Database a = f.open(snapshot(f, kind, "a", ex));
      Database b = f.open(snapshot(f, kind, "b", ex));
      records(a, 3, "0");
      RetryPolicy retries = retries(seed);
      inThreads(
          6,
          t -> {
            Database db = t % 2 == 0 ? a : b;
            SplittableRandom r = new SplittableRandom(seed + t);
            for (int i = 0; i < 40; i++) {
              int k = r.nextInt(3);
              db.run(
                  retries,
                  tx -> {
                    int v = Integer.parseInt(read(tx, k));
                    tx.update("items", Key.of(k), Fixture.bytes(Integer.toString(v + 1)));
                    return null;
                  });
            }
          });
      int total = Fixture.itemsByKey(b).values().stream().mapToInt(Integer::parseInt).sum();
      // (Whether any commit conflicted depends on thread scheduling; losing none must not.)
      assertThat(total).as("seed " + seed + ": increments kept").isEqualTo(6 * 40);
    }
  }

  /**
   * The counter and lock services fail and restart, losing their state: while they refuse,
   * transactions fail retryably; afterwards commit ids continue in a higher epoch, snapshots
   * include every commit before the restart, and first-committer-wins still holds.
   */
  @ParameterizedTest
  @EnumSource(names = {"SNAPSHOT_ISOLATION", "SERIALIZABLE_SNAPSHOT"})
  void coordinationServiceRestartsRefuseRetryablyAndBreakNothing(
      ProtocolKind kind, @Seed long seed) {
    try (Fixture f = new Fixture(seed)) {
      ManualExecutor ex = new ManualExecutor();
      Database a = f.open(snapshot(f, kind, "a", ex));
      Database b = f.open(snapshot(f, kind, "b", ex));
      load(a, 10);
      a.run(
          tx -> {
            tx.update("items", Key.of(3), Fixture.bytes("before"));
            return null;
          });
      f.cloud.restartCounterService();
      f.cloud.restartLockService();
      assertThatThrownBy(
              () -> {
                try (Transaction tx = b.begin()) {
                  tx.update("items", Key.of(3), Fixture.bytes("refused"));
                  tx.commit();
                }
              })
          .isInstanceOf(io.stratus.StratusException.class)
          .satisfies(e -> assertThat(((io.stratus.StratusException) e).isRetryable()).isTrue());
      f.clock.advance(Duration.ofSeconds(121)); // the refusal window: the longest lease
      try (Transaction check = b.begin()) {
        assertThat(read(check, 3)).as("a commit before the restart").isEqualTo("before");
      }
      Transaction t1 = a.begin();
      Transaction t2 = b.begin();
      t1.update("items", Key.of(3), Fixture.bytes(read(t1, 3) + "+a"));
      t2.update("items", Key.of(3), Fixture.bytes(read(t2, 3) + "+b"));
      t1.commit();
      assertThatThrownBy(t2::commit).isInstanceOf(TransactionConflictException.class);
      b.admin().checkpointAll();
      assertThat(Fixture.itemsByKey(b)).containsEntry("3", "before+a");
    }
  }

  /** A transaction older than the transaction timeout is refused reads (retryably). */
  @ParameterizedTest
  @EnumSource(names = {"SNAPSHOT_ISOLATION", "TWO_PHASE_LOCKING"})
  void aTransactionPastItsTimeoutIsRefused(ProtocolKind kind, @Seed long seed) {
    try (Fixture f = new Fixture(seed)) {
      Database a = f.open(snapshot(f, kind, "a", new ManualExecutor()));
      load(a, 3);
      try (Transaction tx = a.begin()) {
        f.clock.advance(Duration.ofSeconds(11));
        assertThatThrownBy(() -> read(tx, 1)).isInstanceOf(TransactionTimeoutException.class);
      }
    }
  }

  /**
   * Past its timeout, a transaction that reads again only what it has read is refused within a
   * few reads (its views check the clock at every sixteenth read of a leaf they showed before),
   * until then sees what it saw, and cannot commit; a read-only one is refused alike.
   */
  @ParameterizedTest
  @EnumSource(names = {"SNAPSHOT_ISOLATION", "SERIALIZABLE_SNAPSHOT", "TWO_PHASE_LOCKING"})
  void aTransactionRereadingPastItsTimeoutIsRefusedWithinSixteenReads(
      ProtocolKind kind, @Seed long seed) {
    try (Fixture f = new Fixture(seed)) {
      Database a = f.open(snapshot(f, kind, "a", new ManualExecutor()));
      load(a, 3);
      try (Transaction tx = a.begin()) {
        assertThat(read(tx, 1)).isEqualTo("v0-1");
        tx.update("items", Key.of(2), Fixture.bytes("late"));
        f.clock.advance(Duration.ofSeconds(11));
        assertThat(rereadsAnswered(tx)).as("reads answered past the timeout").isLessThan(16);
        assertThatThrownBy(tx::commit).isInstanceOf(TransactionTimeoutException.class);
      }
      int answered =
          a.read(
              RetryPolicy.builder().maxAttempts(1).build(),
              tx -> {
                assertThat(read(tx, 1)).isEqualTo("v0-1");
                f.clock.advance(Duration.ofSeconds(11));
                return rereadsAnswered(tx);
              });
      assertThat(answered).as("read-only reads answered past the timeout").isLessThan(16);
      assertThat(Fixture.itemsByKey(a)).containsEntry("2", "v0-2");
    }
  }

  /**
   * A transaction that outlived its locks' lease (a long pause, say) while another client changed
   * what it read, then reads it again, sees what it saw before or is refused — never the other
   * client's values beside its own old ones — and cannot commit.
   */
  @ParameterizedTest
  @EnumSource(names = {"SNAPSHOT_ISOLATION", "SERIALIZABLE_SNAPSHOT", "TWO_PHASE_LOCKING"})
  void rereadsPastTheLeaseNeverShowAnotherClientsLaterWrites(ProtocolKind kind, @Seed long seed) {
    try (Fixture f = new Fixture(seed)) {
      Database a = f.open(snapshot(f, kind, "a", new ManualExecutor()));
      Database b = f.open(snapshot(f, kind, "b", new ManualExecutor()));
      load(a, 3);
      try (Transaction tx = a.begin()) {
        assertThat(read(tx, 0)).isEqualTo("v0-0");
        assertThat(read(tx, 1)).isEqualTo("v0-1");
        f.clock.advance(a.config().isolation().leaseTimeout().plusSeconds(1));
        b.run(
            w -> {
              w.update("items", Key.of(0), Fixture.bytes("b0"));
              w.update("items", Key.of(1), Fixture.bytes("b1"));
              return null;
            });
        for (int i = 0; i < 20; i++) {
          long key = i % 2;
          try {
            assertThat(read(tx, key)).isEqualTo("v0-" + key);
          } catch (TransactionTimeoutException refused) {
            break;
          }
        }
        assertThatThrownBy(
                () -> {
                  tx.update("items", Key.of(2), Fixture.bytes("a2"));
                  tx.commit();
                })
            .isInstanceOf(TransactionTimeoutException.class);
      }
      assertThat(Fixture.itemsByKey(b)).containsEntry("0", "b0").containsEntry("2", "v0-2");
    }
  }

  /** Reads record 1 again until refused (at most 100 times): the reads answered, each "v0-1". */
  private static int rereadsAnswered(Transaction tx) {
    int answered = 0;
    try {
      while (answered < 100) {
        assertThat(read(tx, 1)).isEqualTo("v0-1");
        answered++;
      }
    } catch (TransactionTimeoutException expected) {
      // refused, as a transaction past its timeout is at the latest at its sixteenth read
    }
    return answered;
  }

  /** Lease timeouts that break paper 000's rule are refused when the configuration is built. */
  @ParameterizedTest
  @EnumSource(names = {"SNAPSHOT_ISOLATION", "SERIALIZABLE_SNAPSHOT", "TWO_PHASE_LOCKING"})
  void leasesShorterThanTheRuleAreRefused(ProtocolKind kind, @Seed long seed) {
    try (Fixture f = new Fixture(seed)) {
      assertThatThrownBy(
              () -> f.config().protocol(kind).isolationLeaseTimeout(Duration.ofSeconds(60)).build())
          .isInstanceOf(InvalidConfigurationException.class)
          .hasMessageContaining("2 x transaction timeout");
      f.config()
          .protocol(kind)
          .transactionTimeout(Duration.ofSeconds(2))
          .atomicTimeout(Duration.ofSeconds(40))
          .isolationLeaseTimeout(Duration.ofSeconds(60))
          .build();
      assertThatThrownBy(
              () ->
                  f.config()
                      .protocol(ProtocolKind.MONOTONIC)
                      .transactionTimeout(Duration.ofSeconds(2))
                      .build())
          .isInstanceOf(InvalidConfigurationException.class);
    }
  }

  /** Archived records that no transaction can need are collected; reads stay right. */
  @ParameterizedTest
  @EnumSource(names = {"SNAPSHOT_ISOLATION"})
  void theArchiveIsCollectedOnceNoTransactionNeedsIt(ProtocolKind kind, @Seed long seed) {
    try (Fixture f = new Fixture(seed)) {
      ManualExecutor ex = new ManualExecutor();
      Database a = f.open(snapshot(f, kind, "a", ex));
      load(a, 20);
      for (int i = 0; i < 20; i++) {
        int k = i;
        a.run(
            tx -> {
              tx.update("items", Key.of(k), Fixture.bytes("x" + k));
              return null;
            });
      }
      String queue = Fixture.DB + "/si/log/" + Fixture.DB + "/c/items/root";
      int archived =
          CloudFutures.await(f.services().advancedQueues().receiveAfterId(queue, 1000, 0)).size();
      assertThat(archived).isEqualTo(20);
      ex.runAll(); // the background clean-up of the commits' ATOMIC messages
      a.admin().checkpointAll();
      f.clock.advance(Duration.ofMinutes(3)); // past lease + transaction timeout and the TTL
      a.admin().checkpointAll(); // a new mark, then the collection
      a.run(
          tx -> {
            tx.update("items", Key.of(0), Fixture.bytes("y0"));
            return null;
          });
      f.clock.advance(Duration.ofSeconds(20));
      a.admin().checkpointAll();
      int left =
          CloudFutures.await(f.services().advancedQueues().receiveAfterId(queue, 1000, 0)).size();
      assertThat(left).as("collected: only the newest commit's record is left").isEqualTo(1);
      Map<String, String> items = Fixture.itemsByKey(a);
      assertThat(items).containsEntry("0", "y0").containsEntry("19", "x19").hasSize(20);
    }
  }

  /**
   * Eventually consistent storage may serve a tree's root as it was before a checkpoint for a
   * while after it, longer than the TTL. A record whose checkpoint was kept waiting (its lock held
   * elsewhere) until the record was older than lease + transaction timeout is applied; 12 s later
   * (past TTL + 1 s) the next checkpoint collects; a reader given the old root must still find the
   * record in the archive, or it reads the value the record replaced. The record goes once no
   * storage may serve that root any more.
   */
  @ParameterizedTest
  @EnumSource(names = {"SNAPSHOT_ISOLATION", "SERIALIZABLE_SNAPSHOT", "TWO_PHASE_LOCKING"})
  void aRootServedStaleAfterItsCheckpointStillRollsForward(ProtocolKind kind, @Seed long seed) {
    try (Fixture f = new Fixture(seed)) {
      ManualExecutor ex = new ManualExecutor();
      Database a = f.open(snapshot(f, kind, "a", ex));
      load(a, 5);
      String root = Fixture.DB + "/c/items/root";
      StoredItem before = CloudFutures.await(f.services().storage().get(root)).orElseThrow();
      a.run(
          tx -> {
            tx.update("items", Key.of(1), Fixture.bytes("x"));
            return null;
          });
      String lock = Fixture.DB + "/si/ckpt/" + root;
      CloudFutures.await(f.services().locks().acquireExclusive(lock, "elsewhere"));
      ex.runAll(); // the ATOMIC clean-up; the commit's checkpoint finds its lock taken
      f.clock.advance(Duration.ofSeconds(140)); // older than lease + transaction timeout
      a.admin().checkpointAll(); // applies the update: a new root
      f.clock.advance(Duration.ofSeconds(12));
      a.admin().checkpointAll(); // nothing to apply; then its collection
      Database stale =
          f.open(
              f.config(new StaleItem(root, before))
                  .protocol(kind)
                  .clientId("stale")
                  .checkpointExecutor(ex));
      String seen = stale.read(tx -> read(tx, 1));
      assertThat(seen).as("read through the old root").isEqualTo("x");
      f.clock.advance(Duration.ofMinutes(3));
      a.admin().checkpointAll();
      String queue = Fixture.DB + "/si/log/" + root;
      assertThat(CloudFutures.await(f.services().advancedQueues().receiveAfterId(queue, 10, 0)))
          .as("collected once no served copy can need it")
          .isEmpty();
      assertThat(Fixture.itemsByKey(f.open(snapshot(f, kind, "fresh", ex))))
          .containsEntry("1", "x");
    }
  }

  /**
   * A record inserted and deleted again between two checkpoints leaves its leaf as it was. The
   * checkpoint that applies both must still stamp the leaf with what it now reflects: once the two
   * records are collected, a handle that rolls its copy of the leaf forward from the old stamp
   * with the insert still in its archive cache, and the delete gone from the queue, would read
   * the deleted record again.
   */
  @ParameterizedTest
  @EnumSource(names = {"SNAPSHOT_ISOLATION", "SERIALIZABLE_SNAPSHOT"})
  void aLeafTheCheckpointLeavesAsItWasIsStampedWithWhatItReflects(
      ProtocolKind kind, @Seed long seed) {
    try (Fixture f = new Fixture(seed)) {
      ManualExecutor ex = new ManualExecutor();
      Database a = f.open(snapshot(f, kind, "a", ex));
      load(a, 300); // several leaves: the root's own stamp says nothing of theirs
      a.run(
          tx -> {
            tx.create("items", Key.of(1000), Fixture.bytes("new"));
            return null;
          });
      String inserted = a.read(tx -> read(tx, 1000));
      assertThat(inserted).as("rolled forward; the insert is cached").isEqualTo("new");
      a.run(
          tx -> {
            assertThat(tx.delete("items", Key.of(1000))).isTrue();
            return null;
          });
      ex.runAll(); // the commits' clean-up and background checkpoints
      a.admin()
          .checkpointAll(); // insert and delete of one key: the leaf's entries stay as they were
      f.clock.advance(Duration.ofMinutes(3)); // past lease + transaction timeout and the TTL
      a.admin().checkpointAll(); // a new mark, then the collection
      String queue = Fixture.DB + "/si/log/" + Fixture.DB + "/c/items/root";
      assertThat(CloudFutures.await(f.services().advancedQueues().receiveAfterId(queue, 10, 0)))
          .as("collected")
          .isEmpty();
      String afterDelete = a.read(tx -> read(tx, 1000));
      assertThat(afterDelete).as("the writer reads its delete").isNull();
      assertThat(Fixture.itemsByKey(a)).doesNotContainKey("1000").hasSize(300);
      assertThat(Fixture.itemsByKey(f.open(snapshot(f, kind, "fresh", ex))))
          .doesNotContainKey("1000")
          .hasSize(300);
    }
  }

  /** Serves one URI's reads with an old item, as a stale replica of eventual storage would. */
  private static final class StaleItem implements CallInterceptor {
    private final String uri;
    private final StoredItem item;

    StaleItem(String uri, StoredItem item) {
      this.uri = uri;
      this.item = item;
    }

    @Override
    @SuppressWarnings("unchecked") // a get's result type
    public <T> CompletableFuture<T> intercept(
        Call<T> call, Supplier<CompletableFuture<T>> proceed) {
      if (call.operation() == Operation.STORAGE_GET && call.target().equals(uri)) {
        return CompletableFuture.completedFuture((T) Optional.of(item));
      }
      return proceed.get();
    }
  }
}
