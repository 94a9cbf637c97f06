package io.stratus.cloudapi;

import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;

/**
 * Machine reservation (paper 000, section 2.3.2): start a virtual machine from an image, stop it.
 *
 * <p>Guarantees every implementation MUST give: {@link #start} returns a description with a fresh
 * id; {@link #stop} of a running machine moves it towards {@link
 * MachineDescription.MachineState#TERMINATED} and is idempotent; {@link #stop} of an id the service
 * never issued fails with {@link NotFoundException}; an empty or unknown image fails with {@link
 * BadRequestException}. Implementations MUST be thread-safe.
 */
public interface MachineReservationService extends AutoCloseable {

  /** Starts a machine from {@code machineImage}. */
  CompletableFuture<MachineDescription> start(String machineImage);

  /** Stops (terminates) the machine; succeeds when it is already stopped. */
  CompletableFuture<Void> stop(String machineId);

  /** The machine's current description, or empty for an id the service does not know. */
  CompletableFuture<Optional<MachineDescription>> describe(String machineId);

  /** Every machine this service started that is not yet terminated. */
  CompletableFuture<List<MachineDescription>> listRunning();

  /** Releases client resources. The default holds none. */
  @Override
  default void close() {}
}
