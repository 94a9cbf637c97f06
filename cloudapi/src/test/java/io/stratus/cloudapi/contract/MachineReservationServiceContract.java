package io.stratus.cloudapi.contract;

import static org.assertj.core.api.Assertions.assertThat;

import io.stratus.cloudapi.BadRequestException;
import io.stratus.cloudapi.MachineDescription;
import io.stratus.cloudapi.MachineDescription.MachineState;
import io.stratus.cloudapi.MachineReservationService;
import io.stratus.cloudapi.NotFoundException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Optional;
import java.util.UUID;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * What every {@link MachineReservationService} must do (paper 000, section 2.3.2), checked through
 * the interface only. A real provider may take a while to boot or terminate a machine, so the
 * suite accepts PENDING after a start and STOPPING after a stop, as the interface does ("moves it
 * towards TERMINATED"). Subclasses supply a fresh service per test and a machine image it accepts
 * ({@link #image()}); every machine a test starts is stopped afterwards. The shared helpers are in
 * {@link ContractSupport}.
 */
public abstract class MachineReservationServiceContract extends ContractSupport {
  /** The service under test, fresh for each test. */
  protected MachineReservationService machines;

  private final List<String> started = new ArrayList<>();

  /** A fresh service for one test. */
  protected abstract MachineReservationService newMachines(long seed);

  /** Not needed: no machine test lets time pass. */
  @Override
  protected void elapse(Duration d) {
    throw new UnsupportedOperationException("the machine contract never lets time pass");
  }

  /** An image the service can start. */
  protected String image() {
    return "stratus-contract-image";
  }

  @BeforeEach
  public void setUpMachineContract() {
    this.machines = newMachines(seed);
  }

  @AfterEach
  public void tearDownMachineContract() {
    if (machines == null) {
      return;
    }
    try {
      for (String id : started) {
        await(machines.stop(id));
      }
    } finally {
      machines.close();
    }
  }

  @Test
  public void startReturnsAFreshLiveMachine() {
    MachineDescription a = start();
    MachineDescription b = start();
    assertThat(a.id()).isNotBlank().isNotEqualTo(b.id());
    assertThat(a.image()).isEqualTo(image());
    assertThat(a.state()).isIn(EnumSet.of(MachineState.PENDING, MachineState.RUNNING));
    assertThat(a.launchedAt()).isNotNull();
  }

  @Test
  public void describeAndListRunningShowStartedMachines() {
    MachineDescription a = start();
    MachineDescription b = start();
    Optional<MachineDescription> d = await(machines.describe(a.id()));
    assertThat(d).isPresent();
    assertThat(d.get().id()).isEqualTo(a.id());
    assertThat(d.get().image()).isEqualTo(image());
    assertThat(d.get().state()).isNotEqualTo(MachineState.TERMINATED);

    List<String> running =
        await(machines.listRunning()).stream()
            .map(MachineDescription::id)
            .collect(Collectors.toList());
    assertThat(running).contains(a.id(), b.id());
  }

  @Test
  public void stopMovesTowardsTerminatedAndIsIdempotent() {
    MachineDescription a = start();
    MachineDescription b = start();
    await(machines.stop(a.id()));
    await(machines.stop(a.id()));
    MachineDescription after = await(machines.describe(a.id())).orElseThrow();
    assertThat(after.state()).isIn(EnumSet.of(MachineState.STOPPING, MachineState.TERMINATED));

    List<MachineDescription> running = await(machines.listRunning());
    List<String> ids = running.stream().map(MachineDescription::id).collect(Collectors.toList());
    assertThat(ids).contains(b.id());
    if (after.state() == MachineState.TERMINATED) {
      assertThat(ids).doesNotContain(a.id());
    }
    assertThat(running)
        .allSatisfy(m -> assertThat(m.state()).isNotEqualTo(MachineState.TERMINATED));
  }

  @Test
  public void unknownIdsAreNotFoundOrAbsent() {
    String never = "i-never-" + UUID.randomUUID().toString().substring(0, 8);
    assertFails(() -> machines.stop(never), NotFoundException.class);
    assertThat(await(machines.describe(never))).isEmpty();
  }

  @Test
  public void aBlankImageIsABadRequest() {
    assertFails(() -> machines.start(""), BadRequestException.class);
    assertFails(() -> machines.start("   "), BadRequestException.class);
    assertFails(() -> machines.start(null), BadRequestException.class);
  }

  // ---- helpers ----

  /** Starts a machine from {@link #image()} and remembers to stop it after the test. */
  protected MachineDescription start() {
    MachineDescription d = await(machines.start(image()));
    started.add(d.id());
    return d;
  }
}
