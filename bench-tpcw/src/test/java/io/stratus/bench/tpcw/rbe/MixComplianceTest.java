package io.stratus.bench.tpcw.rbe;

import static org.assertj.core.api.Assertions.assertThat;

import io.stratus.bench.tpcw.rbe.MixCompliance.Row;
import io.stratus.bench.tpcw.rbe.MixCompliance.Verdict;
import io.stratus.bench.tpcw.workload.Interaction;
import io.stratus.bench.tpcw.workload.Mix;
import io.stratus.cloudapi.testing.Seed;
import io.stratus.cloudapi.testing.SeedExtension;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/** The mix-compliance verdicts: on seeded runs of the emulator and on made-up counts. */
@ExtendWith(SeedExtension.class)
class MixComplianceTest {

  @Test
  void aSeededRunOfEveryMixComplies(@Seed long seed) {
    for (Mix mix : Mix.values()) {
      EmulatorReport report =
          ObservedMixTest.countMode(mix, 4, 25_000, seed).build().run(ScriptedBookstore.idle());
      List<Row> rows = MixCompliance.of(mix, counts(report));
      assertThat(rows).hasSize(Interaction.values().length);
      assertThat(MixCompliance.flagged(rows, Verdict.OFF)).as("%s", mix).isEmpty();
      for (Row row : rows) {
        assertThat(row.count()).isEqualTo(report.count(row.interaction()));
        assertThat(row.targetPercent()).isEqualTo(mix.percent(row.interaction()));
      }
    }
  }

  @Test
  void aShareChanceCannotExplainIsOffAndTooFewSamplesAreThin() {
    // 100,000 interactions in the shopping mix's exact shares, then Home doubled.
    Map<Interaction, Long> exact = new EnumMap<>(Interaction.class);
    for (Interaction wi : Interaction.values()) {
      exact.put(wi, Math.round(1_000 * Mix.SHOPPING.percent(wi)));
    }
    assertThat(MixCompliance.flagged(MixCompliance.of(Mix.SHOPPING, exact), Verdict.OFF)).isEmpty();
    Map<Interaction, Long> skewed = new EnumMap<>(exact);
    skewed.put(Interaction.HOME, 2 * exact.get(Interaction.HOME));
    assertThat(MixCompliance.flagged(MixCompliance.of(Mix.SHOPPING, skewed), Verdict.OFF))
        .contains(Interaction.HOME);

    // 500 interactions: Admin Request and Confirm (0.1% and 0.09%) expect under one each.
    Map<Interaction, Long> short500 = new EnumMap<>(Interaction.class);
    exact.forEach((wi, n) -> short500.put(wi, n / 200));
    List<Row> rows = MixCompliance.of(Mix.SHOPPING, short500);
    assertThat(MixCompliance.flagged(rows, Verdict.THIN))
        .contains(Interaction.ADMIN_REQUEST, Interaction.ADMIN_CONFIRM)
        .doesNotContain(Interaction.HOME);
    // The tolerance narrows as the run grows.
    double wide = rows.get(Interaction.HOME.ordinal()).tolerancePoints();
    double narrow =
        MixCompliance.of(Mix.SHOPPING, exact).get(Interaction.HOME.ordinal()).tolerancePoints();
    assertThat(narrow).isLessThan(wide / 10);
    // Nothing ran: every share is thin, none is off.
    assertThat(MixCompliance.flagged(MixCompliance.of(Mix.SHOPPING, Map.of()), Verdict.THIN))
        .hasSize(Interaction.values().length);
  }

  private static Map<Interaction, Long> counts(EmulatorReport report) {
    Map<Interaction, Long> counts = new EnumMap<>(Interaction.class);
    for (Interaction wi : Interaction.values()) {
      counts.put(wi, report.count(wi));
    }
    return counts;
  }
}
