package io.stratus.core;

import static io.stratus.core.BasicProtocolTest.load;
import static io.stratus.core.SnapshotIsolationTest.read;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.stratus.TransactionConflictException;
import io.stratus.cloudapi.Operation;
import io.stratus.cloudapi.decorate.CloudMeter;
import io.stratus.cloudapi.decorate.MeterSnapshot;
import io.stratus.cloudapi.decorate.MeteringInterceptor;
import io.stratus.cloudapi.testing.Seed;
import io.stratus.cloudapi.testing.SeedExtension;
import io.stratus.protocols.ProtocolKind;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Strict two-phase locking (paper 000, section 5.5), schedule by schedule: a shared lock taken by
 * a read refuses every other transaction's write of that key until the reader ends; a scan's
 * next-key locks refuse inserts into its range (no phantom) but not beyond it; reads see the
 * latest commit of any client at once, never a cached page; a transaction's own writes stay on
 * top of what it reads; read-only transactions take no locks; every lock goes with the end of its
 * transaction, committed or not; restarts of the lock and counter services break nothing.
 */
@ExtendWith(SeedExtension.class)
class TwoPhaseLockingTest {
  private static final ProtocolKind KIND = ProtocolKind.TWO_PHASE_LOCKING;

  /** One attempt: a conflict surfaces instead of being retried. */
  private static final RetryPolicy ONCE = RetryPolicy.builder().maxAttempts(1).build();

  private static Database open(Fixture f, String client) {
    return f.open(
        f.config().protocol(KIND).clientId(client).checkpointExecutor(new ManualExecutor()));
  }

  private static void update(Transaction tx, long key, String value) {
    tx.update("items", Key.of(key), Fixture.bytes(value));
  }

  /**
   * Two readers of one record: neither can write it while the other holds its shared lock (the
   * first to commit aborts, retryably); once the other ended, the write goes through. No update
   * is lost, whichever handle the second transaction runs on.
   */
  @Test
  void aSharedLockRefusesOtherWritersUntilItsTransactionEnds(@Seed long seed) {
    try (Fixture f = new Fixture(seed)) {
      Database a = open(f, "a");
      Database b = open(f, "b");
      load(a, 10);
      for (Database second : List.of(a, b)) {
        Transaction t1 = a.begin();
        Transaction t2 = second.begin();
        String v = read(t1, 7);
        assertThat(read(t2, 7)).isEqualTo(v);
        update(t1, 7, v + "+1");
        update(t2, 7, v + "+2");
        assertThatThrownBy(t1::commit)
            .isInstanceOf(TransactionConflictException.class)
            .satisfies(e -> assertThat(((TransactionConflictException) e).isRetryable()).isTrue());
        t1.close();
        t2.commit();
        t2.close();
        try (Transaction check = b.begin()) {
          assertThat(read(check, 7)).isEqualTo(v + "+2");
        }
      }
    }
  }

  /** Two doctors on call: the second to go off call is refused (no write skew). */
  @Test
  void writeSkewIsRefused(@Seed long seed) {
    try (Fixture f = new Fixture(seed)) {
      Database a = open(f, "a");
      load(a, 2);
      Transaction t1 = a.begin();
      Transaction t2 = a.begin();
      assertThat(read(t1, 0)).isEqualTo("v0-0");
      assertThat(read(t1, 1)).isEqualTo("v0-1");
      assertThat(read(t2, 0)).isEqualTo("v0-0");
      assertThat(read(t2, 1)).isEqualTo("v0-1");
      update(t1, 0, "off");
      update(t2, 1, "off");
      assertThatThrownBy(t1::commit).isInstanceOf(TransactionConflictException.class);
      t1.close();
      t2.commit();
      t2.close();
      assertThat(Fixture.itemsByKey(a)).containsEntry("0", "v0-0").containsEntry("1", "off");
    }
  }

