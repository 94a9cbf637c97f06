package io.stratus.cloudapi;

import java.time.Instant;
import java.util.Objects;

/**
 * A reserved virtual machine (paper 000, section 2.3.2).
 *
 * @param id the machine id, e.g. an EC2 instance id
 * @param image the machine image it was started from
 * @param state its state when this description was taken
 * @param address its private network address, empty while not yet known
 * @param launchedAt when the reservation started
 */
public record MachineDescription(
    String id, String image, MachineState state, String address, Instant launchedAt) {
  public MachineDescription {
    Objects.requireNonNull(id, "id");
    Objects.requireNonNull(image, "image");
    Objects.requireNonNull(state, "state");
    Objects.requireNonNull(address, "address");
    Objects.requireNonNull(launchedAt, "launchedAt");
  }

  /** The lifecycle of a reserved machine. */
  public enum MachineState {
    PENDING,
    RUNNING,
    STOPPING,
    TERMINATED
  }
}
