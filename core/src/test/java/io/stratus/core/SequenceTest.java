package io.stratus.core;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.stratus.CloudServiceException;
import io.stratus.CorruptPageException;
import io.stratus.InvalidRequestException;
import io.stratus.cloudapi.CloudFutures;
import io.stratus.cloudapi.CloudServices;
import io.stratus.cloudapi.Operation;
import io.stratus.cloudapi.PreconditionFailedException;
import io.stratus.cloudapi.decorate.Call;
import io.stratus.cloudapi.decorate.CallInterceptor;
import io.stratus.cloudapi.decorate.FaultInterceptor;
import io.stratus.cloudapi.decorate.FaultKind;
import io.stratus.cloudapi.decorate.FaultPlan;
import io.stratus.cloudapi.inprocess.InProcessCloud;
import io.stratus.cloudapi.testing.Seed;
import io.stratus.cloudapi.testing.SeedExtension;
import io.stratus.protocols.ProtocolKind;
import io.stratus.protocols.StorageLayout;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.function.Supplier;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Sequences: unique ids from blocks reserved in storage, across threads, handles, processes and
 * restarts of any of them, on the in-process cloud and on the storage-only set-up (processes with
 * counters of their own); {@link SequenceOnZooKeeperTest} covers the ZooKeeper set-up.
 */
@ExtendWith(SeedExtension.class)
class SequenceTest {
  /** The largest integer a JSON client (an IEEE double) represents exactly: 2^53 - 1. */
  private static final long JSON_SAFE = (1L << 53) - 1;

  @Test
  void idsAreUniqueAcrossThreadsAndHandles(@Seed long seed) throws Exception {
    try (Fixture f = new Fixture(seed)) {
      List<Database> handles = List.of(f.open(), f.open());
      ConcurrentLinkedQueue<Long> ids = new ConcurrentLinkedQueue<>();
      List<Thread> threads = new ArrayList<>();
      for (int t = 0; t < 4; t++) {
        Sequence s = handles.get(t % 2).sequence("orders", 7);
        threads.add(
            new Thread(
                () -> {
                  for (int i = 0; i < 500; i++) {
                    ids.add(s.next());
                  }
                }));
      }
      threads.forEach(Thread::start);
      for (Thread t : threads) {
        t.join();
      }
      assertThat(ids).hasSize(2_000).allMatch(id -> id > 0);
      assertThat(new HashSet<>(ids)).hasSize(2_000);
      // 2,000 ids in blocks of 7 from two handles: at most one partial block per handle, so the
      // next reservation starts right after at most 2,000 / 7 + 2 blocks.
      assertThat(f.open().sequence("orders", 1).next())
          .isLessThanOrEqualTo(7 * (2_000 / 7 + 2) + 1);
    }
  }

  @Test
  void aHandleOpenedLaterNeverRepeatsAnId(@Seed long seed) {
    try (Fixture f = new Fixture(seed)) {
      Database first = f.open();
      Set<Long> seen = new HashSet<>();
      long last = 0;
      for (int i = 0; i < 15; i++) {
        last = first.sequence("users").next();
        assertThat(seen.add(last)).isTrue();
      }
      first.close();
      long after = f.open().sequence("users").next();
      assertThat(after).isGreaterThan(last); // the rest of the first handle's block is a gap
    }
  }

  @Test
  void aRestartedCounterServiceDoesNotInterruptASequence(@Seed long seed) {
    try (Fixture f = new Fixture(seed)) {
      f.services().counters().setTimeout(Fixture.DB + "/seq/", Duration.ofSeconds(5)).join();
      Sequence s = f.open().sequence("orders", 1);
      long before = s.next();
      f.cloud.restartCounterService();
      // Blocks are reserved in storage: the counter service's refusal period stops nothing.
      long after = s.next();
      assertThat(after).isGreaterThan(before);
      assertThat(f.open().sequence("orders", 1).next()).isGreaterThan(after);
    }
  }