  /**
   * A scan holds its range: an insert into it (between two keys, or past its last key but before
   * the next) is refused while the scanner runs, and a second scan of the scanner sees the same
   * records. An insert beyond the key after the range, and an update of a record outside it, go
   * through.
   */
  @Test
  void aScannedRangeAdmitsNoPhantom(@Seed long seed) {
    try (Fixture f = new Fixture(seed)) {
      Database a = open(f, "a");
      Database b = open(f, "b");
      a.createCollection("items");
      a.run(
          tx -> {
            for (long k = 0; k < 40; k += 10) {
              tx.create("items", Key.of(k), Fixture.bytes("v" + k));
            }
            return null;
          });
      KeyRange range = KeyRange.closed(Key.of(5L), Key.of(25L)); // holds 10, 20; next key 30
      try (Transaction scanner = a.begin()) {
        assertThat(keys(scanner, range)).containsExactly(10L, 20L);
        for (long phantom : new long[] {15L, 22L, 27L}) {
          assertThatThrownBy(
                  () ->
                      b.run(
                          ONCE,
                          tx -> {
                            tx.create("items", Key.of(phantom), Fixture.bytes("phantom"));
                            return null;
                          }))
              .as("insert of %d", phantom)
              .isInstanceOf(TransactionConflictException.class);
        }
        b.run(
            ONCE,
            tx -> {
              tx.create("items", Key.of(35L), Fixture.bytes("beyond"));
              tx.update("items", Key.of(0L), Fixture.bytes("outside"));
              return null;
            });
        assertThat(keys(scanner, range)).containsExactly(10L, 20L);
        scanner.create("items", Key.of(12L), Fixture.bytes("own"));
        assertThat(keys(scanner, range)).containsExactly(10L, 12L, 20L);
        scanner.commit();
      }
      b.run(
          ONCE,
          tx -> {
            tx.create("items", Key.of(15L), Fixture.bytes("after"));
            return null;
          });
      assertThat(Fixture.itemsByKey(b))
          .containsKeys("0", "10", "12", "15", "20", "30", "35")
          .containsEntry("0", "outside")
          .hasSize(7);
    }
  }

  /**
   * A range of more than {@code ESCALATE_AT} keys locks its tree whole, with one lock request
   * instead of one per key: while the scanner runs, no other transaction commits to that tree,
   * not even outside the range; other trees are untouched; afterwards writers go through.
   */
  @Test
  void aLargeScanLocksItsTreeWhole(@Seed long seed) {
    try (Fixture f = new Fixture(seed)) {
      CloudMeter meter = new CloudMeter();
      Database a =
          f.open(
              f.config(new MeteringInterceptor(meter))
                  .protocol(KIND)
                  .clientId("a")
                  .checkpointExecutor(new ManualExecutor()));
      Database b = open(f, "b");
      load(a, 300);
      b.createCollection("other");
      try (Transaction scanner = a.begin()) {
        MeterSnapshot before = meter.snapshot();
        assertThat(keys(scanner, KeyRange.closed(Key.of(0L), Key.of(199L)))).hasSize(200);
        MeterSnapshot scan = meter.snapshot().minus(before);
        assertThat(scan.total(Operation.Service.LOCK).calls())
            .as("lock requests of the scan")
            .isLessThanOrEqualTo(2);
        assertThatThrownBy(
                () ->
                    b.run(
                        ONCE,
                        tx -> {
                          update(tx, 250, "outside the range");
                          return null;
                        }))
            .isInstanceOf(TransactionConflictException.class);
        b.run(
            ONCE,
            tx -> {
              tx.create("other", Key.of(1L), Fixture.bytes("another tree"));
              return null;
            });
        update(scanner, 7, "scanned");
        scanner.commit();
      }
      b.run(
          ONCE,
          tx -> {
            update(tx, 250, "after");
            return null;
          });
      assertThat(Fixture.itemsByKey(b)).containsEntry("7", "scanned").containsEntry("250", "after");
    }
  }

  /**
   * Two large scanners of one tree pass each other (they hold the tree's writers' lock shared,
   * writers hold intentions); a scanner that then writes the tree needs both, so it waits for the
   * other scanner to end, and a writer is refused while either runs.
   */
  @Test
  void largeScannersOfOneTreePassEachOther(@Seed long seed) {
    try (Fixture f = new Fixture(seed)) {
      Database a = open(f, "a");
      Database b = open(f, "b");
      Database c = open(f, "c");
      load(a, 300);
      try (Transaction first = a.begin();
          Transaction second = b.begin()) {
        assertThat(keys(first, KeyRange.closed(Key.of(0L), Key.of(199L)))).hasSize(200);
        assertThat(keys(second, KeyRange.closed(Key.of(100L), Key.of(299L)))).hasSize(200);
        assertThatThrownBy(
                () ->
                    c.run(
                        ONCE,
                        tx -> {
                          update(tx, 250, "while scanned");
                          return null;
                        }))
            .isInstanceOf(TransactionConflictException.class);
        update(first, 7, "scanned");
        assertThatThrownBy(first::commit)
            .as("writing the tree while another scanner reads it whole")
            .isInstanceOf(TransactionConflictException.class);
        second.commit();
      }
      a.run(
          ONCE,
          tx -> {
            assertThat(keys(tx, KeyRange.closed(Key.of(0L), Key.of(199L)))).hasSize(200);
            update(tx, 7, "scanned");
            return null;
          });
      assertThat(Fixture.itemsByKey(c)).containsEntry("7", "scanned");
    }
  }

