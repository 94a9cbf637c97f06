package io.stratus.bench.tpcw.harness;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The bulk load's summary. */
class LoadSummaryTest {
  @Test
  void theOldConstructorLeavesTheItemTableUnmeasured() {
    LoadSummary s =
        new LoadSummary(
            Map.of("item", 100L, "author", 25L),
            Duration.ofSeconds(2),
            Duration.ofSeconds(1),
            50,
            0.5,
            0.1,
            12);
    assertThat(s.totalRows()).isEqualTo(125);
    assertThat(s.itemRequests()).isZero();
    assertThat(s.itemMilliDollars2008()).isZero();
    assertThat(s.itemMilliDollars2026()).isZero();
  }
}
