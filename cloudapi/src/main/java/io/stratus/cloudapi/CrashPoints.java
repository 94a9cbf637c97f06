package io.stratus.cloudapi;

/**
 * Named steps at which a test may kill the client process: commit, checkpoint and recovery code
 * call {@link #reach(String)} at each step (for example {@code "commit.after-log-send"}), and a
 * test-only implementation throws there to model the process dying between two cloud calls.
 *
 * <p>Why an interface in the API package: the code that reaches the points lives in every layer
 * above, while the scripted implementation lives with the test decorators
 * ({@code io.stratus.cloudapi.decorate.ScriptedCrashPoints}). Production code passes {@link
 * #none()}, which does nothing and costs one inlined call.
 *
 * <p>Implementations MUST be thread-safe. What {@link #reach} throws models process death: it is
 * never a {@link CloudException}, and code MUST NOT catch it as a cloud error or retry after it.
 */
@FunctionalInterface
public interface CrashPoints {

  /**
   * Announces that the caller has reached {@code point}. Returns normally unless the process is to
   * die here, in which case it throws an unchecked exception that is not a {@link CloudException}.
   */
  void reach(String point);

  /** Crash points that never crash: the production default. */
  static CrashPoints none() {
    return NoCrashPoints.INSTANCE;
  }
}

/** The shared no-op; an enum so that there is exactly one, and it is serializable for free. */
enum NoCrashPoints implements CrashPoints {
  INSTANCE;

  @Override
  public void reach(String point) {}
}
