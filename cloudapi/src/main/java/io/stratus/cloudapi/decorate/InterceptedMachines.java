package io.stratus.cloudapi.decorate;

import static io.stratus.cloudapi.Operation.MACHINE_DESCRIBE;
import static io.stratus.cloudapi.Operation.MACHINE_LIST;
import static io.stratus.cloudapi.Operation.MACHINE_START;
import static io.stratus.cloudapi.Operation.MACHINE_STOP;

import io.stratus.cloudapi.MachineDescription;
import io.stratus.cloudapi.MachineReservationService;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;

/**
 * Machine reservation whose every call goes through an {@link InterceptorChain}. The target of a
 * start is the image, of a stop or describe the machine id, of a listing "".
 */
final class InterceptedMachines extends InterceptedService<MachineReservationService>
    implements MachineReservationService {
  InterceptedMachines(
      MachineReservationService delegate, InterceptorChain chain, boolean closesDelegate) {
    super(delegate, chain, closesDelegate ? delegate::close : null);
  }

  @Override
  public CompletableFuture<MachineDescription> start(String machineImage) {
    return route(Call.of(MACHINE_START, machineImage, 0), () -> delegate.start(machineImage));
  }

  @Override
  public CompletableFuture<Void> stop(String machineId) {
    return route(Call.of(MACHINE_STOP, machineId, 0), () -> delegate.stop(machineId));
  }

  @Override
  public CompletableFuture<Optional<MachineDescription>> describe(String machineId) {
    return route(Call.of(MACHINE_DESCRIBE, machineId, 0), () -> delegate.describe(machineId));
  }

  @Override
  public CompletableFuture<List<MachineDescription>> listRunning() {
    return route(Call.of(MACHINE_LIST, "", 0), delegate::listRunning);
  }
}
