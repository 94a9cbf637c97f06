package io.stratus.core;

import static io.stratus.core.Fixture.bytes;
import static io.stratus.core.Fixture.string;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.stratus.CommitFailedException;
import io.stratus.CommitStateUnknownException;
import io.stratus.InvalidConfigurationException;
import io.stratus.InvalidRequestException;
import io.stratus.StalePageException;
import io.stratus.cloudapi.Operation;
import io.stratus.cloudapi.decorate.FaultInterceptor;
import io.stratus.cloudapi.decorate.FaultPlan;
import io.stratus.cloudapi.testing.Seed;
import io.stratus.cloudapi.testing.SeedExtension;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * {@link Database#run} and {@link Database#read}: what is retried (only failures that say nothing
 * took effect), what is not (unknown outcomes, wrong requests, the function's own exceptions), and
 * the back-off between attempts. A recording sleeper stands in for waiting.
 */
@ExtendWith(SeedExtension.class)
class TransactionRunnerTest {
  private static final String ROOT = Fixture.DB + "/c/items/root";

  private final List<Duration> slept = new ArrayList<>();

  private RetryPolicy policy(long seed, int attempts) {
    return RetryPolicy.builder()
        .maxAttempts(attempts)
        .initialBackoff(Duration.ofMillis(10))
        .maxBackoff(Duration.ofMillis(80))
        .seed(seed)
        .sleeper(slept::add)
        .build();
  }

  @Test
  void runCommitsAndReturnsTheFunctionsValue(@Seed long seed) {
    try (Fixture f = new Fixture(seed)) {
      Database db = f.open();
      db.createCollection("items");
      String v =
          db.run(
              policy(seed, 3),
              tx -> {
                tx.create("items", Key.of(1L), bytes("one"));
                return "done";
              });
      assertThat(v).isEqualTo("done");
      String read = db.read(tx -> tx.read("items", Key.of(1L)).map(Fixture::string).orElse(null));
      assertThat(read).isEqualTo("one");
      assertThat(slept).isEmpty();
    }
  }

  @Test
  void aRetryableCommitFailureRunsTheWholeFunctionAgain(@Seed long seed) {
    try (Fixture f = new Fixture(seed)) {
      f.open().createCollection("items");
      FaultPlan plan =
          FaultPlan.builder()
              .onNthCall(Operation.STORAGE_PUT_IF_VERSION, ROOT, 1, FaultPlan.Fault.fail())
              .build();
      Database db = f.open(f.config(new FaultInterceptor(plan, seed, f.clock)));
      AtomicInteger calls = new AtomicInteger();
      int attempt =
          db.run(
              policy(seed, 3),
              tx -> {
                tx.create("items", Key.of(1L), bytes("one #" + calls.incrementAndGet()));
                return calls.get();
              });
      assertThat(attempt).isEqualTo(2);
      assertThat(slept).hasSize(1);
      assertThat(db.stats().retries()).isEqualTo(1);
      assertThat(string(db.read(tx -> tx.read("items", Key.of(1L)).orElseThrow())))
          .isEqualTo("one #2");
    }
  }

  @Test
  void anUnknownOutcomeIsNeverRetried(@Seed long seed) {
    try (Fixture f = new Fixture(seed)) {
      f.open().createCollection("items");
      FaultPlan plan =
          FaultPlan.builder()
              .onNthCall(Operation.STORAGE_PUT_IF_VERSION, ROOT, 1, FaultPlan.Fault.loseReply())
              .build();
      Database db = f.open(f.config(new FaultInterceptor(plan, seed, f.clock)));
      AtomicInteger calls = new AtomicInteger();
      assertThatThrownBy(
              () ->
                  db.run(
                      policy(seed, 5),
                      tx -> {
                        calls.incrementAndGet();
                        tx.create("items", Key.of(1L), bytes("one"));
                        return null;
                      }))
          .isInstanceOf(CommitStateUnknownException.class);
      assertThat(calls).hasValue(1);
      assertThat(slept).isEmpty();
      // The put did happen: reading tells the caller what to do next.
      boolean present = db.read(tx -> tx.read("items", Key.of(1L)).isPresent());
      assertThat(present).isTrue();
    }
  }

  @Test
  void theFunctionsOwnExceptionsAndWrongRequestsEndTheRunAtOnce(@Seed long seed) {
    try (Fixture f = new Fixture(seed)) {
      Database db = f.open();
      db.createCollection("items");
      AtomicInteger calls = new AtomicInteger();
      assertThatThrownBy(
              () ->
                  db.run(
                      policy(seed, 5),
                      tx -> {
                        calls.incrementAndGet();
                        tx.create("items", Key.of(1L), bytes("one"));
                        throw new IllegalStateException("the application changed its mind");
                      }))
          .isInstanceOf(IllegalStateException.class);
      assertThatThrownBy(
              () ->
                  db.run(
                      policy(seed, 5),
                      tx -> {
                        calls.incrementAndGet();
                        throw new CommitFailedException("permanent", false, null);
                      }))
          .isInstanceOf(CommitFailedException.class);
      assertThat(calls).hasValue(2);
      assertThat(slept).isEmpty();
      boolean present = db.read(tx -> tx.read("items", Key.of(1L)).isPresent());
      assertThat(present).as("the failed attempt was aborted").isFalse();
    }
  }

  @Test
  void usedUpAttemptsThrowTheLastFailureWithTheEarlierOnesAttached(@Seed long seed) {
    try (Fixture f = new Fixture(seed)) {
      Database db = f.open();
      AtomicInteger calls = new AtomicInteger();
      assertThatThrownBy(
              () ->
                  db.read(
                      policy(seed, 4),
                      tx -> {
                        throw new StalePageException("db/p" + calls.incrementAndGet(), 2, 1);
                      }))
          .isInstanceOfSatisfying(
              StalePageException.class,
              e -> {
                assertThat(e.uri()).isEqualTo("db/p4");
                assertThat(e.getSuppressed()).hasSize(1);
              });
      assertThat(calls).hasValue(4);
      assertThat(slept).hasSize(3);
      // Full jitter under caps that double: 10, 20, 40 ms.
      assertThat(slept.get(0)).isLessThanOrEqualTo(Duration.ofMillis(10));
      assertThat(slept.get(1)).isLessThanOrEqualTo(Duration.ofMillis(20));
      assertThat(slept.get(2)).isLessThanOrEqualTo(Duration.ofMillis(40));
    }
  }

  @Test
  void theRunnerOwnsTheTransaction(@Seed long seed) {
    try (Fixture f = new Fixture(seed)) {
      Database db = f.open();
      db.createCollection("items");
      assertThatThrownBy(
              () ->
                  db.read(
                      tx -> {
                        tx.create("items", Key.of(1L), bytes("one"));
                        return null;
                      }))
          .isInstanceOf(InvalidRequestException.class)
          .hasMessageContaining("Database.run");
      assertThatThrownBy(
              () ->
                  db.run(
                      tx -> {
                        tx.create("items", Key.of(2L), bytes("two"));
                        tx.commit();
                        return null;
                      }))
          .isInstanceOf(InvalidRequestException.class)
          .hasMessageContaining("runner");
    }
  }

  @Test
  void policiesAreCheckedWhenBuilt() {
    assertThatThrownBy(() -> RetryPolicy.builder().maxAttempts(0))
        .isInstanceOf(InvalidConfigurationException.class);
    assertThatThrownBy(() -> RetryPolicy.builder().initialBackoff(Duration.ofMillis(-1)))
        .isInstanceOf(InvalidConfigurationException.class);
    assertThatThrownBy(
            () ->
                RetryPolicy.builder()
                    .initialBackoff(Duration.ofSeconds(5))
                    .maxBackoff(Duration.ofSeconds(1))
                    .build())
        .isInstanceOf(InvalidConfigurationException.class)
        .hasMessageContaining("exceeds");
  }
}
