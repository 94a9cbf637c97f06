package io.stratus.bench.tpcw.rbe;

import static org.assertj.core.api.Assertions.assertThat;

import io.stratus.bench.tpcw.workload.Interaction;
import io.stratus.bench.tpcw.workload.Mix;
import io.stratus.cloudapi.CloudServices;
import io.stratus.cloudapi.decorate.MeterSnapshot;
import io.stratus.cloudapi.testing.Seed;
import io.stratus.cloudapi.testing.SeedExtension;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/** Several application servers in one run: browsers per client, usage per client, one total. */
@ExtendWith(SeedExtension.class)
class MultiClientTest {

  @Test
  void eachClientRunsItsBrowsersAndPaysItsOwnCalls(@Seed long seed) {
    // Client 0's pages make one call each, client 1's two; both drain with one call.
    InteractionAttribution first = new InteractionAttribution();
    InteractionAttribution second = new InteractionAttribution();
    CloudServices one = InteractionAttributionTest.wrappedCloud(seed, first);
    CloudServices two = InteractionAttributionTest.wrappedCloud(seed + 1, second);
    ScriptedBookstore a =
        new ScriptedBookstore(
            (wi, s) -> {
              InteractionAttributionTest.put(one, wi);
              return ScriptedBookstore.nothing(wi);
            });
    ScriptedBookstore b =
        new ScriptedBookstore(
            (wi, s) -> {
              InteractionAttributionTest.put(two, wi);
              InteractionAttributionTest.put(two, wi);
              return ScriptedBookstore.nothing(wi);
            });
    Emulator.ClientsReport report =
        ObservedMixTest.countMode(Mix.SHOPPING, 3, 400, seed)
            .build()
            .runClients(
                List.of(
                    new Emulator.Client(
                        a, first, () -> InteractionAttributionTest.put(one, Interaction.HOME)),
                    new Emulator.Client(
                        b, second, () -> InteractionAttributionTest.put(two, Interaction.HOME))));

    assertThat(a.sessions()).hasSize(3);
    assertThat(b.sessions()).hasSize(3);
    List<EmulatorReport> clients = report.perClient();
    assertThat(clients).hasSize(2);
    assertThat(clients.get(0).total().count()).isEqualTo(1_200);
    assertThat(clients.get(1).total().count()).isEqualTo(1_200);
    assertThat(report.total().total().count()).isEqualTo(2_400);
    assertThat(report.total().ebs()).isEqualTo(6);
    assertThat(clients.get(0).total().requestsPerInteraction()).isEqualTo(1.0);
    assertThat(clients.get(1).total().requestsPerInteraction()).isEqualTo(2.0);
    assertThat(report.total().total().requestsPerInteraction()).isEqualTo(1.5);
    assertThat(clients.get(0).drain().requests()).isEqualTo(1);
    assertThat(report.total().drain().requests()).isEqualTo(2);
    long direct =
        report.total().directUsage().values().stream().mapToLong(MeterSnapshot::requests).sum();
    assertThat(direct).isEqualTo(1_200 + 2_400);
    for (Interaction wi : Interaction.values()) {
      assertThat(report.total().count(wi))
          .isEqualTo(clients.get(0).count(wi) + clients.get(1).count(wi));
      assertThat(report.total().responseMicros(wi).getTotalCount())
          .isEqualTo(report.total().count(wi));
    }
  }

  @Test
  void aSingleClientRunsExactlyAsRunDoes(@Seed long seed) {
    ScriptedBookstore viaRun = ScriptedBookstore.idle();
    ScriptedBookstore viaClients = ScriptedBookstore.idle();
    ObservedMixTest.countMode(Mix.ORDERING, 2, 300, seed).build().run(viaRun);
    ObservedMixTest.countMode(Mix.ORDERING, 2, 300, seed)
        .build()
        .runClients(
            List.of(new Emulator.Client(viaClients, new InteractionAttribution(), () -> {})));
    List<List<String>> pagesViaRun =
        viaRun.sessions().stream()
            .map(s -> List.copyOf(s.log))
            .sorted((x, y) -> x.toString().compareTo(y.toString()))
            .toList();
    List<List<String>> pagesViaClients =
        viaClients.sessions().stream()
            .map(s -> List.copyOf(s.log))
            .sorted((x, y) -> x.toString().compareTo(y.toString()))
            .toList();
    assertThat(pagesViaClients).isEqualTo(pagesViaRun);
  }
}
