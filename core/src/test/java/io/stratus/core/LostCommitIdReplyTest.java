package io.stratus.core;

import static io.stratus.core.SnapshotIsolationTest.read;
import static io.stratus.core.SnapshotIsolationTest.records;
import static io.stratus.core.SnapshotIsolationTest.snapshot;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.stratus.CommitFailedException;
import io.stratus.TransactionTimeoutException;
import io.stratus.cloudapi.CloudServices;
import io.stratus.cloudapi.CounterService;
import io.stratus.cloudapi.Operation;
import io.stratus.cloudapi.SupportsIdempotentIncrement;
import io.stratus.cloudapi.decorate.Decorators;
import io.stratus.cloudapi.decorate.FaultInterceptor;
import io.stratus.cloudapi.decorate.FaultKind;
import io.stratus.cloudapi.decorate.FaultPlan;
import io.stratus.cloudapi.testing.Seed;
import io.stratus.cloudapi.testing.SeedExtension;
import io.stratus.protocols.ProtocolKind;
import io.stratus.protocols.Settings;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * A lost reply to a commit-id increment under the isolating protocols, on a manual clock that never
 * reaches the lease: with idempotent increments the commit asks again under its request id, learns
 * its id and commits, and every later snapshot includes the later commits; without them the id
 * the lost request was issued is a hole that holds newer snapshots (and, in the serializable mode,
 * newer commits) back until the lease ends.
 */
@ExtendWith(SeedExtension.class)
class LostCommitIdReplyTest {

  @ParameterizedTest
  @EnumSource(names = {"SNAPSHOT_ISOLATION", "SERIALIZABLE_SNAPSHOT", "TWO_PHASE_LOCKING"})
  void aLostReplyIsAskedAgainAndHoldsNoSnapshotBack(ProtocolKind kind, @Seed long seed) {
    try (Fixture f = new Fixture(seed)) {
      ManualExecutor ex = new ManualExecutor();
      FaultInterceptor lose = loseTheFirstIncrementReply(seed, f);
      SwitchedFaults faults = new SwitchedFaults(lose);
      Database a = f.open(f.config(faults).protocol(kind).clientId("a").checkpointExecutor(ex));
      Database b = f.open(snapshot(f, kind, "b", ex));
      records(b, 4, "v0");
      faults.switchTo(true);

      update(a, 1, "a1"); // its increment's reply is lost, and asked again: it commits
      update(b, 2, "b2");
      assertLostOneIncrementReply(lose);

      Database c = f.open(snapshot(f, kind, "c", ex));
      for (Database db : List.of(a, b, c)) { // a and b must see their own commits: no waiting
        for (boolean readOnly : new boolean[] {true, false}) {
          try (Transaction tx = db.begin(readOnly)) {
            assertThat(read(tx, 1)).as("the commit whose reply was lost").isEqualTo("a1");
            assertThat(read(tx, 2)).as("a later commit").isEqualTo("b2");
          }
        }
      }
    }
  }

  @ParameterizedTest
  @EnumSource(names = {"SNAPSHOT_ISOLATION", "SERIALIZABLE_SNAPSHOT", "TWO_PHASE_LOCKING"})
  void withoutIdempotentIncrementsTheLostValueHoldsSnapshotsBackUntilTheLeaseEnds(
      ProtocolKind kind, @Seed long seed) {
    try (Fixture f = new Fixture(seed)) {
      ManualExecutor ex = new ManualExecutor();
      FaultInterceptor lose = loseTheFirstIncrementReply(seed, f);
      SwitchedFaults faults = new SwitchedFaults(lose);
      CloudServices plain =
          f.services().toBuilder().counters(new PlainCounters(f.services().counters())).build();
      assertThat(SupportsIdempotentIncrement.of(plain.counters())).isNull();
      Database a =
          f.open(
              DatabaseConfig.builder(Decorators.wrap(plain, faults), Fixture.DB)
                  .protocol(kind)
                  .clock(f.clock)
                  .pageSize(Fixture.PAGE_SIZE)
                  .ttl(Fixture.TTL)
                  .clientId("a")
                  .checkpointExecutor(ex));
      Database b = f.open(snapshot(f, kind, "b", ex));
      records(b, 4, "v0");
      faults.switchTo(true);

      Transaction t = a.begin();
      t.update("items", Key.of(1), Fixture.bytes("a1"));
      assertThatThrownBy(t::commit)
          .isInstanceOf(CommitFailedException.class)
          .satisfies(e -> assertThat(((CommitFailedException) e).isRetryable()).isTrue());
      boolean serializable = kind == ProtocolKind.SERIALIZABLE_SNAPSHOT;
      if (serializable) { // a commit there waits for every smaller commit id: the hole's too
        assertThatThrownBy(() -> update(b, 2, "b2"))
            .isInstanceOf(TransactionTimeoutException.class);
      } else {
        update(b, 2, "b2");
      }
      assertLostOneIncrementReply(lose);

      Database c = f.open(snapshot(f, kind, "c", ex));
      try (Transaction tx = c.begin(true)) {
        assertThat(read(tx, 1)).isEqualTo("v0");
        assertThat(read(tx, 2)).as("held back by the lost value").isEqualTo("v0");
      }
      f.clock.advance(Settings.ISOLATION_LEASE_TIMEOUT.defaultValue().plus(Duration.ofSeconds(1)));
      if (serializable) {
        update(b, 2, "b2");
      }
      try (Transaction tx = c.begin(true)) {
        assertThat(read(tx, 1)).isEqualTo("v0");
        assertThat(read(tx, 2)).as("the lost value lapsed").isEqualTo("b2");
      }
    }
  }

  /** Loses the reply of the first commit-id increment made while the faults are on. */
  private static FaultInterceptor loseTheFirstIncrementReply(long seed, Fixture f) {
    FaultPlan plan =
        FaultPlan.builder()
            .onNthCall(
                Operation.COUNTER_INCREMENT,
                Fixture.DB + "/si/commits",
                1,
                FaultPlan.Fault.loseReply())
            .build();
    return new FaultInterceptor(plan, seed, f.clock);
  }

  private static void assertLostOneIncrementReply(FaultInterceptor lose) {
    assertThat(lose.injectedFaults())
        .singleElement()
        .satisfies(
            fault -> {
              assertThat(fault.operation()).isEqualTo(Operation.COUNTER_INCREMENT);
              assertThat(fault.kind()).isEqualTo(FaultKind.LOSE_REPLY);
            });
  }

  /** One transaction that updates one record, committed once (no retry). */
  private static void update(Database db, long key, String value) {
    try (Transaction tx = db.begin()) {
      tx.update("items", Key.of(key), Fixture.bytes(value));
      tx.commit();
    }
  }

  /** Counters without the ability: only the plain calls of {@link CounterService}. */
  private static final class PlainCounters implements CounterService {
    private final CounterService delegate;

    PlainCounters(CounterService delegate) {
      this.delegate = delegate;
    }

    @Override
    public CompletableFuture<Void> setTimeout(String uriPrefix, Duration timeout) {
      return delegate.setTimeout(uriPrefix, timeout);
    }

    @Override
    public CompletableFuture<Long> increment(String uri) {
      return delegate.increment(uri);
    }

    @Override
    public CompletableFuture<Void> validate(String uri, long value) {
      return delegate.validate(uri, value);
    }

    @Override
    public CompletableFuture<Long> highestValidated(String uri) {
      return delegate.highestValidated(uri);
    }
  }
}
