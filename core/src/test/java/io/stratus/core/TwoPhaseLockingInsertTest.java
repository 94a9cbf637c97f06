package io.stratus.core;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.stratus.TransactionConflictException;
import io.stratus.cloudapi.CloudServices;
import io.stratus.cloudapi.LockService;
import io.stratus.cloudapi.SupportsIntentionLocks;
import io.stratus.cloudapi.testing.PlainServices;
import io.stratus.cloudapi.testing.Seed;
import io.stratus.cloudapi.testing.SeedExtension;
import io.stratus.protocols.CrashPoint;
import io.stratus.protocols.ProtocolKind;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Inserts under two-phase locking take an insert intention on their gap's fence: inserts into one
 * gap, appends at the end of a tree above all, pass one another, while a scanner of the gap and an
 * insert into it still exclude each other (no phantom), at the end of a tree and in its middle.
 *
 * <p>Concurrency without threads: handle {@code a} runs another handle's transaction at its
 * commit's {@code isolation.after-locks} step, while it holds every commit lock and has not yet
 * checked its fences again.
 */
@ExtendWith(SeedExtension.class)
class TwoPhaseLockingInsertTest {
  private static final ProtocolKind KIND = ProtocolKind.TWO_PHASE_LOCKING;
  private static final RetryPolicy ONCE = RetryPolicy.builder().maxAttempts(1).build();

  /** Run once by the next commit of handle {@code a} once it holds its commit locks. */
  private final AtomicReference<Runnable> afterLocks = new AtomicReference<>();

  private Database open(Fixture f, String client) {
    return f.open(
        f.config().protocol(KIND).clientId(client).checkpointExecutor(new ManualExecutor()));
  }

  /** Handle {@code a}: runs {@link #afterLocks} in its next commit. */
  private Database openA(Fixture f, DatabaseConfig.Builder config) {
    return f.open(
        config
            .protocol(KIND)
            .clientId("a")
            .checkpointExecutor(new ManualExecutor())
            .crashPoints(
                point -> {
                  if (point.equals(CrashPoint.ISOLATION_AFTER_LOCKS.id())) {
                    Runnable r = afterLocks.getAndSet(null);
                    if (r != null) {
                      r.run();
                    }
                  }
                }));
  }

  private static void create(Database db, long... keys) {
    db.run(
        ONCE,
        tx -> {
          for (long k : keys) {
            tx.create("items", Key.of(k), Fixture.bytes("v" + k));
          }
          return null;
        });
  }

  /**
   * {@code a} commits its inserts, and while it holds their locks {@code b} runs {@code during};
   * returns what {@code during} threw (null when it committed).
   */
  private RuntimeException commitWhile(Database a, long[] mine, Runnable during) {
    List<RuntimeException> thrown = new ArrayList<>();
    afterLocks.set(
        () -> {
          try {
            during.run();
          } catch (RuntimeException e) {
            thrown.add(e);
          }
        });
    create(a, mine);
    assertThat(afterLocks.get()).as("the commit reached its locks").isNull();
    return thrown.isEmpty() ? null : thrown.get(0);
  }

  /**
   * Two handles append increasing keys at the end of one tree, each commit overlapping the
   * other's: both commit, whichever key is lower, and each sees the other's key once it reads.
   */
  @Test
  void concurrentAppendsAtTheEndOfATreeBothCommit(@Seed long seed) {
    try (Fixture f = new Fixture(seed)) {
      Database a = openA(f, f.config());
      Database b = open(f, "b");
      a.createCollection("items");
      create(a, 0);
      for (long k = 10; k < 100; k += 10) {
        long mine = k;
        long theirs = (k / 10) % 2 == 0 ? k + 1 : k - 1; // above mine, then below it
        RuntimeException e = commitWhile(a, new long[] {mine}, () -> create(b, theirs));
        assertThat(e).as("b's append %d during a's append %d", theirs, mine).isNull();
      }
      assertThat(Fixture.itemsByKey(b)).hasSize(19).containsKeys("9", "10", "20", "21", "89", "90");
    }
  }

  /**
   * Two transactions insert into the same gap between two keys, overlapping: both commit, in
   * either order of their keys; a transaction inserting two keys into the gap passes too.
   */
  @Test
  void concurrentInsertsIntoOneMiddleGapBothCommit(@Seed long seed) {
    try (Fixture f = new Fixture(seed)) {
      Database a = openA(f, f.config());
      Database b = open(f, "b");
      a.createCollection("items");
      create(a, 0, 100, 200, 300);
      assertThat(commitWhile(a, new long[] {112}, () -> create(b, 115))).isNull();
      assertThat(commitWhile(a, new long[] {215}, () -> create(b, 212))).isNull();
      assertThat(commitWhile(a, new long[] {120, 130}, () -> create(b, 125, 127))).isNull();
      assertThat(Fixture.itemsByKey(b))
          .containsKeys("112", "115", "212", "215", "120", "125", "127", "130")
          .hasSize(12);
    }
  }

