package io.stratus.core;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import io.stratus.CloudServiceException;
import io.stratus.cloudapi.Operation;
import io.stratus.cloudapi.decorate.FaultInterceptor;
import io.stratus.cloudapi.decorate.FaultPlan;
import io.stratus.cloudapi.decorate.FaultPlan.Selector;
import io.stratus.cloudapi.testing.Seed;
import io.stratus.cloudapi.testing.SeedExtension;
import io.stratus.protocols.ProtocolKind;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * A single refused cloud call does not fail a call that changes nothing shared: opening a
 * database and beginning a transaction retry transient failures within the configuration's
 * {@link RetryPolicy}, and fail — retryably, saying what failed — only once its attempts are
 * used up.
 */
@ExtendWith(SeedExtension.class)
class TransientFailureTest {
  private static final String CATALOG = Fixture.DB + "/catalog";

  /** A policy that records its back-offs instead of waiting, and moves the clock on. */
  private static RetryPolicy recording(Fixture f, long seed, int attempts, List<Duration> waits) {
    return RetryPolicy.builder()
        .maxAttempts(attempts)
        .seed(seed)
        .sleeper(
            d -> {
              waits.add(d);
              f.clock.advance(d);
            })
        .build();
  }

  /** How many failures are attached to {@code e}, each to the one after it. */
  private static int earlier(Throwable e) {
    int n = 0;
    for (Throwable t = e; t.getSuppressed().length > 0; t = t.getSuppressed()[0]) {
      n++;
    }
    return n;
  }

  @Test
  void openRetriesARefusedCallAndGivesUpOnlyAfterThePolicysAttempts(@Seed long seed) {
    try (Fixture f = new Fixture(seed)) {
      f.open(f.config().protocol(ProtocolKind.MONOTONIC)).createCollection("items");

      FaultPlan once =
          FaultPlan.builder()
              .onNthCall(Operation.STORAGE_GET, CATALOG, 1, FaultPlan.Fault.unavailable())
              .build();
      List<Duration> waits = new ArrayList<>();
      Database db =
          f.open(
              f.config(new FaultInterceptor(once, seed, f.clock))
                  .protocol(ProtocolKind.MONOTONIC)
                  .retryPolicy(recording(f, seed, 3, waits)));
      assertThat(db.collections()).containsExactly("items");
      assertThat(waits).as("one back-off, after the refused catalog read").hasSize(1);

      FaultPlan always =
          FaultPlan.builder()
              .unavailable(Selector.operations(Operation.STORAGE_GET).withTargetPrefix(CATALOG), 1)
              .build();
      List<Duration> more = new ArrayList<>();
      Throwable failed =
          catchThrowable(
              () ->
                  f.open(
                      f.config(new FaultInterceptor(always, seed, f.clock))
                          .protocol(ProtocolKind.MONOTONIC)
                          .retryPolicy(recording(f, seed, 3, more))));
      assertThat(failed)
          .isInstanceOfSatisfying(
              CloudServiceException.class,
              e -> {
                assertThat(e.isRetryable()).isTrue();
                assertThat(e.getMessage()).contains("opening database " + Fixture.DB);
                assertThat(earlier(e)).as("the earlier attempts, attached").isEqualTo(2);
              });
      assertThat(more).hasSize(2);
    }
  }

  @Test
  void beginRetriesARefusedCounterPoll(@Seed long seed) {
    try (Fixture f = new Fixture(seed)) {
      f.open(f.config().protocol(ProtocolKind.SNAPSHOT_ISOLATION)).createCollection("items");
      SwitchedFaults faults =
          new SwitchedFaults(
              new FaultInterceptor(
                  FaultPlan.builder()
                      .onNthCall(
                          Operation.COUNTER_HIGHEST_VALIDATED,
                          Fixture.DB + "/si/",
                          1,
                          FaultPlan.Fault.unavailable())
                      .build(),
                  seed,
                  f.clock));
      List<Duration> waits = new ArrayList<>();
      Database db =
          f.open(
              f.config(faults)
                  .protocol(ProtocolKind.SNAPSHOT_ISOLATION)
                  .retryPolicy(recording(f, seed, 3, waits)));
      faults.switchTo(true);
      try (Transaction tx = db.begin()) {
        assertThat(tx.read("items", Key.of(1L))).isEmpty();
      }
      assertThat(faults.injected(Operation.COUNTER_HIGHEST_VALIDATED)).isEqualTo(1);
      assertThat(waits).as("one back-off, after the refused poll").hasSize(1);
    }
  }
}
