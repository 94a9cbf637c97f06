package io.stratus.cloudapi.decorate;

/**
 * A cloud call made by (or still in flight for) a client that a {@link FaultInterceptor} has
 * killed: the call was not made, or its reply will never be seen. A {@link
 * SimulatedCrashException}, so that callers see one "the process died" type whether the death was
 * noticed at a crash point or at a cloud call.
 */
public class ClientCrashedException extends SimulatedCrashException {
  private static final long serialVersionUID = 1L;

  public ClientCrashedException(String message) {
    super(message);
  }
}
