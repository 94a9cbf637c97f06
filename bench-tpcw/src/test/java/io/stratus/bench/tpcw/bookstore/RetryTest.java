package io.stratus.bench.tpcw.bookstore;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.stratus.CommitFailedException;
import io.stratus.DuplicateKeyException;
import io.stratus.bench.tpcw.workload.BrowserSession;
import io.stratus.bench.tpcw.workload.Interaction;
import io.stratus.bench.tpcw.workload.InteractionOutcome;
import io.stratus.cloudapi.testing.Seed;
import io.stratus.cloudapi.testing.SeedExtension;
import io.stratus.protocols.ProtocolKind;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/** The retry policy: retryable commit failures re-run the body, bounded; others propagate. */
@ExtendWith(SeedExtension.class)
class RetryTest {
  private static CommitFailedException failure(boolean retryable) {
    return new CommitFailedException("injected", retryable, null);
  }

  @Test
  void retryableFailuresRunTheBodyAgainAndAreCounted(@Seed long seed) {
    try (BookstoreFixture f = new BookstoreFixture(seed, ProtocolKind.NAIVE)) {
      BookstoreSession s = f.session(seed);
      AtomicInteger runs = new AtomicInteger();
      InteractionOutcome o =
          f.store.execute(
              Interaction.ADMIN_CONFIRM,
              s,
              w -> {
                if (runs.incrementAndGet() <= 2) {
                  throw failure(true);
                }
                w.afterCommit(() -> s.lastItemId = 99);
                return f.store.order().adminConfirm(w);
              });
      assertThat(runs).hasValue(3);
      assertThat(o.retries()).isEqualTo(2);
      assertThat(o.wrote()).isTrue();
      assertThat(f.store.retries()).isEqualTo(2);
      assertThat(s.lastItemId).isEqualTo(99);
    }
  }

  @Test
  void failedAttemptsLeaveTheSessionAlone(@Seed long seed) {
    try (BookstoreFixture f = new BookstoreFixture(seed, ProtocolKind.NAIVE)) {
      BookstoreSession s = f.session(seed);
      AtomicInteger runs = new AtomicInteger();
      assertThatThrownBy(
              () ->
                  f.store.execute(
                      Interaction.HOME,
                      s,
                      w -> {
                        runs.incrementAndGet();
                        w.afterCommit(() -> s.lastItemId = 99);
                        throw failure(true);
                      }))
          .isInstanceOf(CommitFailedException.class);
      assertThat(runs).hasValue(StratusBookstore.MAX_ATTEMPTS);
      assertThat(s.lastItemId).isNotEqualTo(99);
    }
  }

  @Test
  void otherFailuresPropagateAtOnce(@Seed long seed) {
    try (BookstoreFixture f = new BookstoreFixture(seed, ProtocolKind.NAIVE)) {
      BookstoreSession s = f.session(seed);
      AtomicInteger runs = new AtomicInteger();
      assertThatThrownBy(
              () ->
                  f.store.execute(
                      Interaction.HOME,
                      s,
                      w -> {
                        runs.incrementAndGet();
                        throw failure(false);
                      }))
          .isInstanceOf(CommitFailedException.class);
      assertThat(runs).hasValue(1);
      assertThatThrownBy(
              () ->
                  f.store.execute(
                      Interaction.HOME,
                      s,
                      w -> {
                        throw new IllegalStateException("boom");
                      }))
          .isInstanceOf(IllegalStateException.class);
    }
  }

  @Test
  void aDuplicateFreshIdIsDrawnAgainWithoutCountingARetry(@Seed long seed) {
    try (BookstoreFixture f = new BookstoreFixture(seed, ProtocolKind.NAIVE)) {
      BookstoreSession s = f.session(seed);
      AtomicInteger runs = new AtomicInteger();
      InteractionOutcome o =
          f.store.execute(
              Interaction.BUY_CONFIRM,
              s,
              w -> {
                if (runs.incrementAndGet() == 1) {
                  throw new DuplicateKeyException(BookstoreSchema.ORDERS, "00");
                }
                return f.store.order().buyConfirm(w);
              });
      assertThat(runs).hasValue(2);
      assertThat(o.retries()).isZero();
      assertThat(o.wrote()).isTrue();
    }
  }

  @Test
  void foreignSessionsAreRefused(@Seed long seed) {
    try (BookstoreFixture f = new BookstoreFixture(seed, ProtocolKind.NAIVE)) {
      BrowserSession foreign = () -> {};
      assertThatThrownBy(() -> f.store.execute(Interaction.HOME, foreign))
          .isInstanceOf(IllegalArgumentException.class);
    }
  }
}
