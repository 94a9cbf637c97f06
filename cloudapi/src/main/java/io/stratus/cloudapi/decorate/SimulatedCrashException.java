package io.stratus.cloudapi.decorate;

/**
 * The simulated death of the client process, thrown by {@link ScriptedCrashPoints} at an armed
 * crash point (and at every point reached after it), and, as {@link ClientCrashedException}, by the
 * calls of a killed {@link FaultInterceptor}.
 *
 * <p>Deliberately not a {@link io.stratus.cloudapi.CloudException}: it models the process dying,
 * not a service failing, so code under test must let it propagate instead of retrying or
 * compensating. A test catches it at the top, discards the dead client's objects, and starts a new
 * client (its recovery) on the same cloud.
 */
public class SimulatedCrashException extends RuntimeException {
  private static final long serialVersionUID = 1L;

  public SimulatedCrashException(String message) {
    super(message);
  }
}
