package io.stratus.bench.tpcw.rbe;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.stratus.bench.tpcw.workload.Bookstore;
import io.stratus.bench.tpcw.workload.BrowserSession;
import io.stratus.bench.tpcw.workload.Interaction;
import io.stratus.bench.tpcw.workload.InteractionOutcome;
import io.stratus.bench.tpcw.workload.Mix;
import io.stratus.bench.tpcw.workload.ResponseStats;
import io.stratus.cloudapi.testing.Seed;
import io.stratus.cloudapi.testing.SeedExtension;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

@ExtendWith(SeedExtension.class)
class EmulatorErrorsTest {

  @Test
  void failedInteractionsAreCountedPerInteractionAndTheBrowsersGoOn(@Seed long seed) {
    ScriptedBookstore bookstore =
        new ScriptedBookstore(
            (wi, s) -> {
              if (wi == Interaction.SEARCH_RESULTS) {
                throw new IllegalStateException("no index for " + wi.label());
              }
              return ScriptedBookstore.nothing(wi);
            });
    EmulatorReport report =
        ObservedMixTest.countMode(Mix.SHOPPING, 2, 5_000, seed).build().run(bookstore);

    ResponseStats searchResults = report.perInteraction().get(Interaction.SEARCH_RESULTS);
    assertThat(searchResults.count()).isZero();
    assertThat(searchResults.errors()).isPositive();
    assertThat(report.total().errors()).isEqualTo(searchResults.errors());
    assertThat(report.total().count() + report.total().errors()).isEqualTo(10_000);
    assertThat(report.perInteraction().get(Interaction.HOME).count()).isPositive();
    assertThat(report.errorSamples())
        .isNotEmpty()
        .hasSizeLessThanOrEqualTo(EmulatorReport.MAX_ERROR_SAMPLES)
        .allSatisfy(
            sample ->
                assertThat(sample)
                    .isEqualTo(
                        "Search Results: java.lang.IllegalStateException: no index for Search Results"));
    // After each failure the browser starts a new user session at Home (unless the failure was
    // the last interaction of its budget).
    long restarts = bookstore.sessions().stream().mapToLong(s -> s.restarts.get()).sum();
    assertThat(restarts).isBetween(searchResults.errors() - 2, searchResults.errors());
    assertThat(bookstore.sessions())
        .allSatisfy(
            s -> {
              java.util.List<String> log = java.util.List.copyOf(s.log);
              for (int i = 0; i + 1 < log.size(); i++) {
                if (log.get(i).equals(Interaction.SEARCH_RESULTS.name())) {
                  assertThat(log.subList(i + 1, i + 3))
                      .containsExactly("RESTART", Interaction.HOME.name());
                }
              }
            });
  }

  @Test
  void anOutcomeForTheWrongInteractionIsAnError(@Seed long seed) {
    ScriptedBookstore bookstore =
        new ScriptedBookstore(
            (wi, s) ->
                wi == Interaction.HOME
                    ? ScriptedBookstore.nothing(Interaction.NEW_PRODUCTS)
                    : ScriptedBookstore.nothing(wi));
    EmulatorReport report =
        ObservedMixTest.countMode(Mix.BROWSING, 1, 1_000, seed).build().run(bookstore);
    assertThat(report.perInteraction().get(Interaction.HOME).errors()).isPositive();
    assertThat(report.perInteraction().get(Interaction.HOME).count()).isZero();
    assertThat(report.errorSamples().get(0)).contains("IllegalStateException");
  }

  @Test
  void aBrowserThatCannotOpenASessionFailsTheRun(@Seed long seed) {
    Bookstore broken =
        new Bookstore() {
          @Override
          public BrowserSession newSession(long s) {
            throw new UnsupportedOperationException("no sessions today");
          }

          @Override
          public InteractionOutcome execute(Interaction interaction, BrowserSession session) {
            throw new AssertionError("unreachable");
          }
        };
    assertThatThrownBy(
            () -> ObservedMixTest.countMode(Mix.SHOPPING, 2, 10, seed).build().run(broken))
        .isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("no sessions today");
  }
}