  /**
   * A database handle as one process of the storage-only set-up opens it (S3 and SQS with no
   * ZooKeeper, as the Spring Boot starter and the command line build it): storage and queues are
   * shared, locks, counters and advanced queues are the process's own and die with it.
   */
  private static Database openAsProcess(Fixture f, List<AutoCloseable> opened) {
    InProcessCloud own = InProcessCloud.builder().clock(f.clock).build();
    CloudServices shared = f.services();
    CloudServices services =
        CloudServices.builder()
            .storage(shared.storage())
            .simpleQueues(shared.simpleQueues())
            .locks(own.services().locks())
            .counters(own.services().counters())
            .advancedQueues(own.services().advancedQueues())
            .build();
    // Naive commits are visible at once, so the test can count the orders without checkpoints.
    Database db =
        Database.open(
            DatabaseConfig.builder(services, Fixture.DB)
                .protocol(ProtocolKind.NAIVE)
                .clock(f.clock)
                .build());
    opened.add(db);
    opened.add(own);
    return db;
  }

  private static void closeAll(List<AutoCloseable> opened) throws Exception {
    for (int i = opened.size() - 1; i >= 0; i--) {
      opened.get(i).close();
    }
  }

  @Test
  void aRestartedProcessWithItsOwnCountersRepeatsNoId(@Seed long seed) throws Exception {
    List<AutoCloseable> opened = new ArrayList<>();
    try (Fixture f = new Fixture(seed)) {
      Database first = openAsProcess(f, opened);
      first.createCollection("orders");
      Set<Long> ids = new HashSet<>();
      for (int i = 0; i < 150; i++) {
        long id = first.sequence("order-ids").next();
        assertThat(ids.add(id)).isTrue();
        first.run(
            tx -> {
              tx.create("orders", Key.of(id), Fixture.bytes("first"));
              return null;
            });
      }
      first.close();
      Database second = openAsProcess(f, opened);
      for (int i = 0; i < 150; i++) {
        long id = second.sequence("order-ids").next();
        assertThat(ids.add(id)).as("id %d handed out again after the restart", id).isTrue();
        second.run(tx -> tx.put("orders", Key.of(id), Fixture.bytes("second")));
      }
      long kept;
      try (Transaction tx = second.begin();
          RecordCursor c = tx.scan("orders")) {
        kept = 0;
        while (c.hasNext()) {
          c.next();
          kept++;
        }
      }
      assertThat(kept)
          .as("orders kept; a put over an earlier id replaces its order")
          .isEqualTo(300);
    } finally {
      closeAll(opened);
    }
  }

  @Test
  void twoProcessesWithTheirOwnCountersGetDisjointIds(@Seed long seed) throws Exception {
    List<AutoCloseable> opened = new ArrayList<>();
    try (Fixture f = new Fixture(seed)) {
      List<Sequence> sequences =
          List.of(
              openAsProcess(f, opened).sequence("order-ids", 3),
              openAsProcess(f, opened).sequence("order-ids", 3));
      ConcurrentLinkedQueue<Long> ids = new ConcurrentLinkedQueue<>();
      List<Thread> threads = new ArrayList<>();
      for (Sequence s : sequences) {
        threads.add(
            new Thread(
                () -> {
                  for (int i = 0; i < 300; i++) {
                    ids.add(s.next());
                  }
                }));
      }
      threads.forEach(Thread::start);
      for (Thread t : threads) {
        t.join();
      }
      assertThat(ids).hasSize(600).allMatch(id -> id > 0 && id <= JSON_SAFE);
      assertThat(new HashSet<>(ids)).hasSize(600);
    } finally {
      closeAll(opened);
    }
  }

