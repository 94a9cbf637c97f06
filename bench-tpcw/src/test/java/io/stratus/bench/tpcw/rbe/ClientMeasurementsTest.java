package io.stratus.bench.tpcw.rbe;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.stratus.bench.tpcw.workload.Interaction;
import io.stratus.bench.tpcw.workload.Mix;
import io.stratus.cloudapi.CloudServices;
import io.stratus.cloudapi.decorate.PriceTables;
import io.stratus.cloudapi.testing.Seed;
import io.stratus.cloudapi.testing.SeedExtension;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Clients measured apart (as in processes of their own) and added up give the report of one run of
 * them all: every count, histogram and metered call, once.
 */
@ExtendWith(SeedExtension.class)
class ClientMeasurementsTest {

  @Test
  void measurementsWrittenAndReadBackMergeIntoTheOneRunReport(@Seed long seed) throws IOException {
    Emulator.ClientsReport inOneRun = twoClients(seed);

    List<ClientMeasurements> handedOver = new ArrayList<>();
    for (ClientMeasurements m : inOneRun.measurements()) {
      handedOver.add(roundTrip(m));
    }
    Emulator.ClientsReport merged =
        Emulator.ClientsReport.of(
            handedOver, Mix.SHOPPING, PriceTables.paper2008(), PriceTables.aws2026());

    EmulatorReport expected = inOneRun.total();
    EmulatorReport actual = merged.total();
    assertThat(actual.ebs()).isEqualTo(expected.ebs()).isEqualTo(6);
    assertThat(actual.total()).isEqualTo(expected.total());
    assertThat(actual.read()).isEqualTo(expected.read());
    assertThat(actual.update()).isEqualTo(expected.update());
    assertThat(actual.perInteraction()).isEqualTo(expected.perInteraction());
    assertThat(actual.work()).isEqualTo(expected.work());
    assertThat(actual.directUsage()).isEqualTo(expected.directUsage());
    assertThat(actual.background()).isEqualTo(expected.background());
    assertThat(actual.drain()).isEqualTo(expected.drain());
    assertThat(actual.measuredSeconds()).isEqualTo(expected.measuredSeconds());
    for (Interaction wi : Interaction.values()) {
      assertThat(actual.responseMicros(wi)).isEqualTo(expected.responseMicros(wi));
    }
    assertThat(merged.windows()).isEqualTo(inOneRun.windows());
    // Every call counted once: the merged total is the sum of what each client metered.
    assertThat(
            ClientMeasurements.sum(handedOver).calls().requests()
                - handedOver.get(0).calls().requests()
                - handedOver.get(1).calls().requests())
        .isZero();
    assertThat(actual.drain().requests()).isEqualTo(2);
    assertThat(actual.total().count()).isEqualTo(2_400);
  }

  @Test
  void somethingElseThanMeasurementsIsRefusedWithTheReason() {
    byte[] notMeasurements = {0, 0, 0, 7, 1, 2, 3};
    assertThatThrownBy(
            () ->
                ClientMeasurements.readFrom(
                    new DataInputStream(new ByteArrayInputStream(notMeasurements))))
        .isInstanceOf(IOException.class)
        .hasMessageContaining("same build as the parent");
  }

  private static ClientMeasurements roundTrip(ClientMeasurements m) throws IOException {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    try (DataOutputStream out = new DataOutputStream(bytes)) {
      m.writeTo(out);
    }
    return ClientMeasurements.readFrom(
        new DataInputStream(new ByteArrayInputStream(bytes.toByteArray())));
  }

  /** Two clients, one and two calls per page, each with a one-call drain, three EBs each. */
  private static Emulator.ClientsReport twoClients(long seed) {
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
    return ObservedMixTest.countMode(Mix.SHOPPING, 3, 400, seed)
        .windows(3)
        .build()
        .runClients(
            List.of(
                new Emulator.Client(
                    a, first, () -> InteractionAttributionTest.put(one, Interaction.HOME)),
                new Emulator.Client(
                    b, second, () -> InteractionAttributionTest.put(two, Interaction.HOME))));
  }
}
