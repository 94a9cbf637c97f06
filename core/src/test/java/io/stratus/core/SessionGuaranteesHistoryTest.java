package io.stratus.core;

import static org.assertj.core.api.Assertions.assertThat;

import io.stratus.CommitStateUnknownException;
import io.stratus.StratusException;
import io.stratus.cloudapi.CloudException;
import io.stratus.cloudapi.Operation;
import io.stratus.cloudapi.decorate.Call;
import io.stratus.cloudapi.decorate.CallInterceptor;
import io.stratus.cloudapi.decorate.FaultInterceptor;
import io.stratus.cloudapi.decorate.FaultPlan;
import io.stratus.cloudapi.inprocess.QueueBehavior;
import io.stratus.cloudapi.inprocess.StorageConsistency;
import io.stratus.cloudapi.testing.Seed;
import io.stratus.cloudapi.testing.SeedExtension;
import io.stratus.protocols.ProtocolKind;
import io.stratus.testkit.CheckResult;
import io.stratus.testkit.Checkers;
import io.stratus.testkit.Guarantees;
import io.stratus.testkit.HistoryRecorder;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.CompletableFuture;
import java.util.function.Supplier;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The monotonic and atomic protocols under every weak guarantee at once — eventually consistent
 * storage (a read may return a superseded page for two minutes, far longer than the TTL), queues
 * that reorder, duplicate and return short, and injected faults (failed sends, lost replies,
 * unavailable reads and receives) — checked by the history checker against everything the
 * protocol promises (testkit's {@link Guarantees#forProtocol}): the session guarantees (monotonic
 * reads, read-your-writes, monotonic writes, writes-follow-reads), durability, convergence, and
 * for atomic all-or-nothing. The same run with the monotonic-reads guard off is caught by {@link
 * Checkers#monotonicReads()}: the in-process cloud does produce the anomaly.
 *
 * <p>Each round every client reads all keys and updates two keys of its own share (different
 * pages, for atomicity to mean something) in one transaction; then the propagations run, some
 * client checkpoints, and the clock passes the TTL so the pools refresh from stale storage.
 */
@ExtendWith(SeedExtension.class)
class SessionGuaranteesHistoryTest {
  private static final int CLIENTS = 3;
  private static final int ROUNDS = 12;
  private static final int KEYS = 120;
  /** Room for every writer's counters in the leaves' headers: no data-page split in the run. */
  private static final int PAGE_SIZE = 4096;
  private static final Duration STALE_WINDOW = Duration.ofMinutes(2);

  @Test
  void monotonicKeepsItsSessionGuaranteesUnderStaleStorageWeakQueuesAndFaults(@Seed long seed) {
    run(seed, ProtocolKind.MONOTONIC, null).assertValid();
  }

  @Test
  void atomicKeepsMonotonicityAndAtomicityUnderStaleStorageWeakQueuesAndFaults(@Seed long seed) {
    run(seed, ProtocolKind.ATOMIC, null).assertValid();
  }

  /**
   * Without the guard, stale storage makes clients read older values after newer ones. The
   * anomaly needs a stale answer at the right moment, so a few seeds are tried; one suffices.
   */
  @Test
  void withoutTheGuardTheCheckerCatchesNonMonotonicReads(@Seed long seed) {
    boolean caught = false;
    for (int i = 0; i < 4 && !caught; i++) {
      CheckResult r = run(seed + i, ProtocolKind.MONOTONIC, false);
      caught = r.failedCheckers().contains("monotonicReads");
    }
    assertThat(caught).as("non-monotonic reads without the guard").isTrue();
  }

  private static CheckResult run(long seed, ProtocolKind protocol, Boolean guard) {
    Run run = new Run(seed, protocol, guard);
    run.execute();
    return run.recorder.snapshot().check(Guarantees.forProtocol(protocol.name().toLowerCase()));
  }

  /** Faults that the test turns off for loading and quiescence. */
  private static final class Switchable implements CallInterceptor {
    final FaultInterceptor faults;
    volatile boolean on;

    Switchable(FaultInterceptor faults) {
      this.faults = faults;
    }

    @Override
    public <T> CompletableFuture<T> intercept(Call<T> call,
        Supplier<CompletableFuture<T>> proceed) {
      return on ? faults.intercept(call, proceed) : proceed.get();
    }
  }

  private static final class Run {
    final Random random;
    final ProtocolKind protocol;
    final Boolean guard;
    final long seed;
    final HistoryRecorder recorder = new HistoryRecorder();
    final List<Database> clients = new ArrayList<>();
    final List<ManualExecutor> executors = new ArrayList<>();
    Switchable faults;

    Run(long seed, ProtocolKind protocol, Boolean guard) {
      this.seed = seed;
      this.random = new Random(seed);
      this.protocol = protocol;
      this.guard = guard;
    }

    void execute() {
      try (Fixture f = new Fixture(seed, true, QueueBehavior.weak(),
          b -> b.storageConsistency(StorageConsistency.eventual(STALE_WINDOW)))) {
        FaultPlan plan = FaultPlan.builder()
            .fail(FaultPlan.Selector.operations(Operation.QUEUE_SEND_BATCH), 0.04)
            .loseReply(FaultPlan.Selector.operations(Operation.QUEUE_SEND_BATCH), 0.04)
            .unavailable(FaultPlan.Selector.operations(Operation.STORAGE_GET,
                Operation.STORAGE_GET_IF_CHANGED, Operation.QUEUE_RECEIVE), 0.02)
            .build();
        faults = new Switchable(new FaultInterceptor(plan, seed, f.clock));
        for (int c = 0; c < CLIENTS; c++) {
          ManualExecutor executor = new ManualExecutor();
          executors.add(executor);
          DatabaseConfig.Builder config = f.config(faults).protocol(protocol)
              .clientId("client-" + c).checkpointExecutor(executor).pageSize(PAGE_SIZE);
          if (guard != null) {
            config.monotonicReads(guard);
          }
          clients.add(f.open(config));
        }
        load(f);
        faults.on = true;
        for (int round = 0; round < ROUNDS; round++) {
          for (int c = 0; c < CLIENTS; c++) {
            transaction(c, round);
            f.clock.advance(Duration.ofMillis(1)); // commit-time order = completion order
          }
          for (ManualExecutor e : executors) {
            runQuietly(e::runAll); // propagations (atomic), background checkpoints
          }
          if (random.nextBoolean()) {
            runQuietly(() -> clients.get(random.nextInt(CLIENTS)).checkpointAll());
          }
          f.clock.advance(Fixture.TTL.plusSeconds(1)); // pools refresh, storage still stale
        }
        faults.on = false;
        quiesce(f);
        for (int c = 0; c < CLIENTS; c++) {
          recorder.finalState("client-" + c, Fixture.itemsByKey(clients.get(c)));
        }
      }
    }

    private static void runQuietly(Runnable r) {
      try {
        r.run();
      } catch (StratusException | CloudException e) {
        // an injected fault; a later pass does it
      }
    }

    /**
     * Loads by one committed transaction and a checkpoint, not a bulk load: the tree checkpoint's
     * splits leave the leaves half full, so with {@link #PAGE_SIZE} the writers' counters fit
     * into the headers and data pages do not split during the run. (A data-page split forwards
     * queued updates outside their chains, where an older one can overtake a newer one: a known
     * limit, see docs/protocols.md, which this test is not about.)
     */
    private void load(Fixture f) {
      Database db = clients.get(0);
      db.createCollection("items");
      HistoryRecorder.Recording loading = recorder.begin("loader");
      try (Transaction tx = db.begin()) {
        for (int k = 0; k < KEYS; k++) {
          tx.create("items", Key.of((long) k), Fixture.bytes("v0-" + k));
          loading.write(Long.toString(k), "v0-" + k);
        }
        tx.commit();
      }
      loading.ok();
      for (ManualExecutor e : executors) {
        e.runAll();
      }
      for (int i = 0; i < 2; i++) { // the first may find the new root not visible yet
        f.clock.advance(STALE_WINDOW.plusSeconds(1)); // then the loaded pages settle
        db.checkpointAll();
      }
      f.clock.advance(STALE_WINDOW.plusSeconds(1));
    }

    private void transaction(int c, int round) {
      HistoryRecorder.Recording rec = recorder.begin("client-" + c);
      try (Transaction tx = clients.get(c).begin()) {
        for (long k = 0; k < KEYS; k++) {
          rec.read(Long.toString(k), tx.read("items", Key.of(k)).map(Fixture::string)
              .orElse(null));
        }
        int share = KEYS / CLIENTS;
        // Two keys of this client's share, far apart (usually on different pages).
        long k1 = (long) random.nextInt(share / 2) * CLIENTS + c;
        long k2 = (long) (share / 2 + random.nextInt(share / 2)) * CLIENTS + c;
        for (long k : new long[] {k1, k2}) {
          String value = "client-" + c + "/r" + round + "/" + k;
          if (tx.update("items", Key.of(k), Fixture.bytes(value))) {
            rec.write(Long.toString(k), value);
          }
        }
        tx.commit();
        rec.ok();
      } catch (CommitStateUnknownException e) {
        rec.unknown();
      } catch (StratusException | CloudException e) {
        rec.failed(); // a read or the commit failed: nothing of it took effect
      }
    }

    private void quiesce(Fixture f) {
      f.clock.advance(STALE_WINDOW.plusSeconds(1)); // storage consistent again
      for (int i = 0; i < 3; i++) {
        for (ManualExecutor e : executors) {
          e.runAll();
        }
        f.clock.advance(Duration.ofSeconds(61)); // leases, hidden messages, atomic timeout
        clients.get(i % CLIENTS).checkpointAll();
      }
      f.clock.advance(STALE_WINDOW.plusSeconds(1)); // the last checkpoints' pages settle too
    }
  }
}