  @Test
  void aCloudOfStorageAndQueuesOnlyHandsOutIds(@Seed long seed) {
    try (Fixture f = new Fixture(seed)) {
      CloudServices storageAndQueues =
          CloudServices.builder()
              .storage(f.services().storage())
              .simpleQueues(f.services().simpleQueues())
              .build();
      DatabaseConfig.Builder config =
          DatabaseConfig.builder(storageAndQueues, Fixture.DB)
              .protocol(ProtocolKind.NAIVE)
              .clock(f.clock);
      Database db = f.open(config);
      long first = db.sequence("order-ids").next();
      assertThat(first).isPositive();
      db.close();
      assertThat(f.open(config).sequence("order-ids").next()).isGreaterThan(first);
    }
  }

  @Test
  void storageWithoutConditionalPutsIsRefusedWithWhatToDo(@Seed long seed) {
    try (Fixture f = new Fixture(seed, false)) {
      Database db = f.open();
      assertThatThrownBy(() -> db.sequence("order-ids"))
          .isInstanceOf(InvalidRequestException.class)
          .hasMessageContaining("cannot promise unique ids")
          .hasMessageContaining("conditional puts");
    }
  }

  @Test
  void lostRepliesAndFailedCallsLeaveGapsNeverDuplicates(@Seed long seed) {
    try (Fixture f = new Fixture(seed)) {
      String prefix = new StorageLayout(Fixture.DB).sequencesPrefix();
      FaultInterceptor faults =
          new FaultInterceptor(
              FaultPlan.builder()
                  .loseReply(
                      FaultPlan.Selector.operations(
                              Operation.STORAGE_PUT_IF_ABSENT, Operation.STORAGE_PUT_IF_VERSION)
                          .withTargetPrefix(prefix),
                      0.3)
                  .fail(
                      FaultPlan.Selector.operations(Operation.STORAGE_GET).withTargetPrefix(prefix),
                      0.1)
                  .build(),
              seed,
              f.clock);
      List<Sequence> handles =
          List.of(
              f.open(f.config(faults)).sequence("order-ids", 5), f.open().sequence("order-ids", 5));
      Set<Long> ids = new HashSet<>();
      int refused = 0;
      for (int i = 0; i < 1_000; i++) {
        Sequence s = handles.get(i % 2);
        try {
          long id = s.next();
          assertThat(ids.add(id)).as("id %d handed out twice", id).isTrue();
        } catch (CloudServiceException e) {
          assertThat(e.isRetryable()).as("%s", e).isTrue();
          assertThat(e.isOutcomeUnknown()).isFalse();
          refused++;
        }
      }
      assertThat(ids).hasSizeGreaterThan(900).allMatch(id -> id > 0 && id <= JSON_SAFE);
      assertThat(refused).as("failed reads reach the caller as retryable").isPositive();
      assertThat(faults.injectedFaults())
          .anyMatch(x -> x.kind() == FaultKind.LOSE_REPLY)
          .anyMatch(x -> x.kind() == FaultKind.FAIL_RETRYABLE);
    }
  }

  @Test
  void handlesThatKeepLosingTheRaceGetARetryableFailure(@Seed long seed) {
    try (Fixture f = new Fixture(seed)) {
      LosingRaces races = new LosingRaces();
      Sequence s = f.open(f.config(races)).sequence("order-ids");
      races.losing = true;
      assertThatThrownBy(s::next)
          .isInstanceOfSatisfying(
              CloudServiceException.class,
              e -> {
                assertThat(e.isRetryable()).isTrue();
                assertThat(e.isOutcomeUnknown()).isFalse();
                assertThat(e).hasMessageContaining("lost the race");
              });
      assertThat(races.refused).isEqualTo(SequenceBlocks.MAX_ATTEMPTS);
      races.losing = false;
      assertThat(s.next()).isEqualTo(SequenceBlocks.FIRST_ID);
    }
  }

  /** Fails every conditional put as if another handle had just won the race. */
  private static final class LosingRaces implements CallInterceptor {
    volatile boolean losing;
    int refused; // test thread only

