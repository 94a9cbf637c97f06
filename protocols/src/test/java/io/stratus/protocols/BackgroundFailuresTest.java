package io.stratus.protocols;

import static org.assertj.core.api.Assertions.assertThat;

import io.stratus.cloudapi.ServiceUnavailableException;
import io.stratus.cloudapi.time.ManualClock;
import java.lang.System.Logger.Level;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.ResourceBundle;
import java.util.function.Supplier;
import org.junit.jupiter.api.Test;

/** Background failures are counted and warned about at most once a minute per kind. */
class BackgroundFailuresTest {

  @Test
  void oneWarningPerKindAndMinuteSayingHowManyItStandsFor() {
    ManualClock clock = new ManualClock();
    RecordingLogger log = new RecordingLogger();
    BackgroundFailures failures = new BackgroundFailures(log, clock);
    RuntimeException cause = new IllegalStateException("queue service unavailable");

    for (int i = 0; i < 600; i++) { // a failing service: every pass fails the same way
      failures.report("propagation", "propagating failed", cause);
    }
    failures.report("recovery", "recovering failed", cause);
    assertThat(log.at(Level.WARNING)).containsExactly("propagating failed", "recovering failed");
    assertThat(log.at(Level.DEBUG)).hasSize(599);

    clock.advance(BackgroundFailures.WARN_EVERY.minus(Duration.ofMillis(1)));
    failures.report("propagation", "propagating failed", cause);
    assertThat(log.at(Level.WARNING)).hasSize(2);
    clock.advance(Duration.ofMillis(1));
    failures.report("propagation", "propagating failed", cause);
    assertThat(log.at(Level.WARNING))
        .hasSize(3)
        .last()
        .asString()
        .isEqualTo(
            "propagating failed (and 600 more propagation failure(s) since the last" + " warning)");
    assertThat(failures.count()).isEqualTo(603);
  }

  /**
   * A service that says it is unavailable for a while (a lock service refusing after a restart)
   * is an expected condition with its own message: the warning carries that message, not a stack
   * trace; DEBUG keeps the trace.
   */
  @Test
  void anUnavailableServiceIsWarnedAboutWithItsMessageAndNoStackTrace() {
    RecordingLogger log = new RecordingLogger();
    BackgroundFailures failures = new BackgroundFailures(log, new ManualClock());
    RuntimeException refused =
        new ServiceUnavailableException(
            "the lock service restarted and refuses requests for another PT45S",
            Duration.ofSeconds(45));

    failures.report("checkpoint", "checkpoint of q failed", refused);
    failures.report("checkpoint", "checkpoint of q failed", refused);
    failures.report("propagation", "propagating failed", new IllegalStateException("bug"));

    assertThat(log.at(Level.WARNING))
        .containsExactly(
            "checkpoint of q failed: the lock service restarted and refuses requests for another"
                + " PT45S",
            "propagating failed");
    assertThat(log.thrownAt(Level.WARNING)).containsExactly(null, "bug");
    assertThat(log.thrownAt(Level.DEBUG))
        .as("the warned one's trace, and the rate-limited one")
        .containsExactly(refused.getMessage(), refused.getMessage());
  }

  /** A logger that keeps each message with its level. */
  static final class RecordingLogger implements System.Logger {
    private final List<Level> levels = new ArrayList<>();
    private final List<String> messages = new ArrayList<>();
    private final List<Throwable> thrown = new ArrayList<>();

    /** The messages of the throwables logged at {@code level} (null: none logged). */
    synchronized List<String> thrownAt(Level level) {
      List<String> out = new ArrayList<>();
      for (int i = 0; i < levels.size(); i++) {
        if (levels.get(i) == level) {
          out.add(thrown.get(i) == null ? null : thrown.get(i).getMessage());
        }
      }
      return out;
    }

    synchronized List<String> at(Level level) {
      List<String> out = new ArrayList<>();
      for (int i = 0; i < levels.size(); i++) {
        if (levels.get(i) == level) {
          out.add(messages.get(i));
        }
      }
      return out;
    }

    @Override
    public String getName() {
      return "recording";
    }

    @Override
    public boolean isLoggable(Level level) {
      return true;
    }

    @Override
    public synchronized void log(Level level, ResourceBundle bundle, String msg, Throwable t) {
      levels.add(level);
      messages.add(msg);
      thrown.add(t);
    }

    @Override
    public synchronized void log(
        Level level, ResourceBundle bundle, String format, Object... params) {
      levels.add(level);
      messages.add(format);
      thrown.add(null);
    }

    @Override
    public void log(Level level, Supplier<String> msgSupplier, Throwable thrown) {
      log(level, (ResourceBundle) null, msgSupplier.get(), thrown);
    }
  }
}
