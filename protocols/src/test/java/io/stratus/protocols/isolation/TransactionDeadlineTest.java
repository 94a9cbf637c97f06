package io.stratus.protocols.isolation;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.stratus.TransactionTimeoutException;
import io.stratus.cloudapi.time.ManualClock;
import io.stratus.protocols.TransactionInfo;
import java.time.Duration;
import java.time.Instant;
import org.junit.jupiter.api.Test;

/** A transaction's deadline: it fails reads and commits once the timeout after the begin passed. */
class TransactionDeadlineTest {
  private final ManualClock clock = new ManualClock(Instant.parse("2026-11-29T00:00:00Z"));
  private final TransactionInfo info = new TransactionInfo("tx-7", "client-1", clock.instant());

  @Test
  void passesUpToTheTimeoutAndFailsRetryablyAfterIt() {
    TransactionDeadline deadline = new TransactionDeadline(clock, info, Duration.ofSeconds(10));
    clock.advance(Duration.ofSeconds(10));
    assertThatCode(deadline::check).doesNotThrowAnyException(); // exactly the timeout: in time
    clock.advance(Duration.ofMillis(1));
    assertThatThrownBy(deadline::check)
        .isInstanceOf(TransactionTimeoutException.class)
        .hasMessageContaining("tx-7")
        .hasMessageContaining("10001 ms")
        .hasMessageContaining("PT10S")
        .hasMessageContaining("run it again");
  }

  @Test
  void theExpiryIsFixedAtTheBegin() {
    TransactionDeadline deadline = new TransactionDeadline(clock, info, Duration.ofSeconds(3));
    clock.advance(Duration.ofSeconds(1));
    TransactionDeadline later = new TransactionDeadline(clock, info, Duration.ofSeconds(3));
    assertThat(later.expiresAtMillis() - deadline.expiresAtMillis()).isEqualTo(1_000);
  }

  @Test
  void aTimeoutTooLongForTheClockNeverExpiresRatherThanWrapping() {
    TransactionDeadline deadline =
        new TransactionDeadline(clock, info, Duration.ofMillis(Long.MAX_VALUE));
    assertThat(deadline.expiresAtMillis()).isEqualTo(Long.MAX_VALUE);
    clock.advance(Duration.ofDays(365 * 100));
    assertThatCode(deadline::check).doesNotThrowAnyException();
    assertThatCode(TransactionDeadline.NONE::check).doesNotThrowAnyException();
  }
}
