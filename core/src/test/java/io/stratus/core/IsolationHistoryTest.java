package io.stratus.core;

import static org.assertj.core.api.Assertions.assertThat;

import io.stratus.StratusException;
import io.stratus.cloudapi.CloudLimits;
import io.stratus.cloudapi.Operation;
import io.stratus.cloudapi.decorate.CallInterceptor;
import io.stratus.cloudapi.decorate.FaultInterceptor;
import io.stratus.cloudapi.decorate.FaultKind;
import io.stratus.cloudapi.decorate.FaultPlan;
import io.stratus.cloudapi.decorate.InjectedFault;
import io.stratus.cloudapi.inprocess.QueueBehavior;
import io.stratus.cloudapi.inprocess.StorageConsistency;
import io.stratus.cloudapi.testing.Seed;
import io.stratus.cloudapi.testing.SeedExtension;
import io.stratus.protocols.Guarantee;
import io.stratus.protocols.ProtocolKind;
import io.stratus.protocols.Settings;
import io.stratus.protocols.StorageLayout;
import io.stratus.testkit.ListAppendHistory;
import io.stratus.testkit.ListAppendHistory.Status;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.SplittableRandom;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.LockSupport;
import java.util.function.Predicate;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Recorded list-append histories of six threads on two handles, checked for the isolation
 * anomalies of Adya's classification ({@link ListAppendHistory}): snapshot isolation shows none but
 * write skew (G2), the serializable mode none at all, and a protocol without isolation shows some
 * (the checker sees what it checks); on a weak cloud with seeded faults too.
 */
@ExtendWith(SeedExtension.class)
class IsolationHistoryTest {
  private static final int KEYS = 6;
  private static final int THREADS = 6;
  private static final int PHASES = 5;
  private static final int PER_PHASE = 5;

  /** Attempts of one advanced-queue send before its sender gives up: the first and 3 resends. */
  private static final int SEND_ATTEMPTS = 4;

  /** Between the begins of a thread that has run its transactions of a phase. */
  private static final Duration IDLE_BEGINS = Duration.ofMillis(1);

  private static final Duration STALE_WINDOW = Duration.ofMinutes(2);

  /**
   * Advanced-queue messages this small make a commit of two long lists take two steps (log
   * messages, then the commit record); one record still fits.
   */
  private static final int ADVANCED_MESSAGE_BYTES = 1024;

  private static final String ARCHIVE = new StorageLayout(Fixture.DB).archivePrefix();
  private static final String COMMIT_RECORDS =
      new StorageLayout(Fixture.DB).advancedAtomicCommits();

  @ParameterizedTest
  @EnumSource(
      names = {"SNAPSHOT_ISOLATION", "SERIALIZABLE_SNAPSHOT", "TWO_PHASE_LOCKING", "MONOTONIC"})
  void listAppendHistoriesShowOnlyWhatTheProtocolAllows(ProtocolKind kind, @Seed long seed)
      throws Exception {
    try (Fixture f = new Fixture(seed)) {
      run(kind, seed, f);
    }
  }

