package io.stratus.bench.tpcw.rbe;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.stratus.bench.tpcw.workload.InteractionOutcome;
import io.stratus.bench.tpcw.workload.Mix;
import io.stratus.cloudapi.testing.Seed;
import io.stratus.cloudapi.testing.SeedExtension;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The measurement interval's windows count the interactions that started in each, on a fake
 * clock: each window's rate and response times show how the run varied.
 */
@ExtendWith(SeedExtension.class)
class WindowsTest {

  @Test
  void eachWindowHoldsTheInteractionsThatStartedInIt(@Seed long seed) {
    // One browser; interactions take 1 ms in the first half of the interval and 3 ms after it,
    // and every one writes 2 records.
    FakeTicker ticker = new FakeTicker(0);
    long halfway = Duration.ofMillis(100 + 600).toNanos();
    ScriptedBookstore bookstore =
        new ScriptedBookstore(
            (wi, s) -> {
              boolean late = ticker.getAsLong() >= halfway;
              ticker.advance(Duration.ofMillis(late ? 3 : 1));
              return new InteractionOutcome(wi, true, 0, 2, 0, -1);
            });
    Emulator.ClientsReport report =
        Emulator.builder()
            .sessionThinkTimeMean(Duration.ZERO)
            .ebs(1)
            .mix(Mix.SHOPPING)
            .seed(seed)
            .warmUp(Duration.ofMillis(100))
            .measure(Duration.ofMillis(1_200))
            .windows(4)
            .nanoTime(ticker)
            .waiter(new RecordingWaiter(ticker))
            .build()
            .runClients(
                List.of(new Emulator.Client(bookstore, new InteractionAttribution(), () -> {})));

    List<WindowStats> windows = report.windows();
    assertThat(windows).hasSize(4);
    assertThat(windows).extracting(WindowStats::seconds).containsOnly(0.3);
    assertThat(windows).extracting(WindowStats::completed).containsExactly(300L, 300L, 100L, 100L);
    assertThat(windows).extracting(WindowStats::meanMillis).containsExactly(1.0, 1.0, 3.0, 3.0);
    assertThat(windows).extracting(WindowStats::updates).containsExactly(300L, 300L, 100L, 100L);
    assertThat(windows.get(0).interactionsPerSecond()).isEqualTo(1_000.0);
    assertThat(windows.stream().mapToLong(WindowStats::completed).sum())
        .isEqualTo(report.total().total().count());
  }

  @Test
  void windowsAreBetweenOneAndAHundred() {
    assertThatThrownBy(() -> Emulator.builder().windows(0))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("windows");
    assertThatThrownBy(() -> Emulator.builder().windows(101))
        .isInstanceOf(IllegalArgumentException.class);
  }
}
