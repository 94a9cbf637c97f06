package io.stratus.core;

import static io.stratus.core.BasicProtocolTest.load;
import static io.stratus.core.SnapshotIsolationTest.read;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.stratus.cloudapi.CloudServices;
import io.stratus.cloudapi.LockService;
import io.stratus.cloudapi.Operation;
import io.stratus.cloudapi.SupportsLockStamps;
import io.stratus.cloudapi.decorate.CloudMeter;
import io.stratus.cloudapi.decorate.Decorators;
import io.stratus.cloudapi.decorate.MeteringInterceptor;
import io.stratus.cloudapi.decorate.ScriptedCrashPoints;
import io.stratus.cloudapi.decorate.SimulatedCrashException;
import io.stratus.cloudapi.testing.PlainServices;
import io.stratus.cloudapi.testing.Seed;
import io.stratus.cloudapi.testing.SeedExtension;
import io.stratus.protocols.ProtocolKind;
import io.stratus.zookeeper.ZooKeeperCloud;
import io.stratus.zookeeper.ZooKeeperConfig;
import java.time.Duration;
import org.apache.curator.test.TestingServer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Two-phase locking's point reads on a lock service with stamps ({@link SupportsLockStamps}): the
 * shared grant tells the reader the commit id of the record's last writer, and the reader looks at
 * the tree's archive only when that commit is newer than what its view holds. Schedule by
 * schedule: a record nobody wrote since the transaction began is read with the lock alone; a
 * record another client committed after it began is read after a look; a writer that died inside
 * its commit leaves no stamp a reader could trust, and its commit is read; the same on ZooKeeper's
 * locks; without the ability every read looks, as before.
 */
@ExtendWith(SeedExtension.class)
class TwoPhaseLockingStampsTest {
  private static final ProtocolKind KIND = ProtocolKind.TWO_PHASE_LOCKING;

  /** One attempt: a conflict surfaces instead of being retried. */
  private static final RetryPolicy ONCE = RetryPolicy.builder().maxAttempts(1).build();

  private static DatabaseConfig.Builder config(DatabaseConfig.Builder base, String client) {
    return base.protocol(KIND).clientId(client).checkpointExecutor(new ManualExecutor());
  }

  private static void write(Database db, long key, String value) {
    db.run(
        ONCE,
        tx -> {
          tx.update("items", Key.of(key), Fixture.bytes(value));
          return null;
        });
  }

  /** The archive receives (refreshes) a read of {@code key} in {@code tx} makes, and its value. */
  private static long receivesOfRead(CloudMeter meter, Transaction tx, long key, String expected) {
    long before = meter.snapshot().stats(Operation.ADVANCED_QUEUE_RECEIVE).calls();
    assertThat(read(tx, key)).isEqualTo(expected);
    return meter.snapshot().stats(Operation.ADVANCED_QUEUE_RECEIVE).calls() - before;
  }

  /**
   * A record written before the transaction began (its stamp at most the transaction's base), and
   * one nobody ever wrote under a lock (stamp 0), are read with the lock alone; a record another
   * client committed after the transaction began (a stamp above its base) is read after a look
   * at the archive, and shows that commit.
   */
  @Test
  void aPointReadLooksAtTheArchiveOnlyWhenItsStampIsNewerThanTheView(@Seed long seed) {
    try (Fixture f = new Fixture(seed)) {
      CloudMeter meter = new CloudMeter();
      Database a = f.open(config(f.config(new MeteringInterceptor(meter)), "a"));
      Database b = f.open(config(f.config(), "b"));
      load(b, 10);
      write(b, 3, "b1");
      try (Transaction warm = a.begin()) {
        read(warm, 1); // the archive below the base, cached for later transactions
      }
      try (Transaction tx = a.begin()) {
        assertThat(receivesOfRead(meter, tx, 3, "b1")).as("written before it began").isZero();
        assertThat(receivesOfRead(meter, tx, 4, "v0-4")).as("never written").isZero();
        write(b, 5, "b2"); // committed after tx began: its stamp is above tx's base
        assertThat(receivesOfRead(meter, tx, 5, "b2")).as("written since it began").isEqualTo(1);
        tx.update("items", Key.of(5L), Fixture.bytes(read(tx, 5) + "+a"));
        tx.commit();
      }
      assertThat(Fixture.itemsByKey(b))
          .containsEntry("3", "b1")
          .containsEntry("4", "v0-4")
          .containsEntry("5", "b2+a");
    }
  }