  /**
   * The same on a weak cloud with seeded faults: storage eventually consistent for two minutes
   * (far beyond the TTL), lost replies of lock requests, lock releases, commit-id increments
   * and validations (the effect applied, the caller told "unknown"), refused page reads, archive
   * receives and counter reads; and of advanced-queue sends — commit records, log messages and
   * archive records — some refused (not made) and some with lost replies. A refused commit record
   * aborts its commit cleanly; a lost reply is sent again, and the duplicate changes nothing. A
   * burst of refusals or lost replies that outlasts an archive send's attempts leaves the commit
   * to its handle, which archives it at a later begin; one that outlasts a commit record's
   * resends ends the commit with an unknown outcome, its locks left to lapse and its commit to
   * recovery. The isolating protocols still show nothing beyond what they allow, and a lost
   * increment reply leaves no hole: the commit asks again under its request id.
   *
   * <p>The workload runs in phases, the clock still while transactions run. A commit of unknown
   * outcome holds every newer snapshot back until recovery, so its phase ends early: the other
   * threads finish the attempt they are in and stop. Between phases the faults are off and each
   * handle begins a transaction (archiving what it still has to); after a phase with an unknown
   * outcome the clock first moves past the lock lease, so that the begins recover the commit and
   * its locks have lapsed.
   */
  @ParameterizedTest
  @EnumSource(names = {"SNAPSHOT_ISOLATION", "SERIALIZABLE_SNAPSHOT", "TWO_PHASE_LOCKING"})
  void faultsBreakNoIsolationGuarantee(ProtocolKind kind, @Seed long seed) throws Exception {
    try (Fixture f =
        new Fixture(
            seed,
            true,
            QueueBehavior.weak(),
            b ->
                b.storageConsistency(StorageConsistency.eventual(STALE_WINDOW))
                    .limits(
                        CloudLimits.aws().toBuilder()
                            .maxAdvancedMessageSize(ADVANCED_MESSAGE_BYTES)
                            .build()))) {
      SplittableRandom bursts = new SplittableRandom(seed ^ 0x5eedL);
      FaultPlan.Builder plan =
          FaultPlan.builder()
              .loseReply(
                  FaultPlan.Selector.operations(
                      Operation.LOCK_ACQUIRE_EXCLUSIVE,
                      Operation.LOCK_ACQUIRE_SHARED,
                      Operation.LOCK_ACQUIRE_INTENTION,
                      Operation.LOCK_RELEASE,
                      Operation.COUNTER_INCREMENT,
                      Operation.COUNTER_VALIDATE),
                  0.03)
              .unavailable(
                  FaultPlan.Selector.operations(
                      Operation.STORAGE_GET,
                      Operation.STORAGE_GET_IF_CHANGED,
                      Operation.ADVANCED_QUEUE_RECEIVE,
                      Operation.COUNTER_HIGHEST_VALIDATED),
                  0.02)
              // After the rules above, so that they draw as they did before these were added.
              .unavailable(FaultPlan.Selector.operations(Operation.ADVANCED_QUEUE_SEND), 0.02)
              .loseReply(FaultPlan.Selector.operations(Operation.ADVANCED_QUEUE_SEND), 0.03);
      // Bursts as long as a send's attempts: two archive sends that keep failing, and commit
      // records whose every resend loses its reply (when no other thread's send comes between).
      burst(plan, ARCHIVE, bursts.nextLong(5, 60), FaultPlan.Fault.unavailable());
      burst(plan, ARCHIVE, bursts.nextLong(60, 120), FaultPlan.Fault.loseReply());
      burst(plan, COMMIT_RECORDS, bursts.nextLong(5, 60), FaultPlan.Fault.loseReply());
      burst(plan, COMMIT_RECORDS, bursts.nextLong(60, 120), FaultPlan.Fault.loseReply());
      run(kind, seed, f, new SwitchedFaults(new FaultInterceptor(plan.build(), seed, f.clock)));
    }
  }

  /** The {@code from}-th send to {@code queue} and the three after it suffer {@code fault}. */
  private static void burst(
      FaultPlan.Builder plan, String queue, long from, FaultPlan.Fault fault) {
    for (long n = from; n < from + SEND_ATTEMPTS; n++) {
      plan.onNthCall(Operation.ADVANCED_QUEUE_SEND, queue, n, fault);
    }
  }

  private static void run(ProtocolKind kind, long seed, Fixture f) throws Exception {
    run(kind, seed, f, null);
  }

  private static void run(ProtocolKind kind, long seed, Fixture f, SwitchedFaults faults)
      throws Exception {
    ListAppendHistory history = new ListAppendHistory();
    CallInterceptor[] through =
        faults == null ? new CallInterceptor[0] : new CallInterceptor[] {faults};
    {
      ManualExecutor ex = new ManualExecutor();
      List<Database> handles =
          List.of(
              f.open(f.config(through).protocol(kind).clientId("a").checkpointExecutor(ex)),
              f.open(f.config(through).protocol(kind).clientId("b").checkpointExecutor(ex)));
      ListAppendWorkload workload = new ListAppendWorkload("items", KEYS);
      workload.load(handles.get(0));
      List<SplittableRandom> randoms = new ArrayList<>();
      for (int t = 0; t < THREADS; t++) {
        randoms.add(new SplittableRandom(seed + 101L * t));
      }
      int unknown = 0;
      int clockMoves = 0;
      ExecutorService pool = Executors.newFixedThreadPool(THREADS);
      try {
        for (int phase = 0; phase < PHASES; phase++) {
          AtomicBoolean ended = new AtomicBoolean();
          RetryPolicy retries =
              RetryPolicy.builder()
                  .maxAttempts(200)
                  .initialBackoff(Duration.ofMillis(1))
                  .maxBackoff(Duration.ofMillis(5))
                  .sleeper(d -> stopOnceEnded(ended, d))
                  .seed(seed + phase)
                  .build();
          if (faults != null) {
            faults.switchTo(true);
          }
          List<Future<Integer>> work = new ArrayList<>();
          AtomicInteger running = new AtomicInteger(THREADS);
          for (int t = 0; t < THREADS; t++) {
            Database db = handles.get(t % 2);
            List<String> ids = new ArrayList<>();
            for (int i = phase * PER_PHASE; i < (phase + 1) * PER_PHASE; i++) {
              ids.add("t" + t + "." + i);
            }
            SplittableRandom r = randoms.get(t);
            work.add(
                pool.submit(
                    () -> threadPhase(db, workload, retries, history, r, ids, ended, running)));
          }
          int unknownInPhase = 0;
          for (Future<Integer> w : work) {
            unknownInPhase += w.get(2, TimeUnit.MINUTES);
          }
          if (faults != null) {
            faults.switchTo(false);
            if (unknownInPhase > 0) {
              f.clock.advance(Settings.ISOLATION_LEASE_TIMEOUT.defaultValue().plusSeconds(1));
              clockMoves++;
            }
            settle(handles, ex);
          }
          unknown += unknownInPhase;
        }
      } finally {
        pool.shutdownNow();
      }
      // On the weak cloud past storage's stale window each time, so that each checkpoint finds
      // the pages the ones before it wrote (a new page may look absent within the window).
      Duration step = faults == null ? Duration.ofSeconds(31) : STALE_WINDOW.plusSeconds(1);
      f.clock.advance(step);
      ex.runAll();
      if (faults != null) {
        f.clock.advance(step);
      }
      handles.get(0).admin().checkpointAll();
      f.clock.advance(step);
      handles.get(1).admin().checkpointAll();
      f.clock.advance(Fixture.TTL.plusSeconds(1));
      if (faults != null) {
        f.clock.advance(step);
      }
      Database fresh =
          f.open(f.config().protocol(kind).clientId("verifier").checkpointExecutor(ex));
      ListAppendHistory.Result result = history.check(workload.lists(fresh));
      System.out.println(
          "[isolation] "
              + kind
              + " seed "
              + seed
              + ": "
              + history.transactions().size()
              + " transactions ("
              + unknown
              + " of unknown outcome, "
              + clockMoves
              + " clock moves), "
              + (faults == null ? "no faults" : faultCounts(faults))
              + ", anomalies "
              + result.kinds());
      if (kind.guarantees(Guarantee.SERIALIZABLE)) {
        assertThat(result.anomalies()).as("seed " + seed).isEmpty();
      } else if (kind.guarantees(Guarantee.SNAPSHOT_ISOLATION)) {
        assertThat(result.beyond(Set.of("G2"))).as("seed " + seed).isEmpty();
      } else {
        assertThat(result.kinds())
            .as("seed " + seed + ": no isolation, and the checker sees it")
            .isNotEmpty();
      }
    }
  }

