package io.stratus.bench.tpcw.rbe;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.stratus.bench.tpcw.workload.Interaction;
import io.stratus.bench.tpcw.workload.Mix;
import io.stratus.cloudapi.testing.Seed;
import io.stratus.cloudapi.testing.SeedExtension;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/** Warm-up, measurement interval, stopping and sessions, on a fake clock. */
@ExtendWith(SeedExtension.class)
class EmulatorPhasesTest {

  @Test
  void warmUpIsNotMeasured(@Seed long seed) {
    // Every interaction takes exactly 1 ms of fake time: interactions 0..99 start in the 100 ms
    // warm-up, 100..1099 in the 1 s measurement interval, and none after.
    FakeTicker ticker = new FakeTicker();
    ScriptedBookstore bookstore =
        new ScriptedBookstore(
            (wi, s) -> {
              ticker.advance(Duration.ofMillis(1));
              return ScriptedBookstore.nothing(wi);
            });
    EmulatorReport report =
        Emulator.builder()
            .sessionThinkTimeMean(Duration.ZERO)
            .ebs(1)
            .mix(Mix.SHOPPING)
            .seed(seed)
            .warmUp(Duration.ofMillis(100))
            .measure(Duration.ofSeconds(1))
            .nanoTime(ticker)
            .waiter(new RecordingWaiter(ticker))
            .build()
            .run(bookstore);

    assertThat(report.warmUpInteractions()).isEqualTo(100);
    assertThat(report.total().count()).isEqualTo(1000);
    assertThat(bookstore.sessions().get(0).log).hasSize(1100);
    assertThat(report.measuredSeconds()).isEqualTo(1.0);
    assertThat(report.interactionsPerSecond()).isEqualTo(1000.0);
    assertThat(report.total().meanMillis()).isEqualTo(1.0);
    assertThat(report.total().p90Millis()).isEqualTo(1.0);
    assertThat(report.read().count() + report.update().count()).isEqualTo(1000);
  }

  @Test
  void measuredIntervalEndsEarlyWhenTheBrowsersStopEarly(@Seed long seed) {
    FakeTicker ticker = new FakeTicker();
    ScriptedBookstore bookstore =
        new ScriptedBookstore(
            (wi, s) -> {
              ticker.advance(Duration.ofMillis(2));
              return ScriptedBookstore.nothing(wi);
            });
    EmulatorReport report =
        Emulator.builder()
            .sessionThinkTimeMean(Duration.ZERO)
            .ebs(1)
            .seed(seed)
            .warmUp(Duration.ofMillis(10))
            .measure(Duration.ofHours(1))
            .interactionsPerBrowser(505)
            .nanoTime(ticker)
            .waiter(new RecordingWaiter(ticker))
            .build()
            .run(bookstore);
    // 5 warm-up interactions (0..8 ms), then 500 measured ending at 1010 ms.
    assertThat(report.warmUpInteractions()).isEqualTo(5);
    assertThat(report.total().count()).isEqualTo(500);
    assertThat(report.measuredSeconds()).isEqualTo(1.0);
    assertThat(report.interactionsPerSecond()).isEqualTo(500.0);
  }

  @Test
  void countModeStopsEveryBrowserAfterItsBudget(@Seed long seed) {
    ScriptedBookstore bookstore = ScriptedBookstore.idle();
    EmulatorReport report =
        ObservedMixTest.countMode(Mix.ORDERING, 4, 1_000, seed).build().run(bookstore);
    assertThat(report.total().count()).isEqualTo(4_000);
    assertThat(bookstore.sessions()).hasSize(4).allSatisfy(s -> assertThat(s.log).hasSize(1_000));
    assertThat(report.unfinishedBrowsers()).isZero();
    assertThat(report.ebs()).isEqualTo(4);
    for (Interaction wi : Interaction.values()) {
      assertThat(report.responseMicros(wi).getTotalCount())
          .as("%s", wi)
          .isEqualTo(report.count(wi));
    }
  }

  @Test
  void hundredsOfBrowsersRunTogether(@Seed long seed) {
    EmulatorReport report =
        ObservedMixTest.countMode(Mix.SHOPPING, 400, 250, seed)
            .build()
            .run(ScriptedBookstore.idle());
    assertThat(report.total().count()).isEqualTo(100_000);
    assertThat(report.unfinishedBrowsers()).isZero();
  }

  @Test
  void onTheRealClockTheRunLastsWarmUpPlusMeasurement(@Seed long seed) {
    long before = System.nanoTime();
    EmulatorReport report =
        Emulator.builder()
            .sessionThinkTimeMean(Duration.ZERO)
            .ebs(4)
            .seed(seed)
            .warmUp(Duration.ofMillis(50))
            .measure(Duration.ofMillis(250))
            .build()
            .run(ScriptedBookstore.idle());
    long tookNanos = System.nanoTime() - before;
    assertThat(tookNanos).isGreaterThanOrEqualTo(Duration.ofMillis(300).toNanos());
    // Which interactions fall in which phase depends on the machine's speed; the interval does not.
    assertThat(report.measuredSeconds()).isEqualTo(0.25);
    assertThat(report.total().count()).isPositive();
    assertThat(report.interactionsPerSecond()).isEqualTo(report.total().count() / 0.25);
  }

  @Test
  void theSleepingWaiterStopsWhenInterrupted() {
    Thread.currentThread().interrupt();
    assertThatThrownBy(() -> Waiter.sleeping().pause(Duration.ofHours(1)))
        .isInstanceOf(InterruptedException.class);
    assertThat(Thread.interrupted()).isFalse();
  }