    @Override
    public <T> CompletableFuture<T> intercept(
        Call<T> call, Supplier<CompletableFuture<T>> proceed) {
      if (losing
          && (call.operation() == Operation.STORAGE_PUT_IF_ABSENT
              || call.operation() == Operation.STORAGE_PUT_IF_VERSION)) {
        refused++;
        return CompletableFuture.failedFuture(
            new PreconditionFailedException("another handle won"));
      }
      return proceed.get();
    }
  }

  @Test
  void idsStopAtTheJsonLimitInsteadOfOverflowing(@Seed long seed) {
    try (Fixture f = new Fixture(seed)) {
      assertThat(Sequence.MAX_ID).isEqualTo(JSON_SAFE);
      String uri = new StorageLayout(Fixture.DB).sequence("order-ids");
      CloudFutures.await(
          f.services().storage().put(uri, SequenceBlocks.encode(Sequence.MAX_ID - 5), Map.of()));
      Database db = f.open();
      assertThatThrownBy(() -> f.open().sequence("order-ids", 7).next())
          .isInstanceOf(InvalidRequestException.class)
          .hasMessageContaining("use a new sequence name");
      Sequence s = db.sequence("order-ids", 6);
      for (long expected = Sequence.MAX_ID - 5; expected <= Sequence.MAX_ID; expected++) {
        assertThat(s.next()).isEqualTo(expected);
      }
      assertThatThrownBy(s::next).isInstanceOf(InvalidRequestException.class);
    }
  }

  @Test
  void aDamagedSequenceObjectIsReportedAsCorrupt(@Seed long seed) {
    try (Fixture f = new Fixture(seed)) {
      String uri = new StorageLayout(Fixture.DB).sequence("order-ids");
      byte[] damaged = SequenceBlocks.encode(1_000);
      damaged[7] ^= 1;
      CloudFutures.await(f.services().storage().put(uri, damaged, Map.of()));
      assertThatThrownBy(() -> f.open().sequence("order-ids").next())
          .isInstanceOfSatisfying(
              CorruptPageException.class,
              e -> {
                assertThat(e.uri()).isEqualTo(uri);
                assertThat(e).hasMessageContaining("checksum").hasMessageContaining("backup");
              });
    }
  }

  @Test
  void anEncryptedSequenceSurvivesAKeyRotation(@Seed long seed) {
    try (Fixture f = new Fixture(seed)) {
      Keyring k1 =
          Keyring.builder().key("k1", EncryptionTest.material(seed)).defaultKey("k1").build();
      Keyring rotated =
          k1.toBuilder().key("k2", EncryptionTest.material(seed + 1)).defaultKey("k2").build();
      Keyring k2 =
          Keyring.builder().key("k2", EncryptionTest.material(seed + 1)).defaultKey("k2").build();
      long before = f.open(f.config().encryption(k1)).sequence("order-ids").next();
      ResealReport run =
          f.open(f.config().encryption(rotated)).admin().reseal(ResealOptions.defaults());
      assertThat(run.isComplete()).isTrue();
      assertThat(run.rewritten()).isEqualTo(1);
      assertThat(f.open(f.config().encryption(k2)).sequence("order-ids").next())
          .isGreaterThan(before);
    }
  }

  @Test
  void badNamesAndBlockSizesAreRefused(@Seed long seed) {
    try (Fixture f = new Fixture(seed)) {
      Database db = f.open();
      assertThatThrownBy(() -> db.sequence("../x")).isInstanceOf(InvalidRequestException.class);
      assertThatThrownBy(() -> db.sequence("x", 0)).isInstanceOf(InvalidRequestException.class);
      db.sequence("x", 10);
      assertThat(db.sequence("x", 10)).isSameAs(db.sequence("x", 10));
      assertThatThrownBy(() -> db.sequence("x", 11))
          .isInstanceOf(InvalidRequestException.class)
          .hasMessageContaining("block size");
    }
  }
}
