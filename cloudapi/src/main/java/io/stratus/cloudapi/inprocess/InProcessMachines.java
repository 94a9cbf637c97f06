package io.stratus.cloudapi.inprocess;

import io.stratus.cloudapi.*;
import java.time.*;
import java.util.*;
import java.util.concurrent.CompletableFuture;

// STUB: replaced by the real implementation.
final class InProcessMachines implements MachineReservationService {
  InProcessMachines(Clock clock) {}


  @Override
  public CompletableFuture<MachineDescription> start(String machineImage) {
    throw new UnsupportedOperationException("not implemented yet");
  }

  @Override
  public CompletableFuture<Void> stop(String machineId) {
    throw new UnsupportedOperationException("not implemented yet");
  }

  @Override
  public CompletableFuture<Optional<MachineDescription>> describe(String machineId) {
    throw new UnsupportedOperationException("not implemented yet");
  }

  @Override
  public CompletableFuture<List<MachineDescription>> listRunning() {
    throw new UnsupportedOperationException("not implemented yet");
  }

}