  /**
   * A scanner of a gap holds its fence shared: an insert into the gap (and an append past the
   * last key, when the scan reaches the end of the tree) is refused while it runs, and the
   * scanner sees the same keys again; once it ended, the inserts go through.
   */
  @Test
  void aScannerRefusesInsertsIntoItsGapsAtTheEndAndInTheMiddle(@Seed long seed) {
    try (Fixture f = new Fixture(seed)) {
      Database a = open(f, "a");
      Database b = open(f, "b");
      a.createCollection("items");
      create(a, 0, 10, 20, 30, 40, 50);
      KeyRange toTheEnd = KeyRange.atLeast(Key.of(45L)); // 50 and the end of the tree
      KeyRange middle = KeyRange.closed(Key.of(21L), Key.of(25L)); // no key; fence 30
      try (Transaction scanner = a.begin()) {
        assertThat(keys(scanner, toTheEnd)).containsExactly(50L);
        assertThat(keys(scanner, middle)).isEmpty();
        for (long phantom : new long[] {47L, 60L, 1000L, 22L, 28L}) {
          assertThatThrownBy(() -> create(b, phantom))
              .as("insert of %d", phantom)
              .isInstanceOf(TransactionConflictException.class);
        }
        create(b, 12L, 35L); // gaps no scan covers
        assertThat(keys(scanner, toTheEnd)).containsExactly(50L);
        assertThat(keys(scanner, middle)).isEmpty();
        scanner.commit();
      }
      create(b, 60L, 22L);
      assertThat(Fixture.itemsByKey(b)).containsKeys("12", "22", "35", "60").hasSize(10);
    }
  }

  /**
   * An insert holding its intention refuses a scanner of its gap, at the end of the tree and in
   * its middle; the scan made after the insert committed sees the new key.
   */
  @Test
  void anInsertRefusesAScannerOfItsGapAtTheEndAndInTheMiddle(@Seed long seed) {
    try (Fixture f = new Fixture(seed)) {
      Database a = openA(f, f.config());
      Database b = open(f, "b");
      a.createCollection("items");
      create(a, 0, 10, 20, 30);
      RuntimeException atEnd =
          commitWhile(a, new long[] {50}, () -> keysIn(b, KeyRange.atLeast(Key.of(25L))));
      assertThat(atEnd).isInstanceOf(TransactionConflictException.class);
      assertThat(keysIn(b, KeyRange.atLeast(Key.of(25L)))).containsExactly(30L, 50L);

      RuntimeException inMiddle =
          commitWhile(
              a, new long[] {15}, () -> keysIn(b, KeyRange.closed(Key.of(11L), Key.of(13L))));
      assertThat(inMiddle)
          .as("a scan of the gap, though not of the key")
          .isInstanceOf(TransactionConflictException.class);
      assertThat(keysIn(b, KeyRange.closed(Key.of(11L), Key.of(19L)))).containsExactly(15L);

      RuntimeException elsewhere =
          commitWhile(
              a, new long[] {16}, () -> keysIn(b, KeyRange.closed(Key.of(21L), Key.of(29L))));
      assertThat(elsewhere).as("a scan of another gap").isNull();
    }
  }

  /**
   * A transaction that read the fence of its insert holds it exclusively, so a concurrent insert
   * into the same gap is refused: it could have changed what the first transaction read.
   */
  @Test
  void anInsertWhoseFenceItReadRefusesOtherInsertsIntoTheGap(@Seed long seed) {
    try (Fixture f = new Fixture(seed)) {
      Database a = openA(f, f.config());
      Database b = open(f, "b");
      a.createCollection("items");
      create(a, 0, 10);
      afterLocks.set(
          () ->
              assertThatThrownBy(() -> create(b, 6))
                  .isInstanceOf(TransactionConflictException.class));
      a.run(
          ONCE,
          tx -> {
            assertThat(tx.read("items", Key.of(10L))).isPresent();
            tx.create("items", Key.of(5L), Fixture.bytes("v5"));
            return null;
          });
      assertThat(afterLocks.get()).isNull();
      create(b, 6);
      assertThat(Fixture.itemsByKey(b)).containsKeys("5", "6").hasSize(4);
    }
  }

  /**
   * On a lock service without intentions an insert locks its fence exclusively: a concurrent
   * append is refused (the behaviour intentions remove), and no phantom gets past a scanner.
   */
  @Test
  void withoutIntentionsConcurrentAppendsConflictAndScannersStillHold(@Seed long seed) {
    try (Fixture f = new Fixture(seed)) {
      LockService plain = withoutIntentions(f.services().locks());
      CloudServices services = f.services().toBuilder().locks(plain).build();
      DatabaseConfig.Builder config =
          DatabaseConfig.builder(services, Fixture.DB)
              .clock(f.clock)
              .pageSize(Fixture.PAGE_SIZE)
              .ttl(Fixture.TTL);
      Database a = openA(f, config);
      Database b =
          f.open(
              DatabaseConfig.builder(services, Fixture.DB)
                  .clock(f.clock)
                  .pageSize(Fixture.PAGE_SIZE)
                  .ttl(Fixture.TTL)
                  .protocol(KIND)
                  .clientId("b")
                  .checkpointExecutor(new ManualExecutor()));
      a.createCollection("items");
      create(a, 0);
      assertThat(commitWhile(a, new long[] {10}, () -> create(b, 11)))
          .isInstanceOf(TransactionConflictException.class);
      try (Transaction scanner = a.begin()) {
        assertThat(keys(scanner, KeyRange.atLeast(Key.of(5L)))).containsExactly(10L);
        assertThatThrownBy(() -> create(b, 20)).isInstanceOf(TransactionConflictException.class);
        scanner.commit();
      }
      create(b, 20);
      assertThat(Fixture.itemsByKey(b)).containsKeys("0", "10", "20").hasSize(3);
    }
  }

  private static List<Long> keysIn(Database db, KeyRange range) {
    return db.run(ONCE, tx -> keys(tx, range));
  }

  private static List<Long> keys(Transaction tx, KeyRange range) {
    List<Long> out = new ArrayList<>();
    try (RecordCursor c = tx.scan("items", range)) {
      while (c.hasNext()) {
        out.add(c.next().key().decoder().nextLong());
      }
    }
    return out;
  }

  /** {@code locks} as a plain lock service, without the ability to take intentions. */
  private static LockService withoutIntentions(LockService locks) {
    assertThat(locks).isInstanceOf(SupportsIntentionLocks.class);
    return PlainServices.locks(locks);
  }
}