  @Test
  void progressRisesToOne(@Seed long seed) {
    FakeTicker ticker = new FakeTicker();
    ScriptedBookstore bookstore =
        new ScriptedBookstore(
            (wi, s) -> {
              ticker.advance(Duration.ofMillis(1));
              return ScriptedBookstore.nothing(wi);
            });
    List<Double> progress = new ArrayList<>();
    Emulator.builder()
        .sessionThinkTimeMean(Duration.ZERO)
        .ebs(1)
        .seed(seed)
        .warmUp(Duration.ofMillis(500))
        .measure(Duration.ofSeconds(2))
        .nanoTime(ticker)
        .waiter(new RecordingWaiter(ticker))
        .progress(progress::add)
        .build()
        .run(bookstore);
    assertThat(progress).isNotEmpty().isSorted().allSatisfy(f -> assertThat(f).isBetween(0.0, 1.0));
    assertThat(progress.get(progress.size() - 1)).isEqualTo(1.0);
  }

  @Test
  void browsersWaitingWhenTheRunEndsAreWokenAndStop(@Seed long seed) {
    // Each browser executes one page, then sits in a think time that never ends by itself; the
    // last one to start waiting moves the clock past the run's end, so the emulator must
    // interrupt them all.
    FakeTicker ticker = new FakeTicker();
    AtomicInteger waiting = new AtomicInteger();
    CountDownLatch never = new CountDownLatch(1);
    Waiter blocksUntilInterrupted =
        d -> {
          if (waiting.incrementAndGet() == 3) {
            ticker.advance(Duration.ofHours(1));
          }
          never.await();
        };
    ScriptedBookstore bookstore = ScriptedBookstore.idle();
    EmulatorReport report =
        Emulator.builder()
            .sessionThinkTimeMean(Duration.ZERO)
            .ebs(3)
            .seed(seed)
            .warmUp(Duration.ZERO)
            .measure(Duration.ofSeconds(10))
            .thinkTimeMean(Duration.ofSeconds(7))
            .nanoTime(ticker)
            .waiter(blocksUntilInterrupted)
            .stopTimeout(Duration.ofSeconds(20))
            .build()
            .run(bookstore);
    assertThat(report.unfinishedBrowsers()).isZero();
    assertThat(report.total().count()).isEqualTo(3);
    assertThat(bookstore.sessions()).allSatisfy(s -> assertThat(s.log).hasSize(1));
  }

  @Test
  void sessionsEndAtTheNextHomeAfterTheirDuration(@Seed long seed) {
    // One fake second per interaction, sessions of 60 s on average (at most 240 s).
    FakeTicker ticker = new FakeTicker();
    ScriptedBookstore bookstore =
        new ScriptedBookstore(
            (wi, s) -> {
              ticker.advance(Duration.ofSeconds(1));
              return ScriptedBookstore.nothing(wi);
            });
    int n = 20_000;
    Emulator.builder()
        .sessionThinkTimeMean(Duration.ZERO)
        .ebs(1)
        .seed(seed)
        .mix(Mix.SHOPPING)
        .warmUp(Duration.ZERO)
        .measure(Duration.ofDays(365))
        .interactionsPerBrowser(n)
        .sessionMean(Duration.ofSeconds(60))
        .nanoTime(ticker)
        .waiter(new RecordingWaiter(ticker))
        .build()
        .run(bookstore);

    List<String> log = List.copyOf(bookstore.sessions().get(0).log);
    assertThat(log.get(0)).isEqualTo(Interaction.HOME.name());
    int restarts = 0;
    int sinceRestart = 0;
    for (int i = 0; i < log.size(); i++) {
      if (log.get(i).equals("RESTART")) {
        restarts++;
        assertThat(log.get(i + 1))
            .as("page after restart %d", restarts)
            .isEqualTo(Interaction.HOME.name());
        // A session lasts at most 240 s, plus the pages until the chain next visits Home.
        assertThat(sinceRestart).isLessThan(240 + 200);
        sinceRestart = 0;
      } else {
        sinceRestart++;
      }
    }
    // About n / (60 s + a few pages to the next Home) sessions; a loose bound either way.
    assertThat(restarts).isBetween(n / 200, n / 40);
  }

  @Test
  void withoutThinkTimeSessionsLastAsManyInteractionsAsTheSpecificationsWould(@Seed long seed) {
    // Interactions take 10 fake ms and browsers never think: in real time a 15-minute session
    // would last 90,000 interactions. The session clock counts the specification's think time
    // (mean 7 s) instead, so a session lasts about 900 / 7 = 129 interactions until the next Home.
    FakeTicker ticker = new FakeTicker();
    ScriptedBookstore bookstore =
        new ScriptedBookstore(
            (wi, s) -> {
              ticker.advance(Duration.ofMillis(10));
              return ScriptedBookstore.nothing(wi);
            });
    int n = 20_000;
    Emulator.builder()
        .ebs(1)
        .seed(seed)
        .mix(Mix.SHOPPING)
        .warmUp(Duration.ZERO)
        .measure(Duration.ofDays(365))
        .interactionsPerBrowser(n)
        .nanoTime(ticker)
        .waiter(new RecordingWaiter(ticker))
        .build()
        .run(bookstore);

    long restarts = bookstore.sessions().get(0).restarts.get();
    assertThat(restarts).as("sessions in %d interactions", n).isBetween(n / 250L, n / 90L);
  }
}