  /** A probe holds its search key: a record moved into it by another transaction is refused. */
  @Test
  void anIndexProbeAdmitsNoPhantom(@Seed long seed) {
    IndexKeyExtractor city =
        (key, payload) -> {
          String s = Fixture.string(payload);
          int colon = s.indexOf(':');
          return colon < 0
              ? Optional.empty()
              : Optional.of(Key.of(s.substring(0, colon)).toBytes());
        };
    try (Fixture f = new Fixture(seed)) {
      DatabaseConfig.Builder cfg =
          f.config()
              .protocol(KIND)
              .checkpointExecutor(new ManualExecutor())
              .indexExtractor("people", "byCity", city);
      Database a = f.open(cfg.clientId("a"));
      Database b = f.open(cfg.clientId("b"));
      a.createCollection("people");
      a.createIndex("people", "byCity", city);
      a.run(
          tx -> {
            tx.create("people", Key.of(1L), Fixture.bytes("Bern:anna"));
            tx.create("people", Key.of(2L), Fixture.bytes("Zug:bruno"));
            return null;
          });
      try (Transaction prober = a.begin()) {
        assertThat(prober.probe("people", "byCity", Key.of("Bern"))).hasSize(1);
        assertThatThrownBy(
                () ->
                    b.run(
                        ONCE,
                        tx -> {
                          tx.update("people", Key.of(2L), Fixture.bytes("Bern:bruno"));
                          return null;
                        }))
            .isInstanceOf(TransactionConflictException.class);
        assertThat(prober.probe("people", "byCity", Key.of("Bern"))).hasSize(1);
        prober.commit();
      }
      b.run(
          ONCE,
          tx -> {
            tx.update("people", Key.of(2L), Fixture.bytes("Bern:bruno"));
            return null;
          });
      try (Transaction tx = a.begin()) {
        assertThat(tx.probe("people", "byCity", Key.of("Bern"))).hasSize(2);
      }
    }
  }

  /**
   * Another client's commit is read at once by a new transaction, however long the TTL and
   * before any checkpoint: the page this handle cached is brought to the latest commit. A
   * record deleted and created again reads as created.
   */
  @Test
  void readsSeeTheLatestCommitNotACachedPage(@Seed long seed) {
    try (Fixture f = new Fixture(seed)) {
      Database a = open(f, "a");
      Database b = open(f, "b");
      load(a, 20);
      assertThat(Fixture.itemsByKey(a)).containsEntry("4", "v0-4"); // cached by a
      for (int round = 0; round < 3; round++) {
        String v = "b" + round;
        b.run(
            ONCE,
            tx -> {
              update(tx, 4, v);
              tx.delete("items", Key.of(5L));
              tx.create("items", Key.of(5L), Fixture.bytes("again-" + v));
              return null;
            });
        try (Transaction tx = a.begin()) {
          assertThat(read(tx, 4)).isEqualTo(v);
          assertThat(read(tx, 5)).isEqualTo("again-" + v);
          tx.commit();
        }
      }
      a.admin().checkpointAll();
      f.clock.advance(Duration.ofMinutes(5));
      assertThat(Fixture.itemsByKey(b)).containsEntry("4", "b2").containsEntry("5", "again-b2");
    }
  }

  /**
   * A transaction that wrote a key and then reads a neighbour on the same page sees the
   * neighbour's latest commit, not the value its private copy of the page was made with.
   */
  @Test
  void aPrivatePageDoesNotHideALaterCommitOfANeighbour(@Seed long seed) {
    try (Fixture f = new Fixture(seed)) {
      Database a = open(f, "a");
      Database b = open(f, "b");
      load(a, 10);
      try (Transaction tx = a.begin()) {
        update(tx, 1, "mine"); // copies the leaf holding 1 and 2
        b.run(
            ONCE,
            other -> {
              update(other, 2, "theirs");
              return null;
            });
        assertThat(read(tx, 2)).isEqualTo("theirs");
        assertThat(read(tx, 1)).isEqualTo("mine");
        update(tx, 2, read(tx, 2) + "+mine");
        tx.commit();
      }
      assertThat(Fixture.itemsByKey(b))
          .containsEntry("1", "mine")
          .containsEntry("2", "theirs+mine");
    }
  }