  /**
   * One thread's part of a phase: its transactions, until the phase ends early; then, while
   * other threads still run theirs, a begin on its handle now and then, as a live application's
   * next transaction would. A handle archives what it still has to at its begins (its background
   * attempt waits in the manual executor), and a commit it has not archived holds back the newer
   * snapshots of the other handle too.
   *
   * @return how many of its transactions ended with an unknown outcome
   */
  private static int threadPhase(
      Database db,
      ListAppendWorkload workload,
      RetryPolicy retries,
      ListAppendHistory history,
      SplittableRandom r,
      List<String> ids,
      AtomicBoolean ended,
      AtomicInteger running) {
    int unknown = 0;
    try {
      for (String id : ids) {
        if (ended.get()) {
          break;
        }
        if (workload.transact(db, retries, history, r, id) == Status.UNKNOWN) {
          unknown++;
          ended.set(true);
        }
        Thread.interrupted(); // clears the interrupt of the sleeper's stop
      }
    } finally {
      running.decrementAndGet();
    }
    while (running.get() > 0 && !ended.get()) {
      try {
        db.read(RetryPolicy.builder().maxAttempts(1).build(), tx -> null);
      } catch (StratusException e) {
        // a refused read: the next begin tries again
      }
      LockSupport.parkNanos(IDLE_BEGINS.toNanos()); // paces the begins; nothing waits for them
    }
    return unknown;
  }

  /**
   * A retry's back-off (it paces retries; no check depends on it), or the end of the caller's
   * retries once its phase has ended.
   */
  private static void stopOnceEnded(AtomicBoolean ended, Duration d) throws InterruptedException {
    if (ended.get()) {
      throw new InterruptedException("the phase has ended");
    }
    LockSupport.parkNanos(d.toNanos());
  }

  /**
   * Runs the background tasks and begins a transaction on each handle: what a handle still has
   * to archive is archived, and a recovery that is due is done.
   */
  private static void settle(List<Database> handles, ManualExecutor ex) {
    ex.runAll();
    for (Database db : handles) {
      db.read(tx -> null);
    }
    ex.runAll();
  }

  private static String faultCounts(SwitchedFaults faults) {
    return faults.injected()
        + " faults injected ("
        + faults.injected(Operation.COUNTER_INCREMENT)
        + " on commit-id increments, "
        + faults.injected(Operation.ADVANCED_QUEUE_SEND)
        + " on advanced-queue sends: "
        + faults.injected(sendTo(COMMIT_RECORDS, FaultKind.LOSE_REPLY))
        + " lost commit-record replies, "
        + faults.injected(sendTo(ARCHIVE, FaultKind.LOSE_REPLY))
        + " lost archive replies, "
        + faults.injected(sendTo("", FaultKind.FAIL_UNAVAILABLE))
        + " refused)";
  }

  private static Predicate<InjectedFault> sendTo(String queue, FaultKind kind) {
    return i ->
        i.operation() == Operation.ADVANCED_QUEUE_SEND
            && i.target().startsWith(queue)
            && i.kind() == kind;
  }
}
