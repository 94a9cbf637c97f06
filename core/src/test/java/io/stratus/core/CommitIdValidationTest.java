package io.stratus.core;

import static io.stratus.core.SnapshotIsolationTest.read;
import static io.stratus.core.SnapshotIsolationTest.records;
import static io.stratus.core.SnapshotIsolationTest.snapshot;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.stratus.CloudServiceException;
import io.stratus.CommitFailedException;
import io.stratus.TransactionTimeoutException;
import io.stratus.cloudapi.CounterService;
import io.stratus.cloudapi.Operation;
import io.stratus.cloudapi.ServiceUnavailableException;
import io.stratus.cloudapi.decorate.Call;
import io.stratus.cloudapi.decorate.CallInterceptor;
import io.stratus.cloudapi.decorate.FaultInterceptor;
import io.stratus.cloudapi.decorate.FaultPlan;
import io.stratus.cloudapi.decorate.FaultPlan.Selector;
import io.stratus.cloudapi.testing.Seed;
import io.stratus.cloudapi.testing.SeedExtension;
import io.stratus.protocols.ProtocolKind;
import io.stratus.protocols.Settings;
import io.stratus.protocols.StorageLayout;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Supplier;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Commit ids under refused counter calls, for the three isolating protocols, on a manual clock
 * that never reaches the isolation lease (so nothing is validated by the lease's end): a refused
 * validation is asked again until it succeeds, so the id does not hold back the handle's later
 * begins (which must see its own commits), other handles' snapshots or the serializable mode's
 * commits (which wait for every smaller id); and a poll of the counter refused while a begin or a
 * commit waits for it is polled again rather than ending the wait. Each handle retries nothing on
 * its own (one attempt), so a failure shows as it happens.
 */
@ExtendWith(SeedExtension.class)
class CommitIdValidationTest {
  private static final String COUNTER = Fixture.DB + "/si/commits";
  private static final String COMMIT_RECORDS =
      new StorageLayout(Fixture.DB).advancedAtomicCommits();

  /** A handle of {@code kind} whose calls go through {@code faults}, with no retries. */
  private static Database handle(
      Fixture f, ProtocolKind kind, String client, ManualExecutor ex, CallInterceptor faults) {
    return f.open(
        f.config(faults)
            .protocol(kind)
            .clientId(client)
            .checkpointExecutor(ex)
            .retryPolicy(RetryPolicy.builder().maxAttempts(1).build()));
  }

  @ParameterizedTest
  @EnumSource(names = {"SNAPSHOT_ISOLATION", "SERIALIZABLE_SNAPSHOT", "TWO_PHASE_LOCKING"})
  void aRefusedValidationOfACommitIsAskedAgainAndHoldsNothingBack(
      ProtocolKind kind, @Seed long seed) {
    try (Fixture f = new Fixture(seed)) {
      ManualExecutor ex = new ManualExecutor();
      SwitchedFaults faults =
          new SwitchedFaults(
              new FaultInterceptor(
                  FaultPlan.builder()
                      .onNthCall(Operation.COUNTER_VALIDATE, COUNTER, 1, FaultPlan.Fault.fail())
                      .build(),
                  seed,
                  f.clock));
      Database a = handle(f, kind, "a", ex, faults);
      Database b = f.open(snapshot(f, kind, "b", ex));
      records(b, 4, "v0");
      faults.switchTo(true);

      update(a, 1, "a1"); // its validation is refused once
      assertThat(faults.injected(Operation.COUNTER_VALIDATE)).isEqualTo(1);
      update(b, 2, "b2"); // serializable: waits for every smaller id, a1's too
      update(a, 3, "a3");

      everyHandleSeesEveryCommit(List.of(a, b, f.open(snapshot(f, kind, "c", ex))));
    }
  }

  @ParameterizedTest
  @EnumSource(names = {"SNAPSHOT_ISOLATION", "SERIALIZABLE_SNAPSHOT", "TWO_PHASE_LOCKING"})
  void aValidationRefusedOnEveryAttemptIsOwedAndAskedAgainAtTheNextBegin(
      ProtocolKind kind, @Seed long seed) {
    try (Fixture f = new Fixture(seed)) {
      ManualExecutor ex = new ManualExecutor();
      SwitchedFaults faults = refusing(seed, f, Selector.operations(Operation.COUNTER_VALIDATE));
      Database a = handle(f, kind, "a", ex, faults);
      Database b = f.open(snapshot(f, kind, "b", ex));
      records(b, 4, "v0");

      faults.switchTo(true);
      update(a, 1, "a1"); // committed; every request to validate its id is refused
      faults.switchTo(false);
      assertThat(faults.injected(Operation.COUNTER_VALIDATE)).isPositive();

      // The background retry is still queued: a's begin asks again before it waits.
      update(a, 3, "a3");
      update(b, 2, "b2");
      everyHandleSeesEveryCommit(List.of(a, b, f.open(snapshot(f, kind, "c", ex))));
    }
  }

  @ParameterizedTest
  @EnumSource(names = {"SNAPSHOT_ISOLATION", "SERIALIZABLE_SNAPSHOT", "TWO_PHASE_LOCKING"})
  void aRefusedValidationOfACommitThatFailedHoldsNothingBack(ProtocolKind kind, @Seed long seed) {
    try (Fixture f = new Fixture(seed)) {
      ManualExecutor ex = new ManualExecutor();
      SwitchedFaults faults =
          refusing(
              seed,
              f,
              Selector.operations(Operation.COUNTER_VALIDATE),
              Selector.operations(Operation.ADVANCED_QUEUE_SEND).withTargetPrefix(COMMIT_RECORDS));
      Database a = handle(f, kind, "a", ex, faults);
      Database b = f.open(snapshot(f, kind, "b", ex));
      records(b, 4, "v0");

      faults.switchTo(true);
      // Its commit record is refused, so nothing of it will ever be applied; validating the id
      // it took is refused too.
      assertThatThrownBy(() -> update(a, 1, "lost"))
          .isInstanceOfSatisfying(
              CommitFailedException.class, e -> assertThat(e.isRetryable()).isTrue());
      faults.switchTo(false);
      assertThat(faults.injected(Operation.COUNTER_VALIDATE)).isPositive();

      update(a, 1, "a1"); // the retry, under a new commit id
      update(b, 2, "b2");
      update(a, 3, "a3");
      everyHandleSeesEveryCommit(List.of(a, b, f.open(snapshot(f, kind, "c", ex))));
    }
  }

  @ParameterizedTest
  @EnumSource(names = {"SNAPSHOT_ISOLATION", "SERIALIZABLE_SNAPSHOT", "TWO_PHASE_LOCKING"})
  void aPollRefusedWhileWaitingForAnEarlierCommitIsPolledAgain(ProtocolKind kind, @Seed long seed) {
    try (Fixture f = new Fixture(seed)) {
      ManualExecutor ex = new ManualExecutor();
      HeldIdThenRefusedPolls held = new HeldIdThenRefusedPolls(f.services().counters(), 1);
      Database b = handle(f, kind, "b", ex, held);
      records(b, 4, "v0");

      // Another client takes a commit id just before b's, and validates it only after b has
      // started waiting for it and one of b's polls was refused: the serializable mode's commit
      // waits for it, and so does b's next begin (its snapshot must include b's own commit).
      try (Transaction tx = b.begin()) {
        tx.update("items", Key.of(1), Fixture.bytes("b1"));
        held.arm();
        tx.commit();
      }
      try (Transaction tx = b.begin(true)) {
        assertThat(read(tx, 1)).isEqualTo("b1");
      }
      assertThat(held.refusedPolls()).as("one poll of the wait was refused").isEqualTo(1);
      assertThat(held.validated()).as("the earlier id was validated during the wait").isTrue();
    }
  }

  /**
   * A counter that refuses every poll once a wait has begun ends the wait at once with its
   * failure (retryable: nothing was sent), rather than after thousands of refused polls.
   */
  @Test
  void aCounterRefusingEveryPollEndsTheWaitWithItsFailure(@Seed long seed) {
    try (Fixture f = new Fixture(seed)) {
      ManualExecutor ex = new ManualExecutor();
      HeldIdThenRefusedPolls held =
          new HeldIdThenRefusedPolls(f.services().counters(), Integer.MAX_VALUE);
      Database b = handle(f, ProtocolKind.SNAPSHOT_ISOLATION, "b", ex, held);
      records(b, 4, "v0");
      held.arm();
      update(b, 1, "b1");
      assertThatThrownBy(() -> b.begin().close())
          .isInstanceOfSatisfying(
              CloudServiceException.class,
              e -> {
                assertThat(e.isRetryable()).isTrue();
                assertThat(e).hasRootCauseInstanceOf(ServiceUnavailableException.class);
              });
      assertThat(held.refusedPolls())
          .as("a few refused polls in a row, not 2,000")
          .isBetween(2, 20);
      assertThat(held.validated()).isFalse();
    }
  }

  /**
   * A validation refused until the isolation lease ends: the handle's next begin fails, after its
   * polls, retryably with a message naming the id as its own, and once the lease has ended (the
   * counter validates the id by itself) begins work again.
   */
  @Test
  void aValidationRefusedUntilTheLeaseEndsIsNamedAsTheHandlesOwn(@Seed long seed) {
    ProtocolKind kind = ProtocolKind.SNAPSHOT_ISOLATION;
    try (Fixture f = new Fixture(seed)) {
      ManualExecutor ex = new ManualExecutor();
      SwitchedFaults faults = refusing(seed, f, Selector.operations(Operation.COUNTER_VALIDATE));
      Database a = handle(f, kind, "a", ex, faults);
      records(a, 4, "v0");
      faults.switchTo(true);
      update(a, 1, "a1");
      assertThatThrownBy(() -> a.begin().close())
          .isInstanceOfSatisfying(
              TransactionTimeoutException.class,
              e -> {
                assertThat(e.isRetryable()).isTrue();
                assertThat(e.getMessage())
                    .contains("was taken by this handle")
                    .contains("validating it has failed")
                    .contains("at most 120.0 s after it was taken")
                    .contains("retry");
              });
      f.clock.advance(Settings.ISOLATION_LEASE_TIMEOUT.defaultValue().plusSeconds(1));
      try (Transaction tx = a.begin()) {
        assertThat(read(tx, 1)).isEqualTo("a1");
      }
    }
  }

  /**
   * A begin that waited its full bound for an id another client holds gave up; the next begins
   * give up after a few milliseconds while the counter stays there (the stall is known), and wait their
   * full bound again once it moves.
   */
  @Test
  void waitsAtAValueAnEarlierWaitGaveUpOnEndAfterAFewPolls(@Seed long seed) {
    try (Fixture f = new Fixture(seed)) {
      ManualExecutor ex = new ManualExecutor();
      Polls polls = new Polls();
      Database b = handle(f, ProtocolKind.SNAPSHOT_ISOLATION, "b", ex, polls);
      records(b, 4, "v0");
      long held = f.services().counters().increment(COUNTER).join(); // another client's commit
      update(b, 1, "b1");

      long before = polls.count();
      assertThatThrownBy(() -> b.begin().close()).isInstanceOf(TransactionTimeoutException.class);
      long firstWait = polls.count() - before;
      before = polls.count();
      assertThatThrownBy(() -> b.begin().close()).isInstanceOf(TransactionTimeoutException.class);
      long secondWait = polls.count() - before;
      // The first wait polls for its 500 ms, 1, 2, 4 and then 8 ms apart (about 60 polls); the
      // next one for 20 ms (at most 6).
      assertThat(firstWait).as("the first wait's polls").isGreaterThan(20);
      assertThat(secondWait).as("the next wait's polls").isLessThan(10);

      f.services().counters().validate(COUNTER, held).join();
      try (Transaction tx = b.begin()) {
        assertThat(read(tx, 1)).isEqualTo("b1");
      }
    }
  }

  /** A fault interceptor, switched off, that refuses every call the selectors select. */
  private static SwitchedFaults refusing(long seed, Fixture f, Selector... selectors) {
    FaultPlan.Builder plan = FaultPlan.builder();
    for (Selector s : selectors) {
      plan.fail(s, 1);
    }
    return new SwitchedFaults(new FaultInterceptor(plan.build(), seed, f.clock));
  }

  /** One transaction that updates one record, committed once. */
  private static void update(Database db, long key, String value) {
    try (Transaction tx = db.begin()) {
      tx.update("items", Key.of(key), Fixture.bytes(value));
      tx.commit();
    }
  }

  /** Read-only and read-write transactions of every handle see a1, b2 and a3. */
  private static void everyHandleSeesEveryCommit(List<Database> handles) {
    for (Database db : handles) {
      for (boolean readOnly : new boolean[] {true, false}) {
        try (Transaction tx = db.begin(readOnly)) {
          assertThat(read(tx, 1)).isEqualTo("a1");
          assertThat(read(tx, 2)).isEqualTo("b2");
          assertThat(read(tx, 3)).isEqualTo("a3");
        }
      }
    }
  }

  /** Counts the polls of the commit counter. */
  private static final class Polls implements CallInterceptor {
    private final AtomicInteger polls = new AtomicInteger();

    long count() {
      return polls.get();
    }

    @Override
    public <T> CompletableFuture<T> intercept(
        Call<T> call, Supplier<CompletableFuture<T>> proceed) {
      if (call.operation() == Operation.COUNTER_HIGHEST_VALIDATED) {
        polls.incrementAndGet();
      }
      return proceed.get();
    }
  }

  /**
   * Once armed: at the next commit-id increment, takes an id first on the raw counter (another
   * client's commit in flight); lets the first poll of the counter after that through, refuses
   * the next {@code refusing} polls, and validates the held id just before the poll after them
   * (the other client's commit ends).
   */
  private static final class HeldIdThenRefusedPolls implements CallInterceptor {
    private final CounterService raw;
    private final int refusing;
    private final AtomicInteger polls = new AtomicInteger();
    private final AtomicInteger refused = new AtomicInteger();
    private volatile boolean armed;
    private volatile long heldId = -1;
    private volatile boolean validated;

    HeldIdThenRefusedPolls(CounterService raw, int refusing) {
      this.raw = raw;
      this.refusing = refusing;
    }

    void arm() {
      armed = true;
    }

    int refusedPolls() {
      return refused.get();
    }

    boolean validated() {
      return validated;
    }

    @Override
    public <T> CompletableFuture<T> intercept(
        Call<T> call, Supplier<CompletableFuture<T>> proceed) {
      if (!armed || !call.target().equals(COUNTER)) {
        return proceed.get();
      }
      if (call.operation() == Operation.COUNTER_INCREMENT && heldId < 0) {
        heldId = raw.increment(COUNTER).join();
      } else if (call.operation() == Operation.COUNTER_HIGHEST_VALIDATED && heldId >= 0) {
        int n = polls.incrementAndGet();
        if (n >= 2 && n - 2 < refusing) {
          refused.incrementAndGet();
          return CompletableFuture.failedFuture(
              new ServiceUnavailableException("refused poll of the commit counter"));
        }
        if (n - 2 == refusing) {
          raw.validate(COUNTER, heldId).join();
          validated = true;
        }
      }
      return proceed.get();
    }
  }
}