  /**
   * Read-only transactions take no locks: a writer commits a record a read-only transaction has
   * read, and the read-only transaction keeps its snapshot. Later read-only transactions see the
   * commit: at once on the writer's handle, on others once they stop reusing their snapshot.
   */
  @Test
  void readOnlyTransactionsTakeNoLocksAndKeepTheirSnapshot(@Seed long seed) {
    try (Fixture f = new Fixture(seed)) {
      Database a = open(f, "a");
      Database b = open(f, "b");
      load(a, 5);
      List<String> seen = new ArrayList<>();
      a.read(
          ONCE,
          ro -> {
            seen.add(read(ro, 3));
            b.run(
                ONCE,
                tx -> {
                  update(tx, 3, "changed");
                  return null;
                });
            seen.add(read(ro, 3));
            return null;
          });
      assertThat(seen).containsExactly("v0-3", "v0-3");
      String writer = b.read(ONCE, ro -> read(ro, 3));
      assertThat(writer).as("the writer reads its write").isEqualTo("changed");
      f.clock.advance(Duration.ofSeconds(1)); // past the reuse of a's snapshot
      String other = a.read(ONCE, ro -> read(ro, 3));
      assertThat(other).isEqualTo("changed");
    }
  }

  /**
   * Every lock goes with its transaction: after an abort, after a commit, and after a commit that
   * failed on a conflict, other transactions write what it had locked.
   */
  @Test
  void locksEndWithTheirTransaction(@Seed long seed) {
    try (Fixture f = new Fixture(seed)) {
      Database a = open(f, "a");
      Database b = open(f, "b");
      load(a, 5);
      try (Transaction tx = a.begin()) {
        read(tx, 0);
        keys(tx, KeyRange.all());
      } // closed without commit: aborted
      b.run(
          ONCE,
          tx -> {
            update(tx, 0, "after-abort");
            tx.create("items", Key.of(9L), Fixture.bytes("after-abort"));
            return null;
          });
      try (Transaction tx = a.begin()) {
        update(tx, 1, read(tx, 1) + "+a");
        tx.commit();
      }
      b.run(
          ONCE,
          tx -> {
            update(tx, 1, read(tx, 1) + "+b");
            return null;
          });
      assertThat(Fixture.itemsByKey(b))
          .containsEntry("0", "after-abort")
          .containsEntry("1", "v0-1+a+b")
          .containsEntry("9", "after-abort");
    }
  }

  /**
   * The lock and counter services restart and lose their state: while they refuse, transactions
   * fail retryably; afterwards every commit before the restart is read, and a shared lock taken
   * after it refuses a writer again.
   */
  @Test
  void coordinationServiceRestartsRefuseRetryablyAndBreakNothing(@Seed long seed) {
    try (Fixture f = new Fixture(seed)) {
      Database a = open(f, "a");
      Database b = open(f, "b");
      load(a, 10);
      a.run(
          ONCE,
          tx -> {
            update(tx, 3, "before");
            return null;
          });
      f.cloud.restartCounterService();
      f.cloud.restartLockService();
      assertThatThrownBy(
              () ->
                  b.run(
                      ONCE,
                      tx -> {
                        update(tx, 3, "refused");
                        return null;
                      }))
          .isInstanceOf(io.stratus.StratusException.class)
          .satisfies(e -> assertThat(((io.stratus.StratusException) e).isRetryable()).isTrue());
      f.clock.advance(Duration.ofSeconds(121)); // the refusal window: the longest lease
      try (Transaction reader = a.begin()) {
        assertThat(read(reader, 3)).as("a commit before the restart").isEqualTo("before");
        assertThatThrownBy(
                () ->
                    b.run(
                        ONCE,
                        tx -> {
                          update(tx, 3, "while read");
                          return null;
                        }))
            .isInstanceOf(TransactionConflictException.class);
        reader.commit();
      }
      b.run(
          ONCE,
          tx -> {
            update(tx, 3, read(tx, 3) + "+b");
            return null;
          });
      assertThat(Fixture.itemsByKey(a)).containsEntry("3", "before+b");
    }
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
}
