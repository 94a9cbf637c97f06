package io.stratus.cloudapi.inprocess;

import static org.assertj.core.api.Assertions.assertThat;

import io.stratus.cloudapi.MachineDescription;
import io.stratus.cloudapi.MachineDescription.MachineState;
import io.stratus.cloudapi.MachineReservationService;
import io.stratus.cloudapi.contract.MachineReservationServiceContract;
import io.stratus.cloudapi.time.ManualClock;
import java.time.Duration;
import java.util.List;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/** The machine contract on the in-process cloud, plus the in-process ids, addresses and states. */
class InProcessMachinesContractTest extends MachineReservationServiceContract {
  private final ManualClock clock = new ManualClock();

  @Override
  protected MachineReservationService newMachines(long seed) {
    return InProcessCloud.builder().clock(clock).seed(seed).build().services().machines();
  }

  @Test
  void machinesGetEc2LikeIdsAndLoopbackAddresses() {
    MachineDescription a = start();
    clock.advance(Duration.ofSeconds(1));
    MachineDescription b = start();
    assertThat(a.id()).isEqualTo("i-00000000000000001");
    assertThat(b.id()).isEqualTo("i-00000000000000002");
    assertThat(a.address()).isEqualTo("127.0.0.1");
    assertThat(b.address()).isEqualTo("127.0.0.2");
    assertThat(a.state()).isEqualTo(MachineState.RUNNING);
    assertThat(b.launchedAt()).isEqualTo(clock.instant());
    assertThat(a.launchedAt()).isEqualTo(clock.instant().minusSeconds(1));
    for (int i = 3; i <= 300; i++) {
      start();
    }
    assertThat(await(machines.describe("i-0000000000000012c")).orElseThrow().address())
        .isEqualTo("127.0.1.44");
  }

  @Test
  void stopTerminatesAtOnceAndListRunningIsInLaunchOrder() {
    MachineDescription a = start();
    MachineDescription b = start();
    MachineDescription c = start();
    await(machines.stop(b.id()));
    MachineDescription stopped = await(machines.describe(b.id())).orElseThrow();
    assertThat(stopped.state()).isEqualTo(MachineState.TERMINATED);
    assertThat(stopped.launchedAt()).isEqualTo(b.launchedAt());
    assertThat(stopped.address()).isEqualTo(b.address());
    List<String> running =
        await(machines.listRunning()).stream()
            .map(MachineDescription::id)
            .collect(Collectors.toList());
    assertThat(running).containsExactly(a.id(), c.id());
  }
}