  /**
   * A writer dies inside its commit, after its commit record (at each later step), holding the
   * exclusive lock of the record it wrote; its lock lapses without a release, so without a stamp.
   * A reader on another handle then reads the dead writer's value — never the stamp an earlier
   * writer left — and writes over it without losing it.
   */
  @ParameterizedTest
  @ValueSource(
      strings = {
        "isolation.after-commit-record",
        "isolation.after-archive",
        "isolation.after-validate"
      })
  void aWriterThatDiesBeforeItsReleaseLeavesNoStampToTrust(String point, @Seed long seed) {
    try (Fixture f = new Fixture(seed)) {
      Database b = f.open(config(f.config(), "b"));
      load(b, 10);
      write(b, 3, "b1"); // leaves its commit id as the stamp of record 3
      ScriptedCrashPoints crash = new ScriptedCrashPoints().arm(point, 1);
      Database dead = f.open(config(f.config(), "dead").crashPoints(crash));
      assertThatThrownBy(() -> write(dead, 3, "dead"))
          .as(point)
          .isInstanceOf(SimulatedCrashException.class);
      f.clock.advance(Duration.ofSeconds(121)); // past the lease of its lock and commit id

      Database reader = f.open(config(f.config(), "reader"));
      reader.run(
          ONCE,
          tx -> {
            String seen = read(tx, 3);
            assertThat(seen).as("read after %s", point).isEqualTo("dead");
            tx.update("items", Key.of(3L), Fixture.bytes(seen + "+reader"));
            return null;
          });
      assertThat(Fixture.itemsByKey(b)).containsEntry("3", "dead+reader");
    }
  }

  /**
   * The same reads with locks, counters and the archive on ZooKeeper (storage and simple queues in
   * process): the adapter's stamps spare the look just as the in-process locks' do.
   */
  @Test
  void onZooKeeperAPointReadLooksAtTheArchiveOnlyWhenItsStampIsNewer(@Seed long seed)
      throws Exception {
    try (Fixture f = new Fixture(seed);
        TestingServer server = new TestingServer(true);
        ZooKeeperCloud zk =
            ZooKeeperCloud.connect(
                ZooKeeperConfig.builder(server.getConnectString())
                    .namespace("stamps")
                    .clock(f.clock)
                    .maxClockSkew(Duration.ZERO)
                    .build())) {
      CloudServices services =
          CloudServices.builder()
              .storage(f.services().storage())
              .simpleQueues(f.services().simpleQueues())
              .locks(zk.locks())
              .counters(zk.counters())
              .advancedQueues(zk.advancedQueues())
              .build();
      assertThat(services.locks()).isInstanceOf(SupportsLockStamps.class);
      CloudMeter meter = new CloudMeter();
      Database a =
          f.open(
              config(
                  onServices(f, Decorators.wrap(services, new MeteringInterceptor(meter))), "a"));
      Database b = f.open(config(onServices(f, services), "b"));
      load(b, 10);
      write(b, 3, "b1");
      try (Transaction warm = a.begin()) {
        read(warm, 1);
      }
      try (Transaction tx = a.begin()) {
        assertThat(receivesOfRead(meter, tx, 3, "b1")).isZero();
        assertThat(receivesOfRead(meter, tx, 4, "v0-4")).isZero();
        write(b, 5, "b2");
        assertThat(receivesOfRead(meter, tx, 5, "b2")).isEqualTo(1);
      }
    }
  }

  /** A configuration of the fixture's database on {@code services}. */
  private static DatabaseConfig.Builder onServices(Fixture f, CloudServices services) {
    return DatabaseConfig.builder(services, Fixture.DB)
        .clock(f.clock)
        .pageSize(Fixture.PAGE_SIZE)
        .ttl(Fixture.TTL);
  }

  /** Without stamps every locked point read looks at the archive, and reads the latest commit. */
  @Test
  void withoutStampsEveryPointReadLooksAtTheArchive(@Seed long seed) {
    try (Fixture f = new Fixture(seed)) {
      LockService plain = PlainServices.locks(f.services().locks());
      CloudServices services = f.services().toBuilder().locks(plain).build();
      CloudMeter meter = new CloudMeter();
      Database a =
          f.open(
              config(
                  onServices(f, Decorators.wrap(services, new MeteringInterceptor(meter))), "a"));
      Database b = f.open(config(f.config(), "b"));
      load(b, 10);
      write(b, 3, "b1");
      try (Transaction warm = a.begin()) {
        read(warm, 1);
      }
      try (Transaction tx = a.begin()) {
        assertThat(receivesOfRead(meter, tx, 3, "b1")).isEqualTo(1);
        assertThat(receivesOfRead(meter, tx, 4, "v0-4")).isEqualTo(1);
        write(b, 5, "b2");
        assertThat(receivesOfRead(meter, tx, 5, "b2")).isEqualTo(1);
      }
    }
  }
}
