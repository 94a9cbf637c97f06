package io.stratus.core;

import io.stratus.CloudServiceException;
import io.stratus.StratusException;
import java.util.SplittableRandom;
import java.util.function.Predicate;
import java.util.function.Supplier;
import org.jspecify.annotations.Nullable;

/**
 * The loop every retry of the record manager runs under a {@link RetryPolicy}: an attempt, and on
 * a failure the caller judges safe to retry, a back-off with jitter and the next attempt, up to
 * the policy's attempts. A failure it does not retry ends the loop at once; when the attempts are
 * used up the last failure is thrown. Either way the earlier failures of the loop are attached to
 * the one thrown as suppressed exceptions, so what happened on the way is not lost. Stateless.
 */
final class RetryLoop {
  private RetryLoop() {}

  /** A cloud failure that says nothing took effect and the same call may succeed later. */
  static boolean transientCloudFailure(StratusException e) {
    return e instanceof CloudServiceException && e.isRetryable();
  }

  /**
   * Runs {@code attempt} until it returns, or fails in a way {@code retry} refuses, or {@code
   * policy}'s attempts are used up; {@code onRetry} runs before each back-off.
   */
  static <T> T run(
      RetryPolicy policy,
      SplittableRandom jitter,
      Predicate<StratusException> retry,
      Supplier<T> attempt,
      Runnable onRetry) {
    return loop(policy, jitter, retry, attempt, onRetry, 1, null);
  }

  /**
   * As {@link #run}, when the first attempt was already made and failed with {@code first}, which
   * {@code retry} accepts: backs off and makes the second.
   */
  static <T> T after(
      StratusException first,
      RetryPolicy policy,
      SplittableRandom jitter,
      Predicate<StratusException> retry,
      Supplier<T> attempt) {
    if (policy.maxAttempts() <= 1) {
      throw first;
    }
    backOff(policy, jitter, 2, first);
    return loop(policy, jitter, retry, attempt, () -> {}, 2, first);
  }

  private static <T> T loop(
      RetryPolicy policy,
      SplittableRandom jitter,
      Predicate<StratusException> retry,
      Supplier<T> attempt,
      Runnable onRetry,
      int firstAttempt,
      @Nullable RuntimeException earlier) {
    RuntimeException failures = earlier;
    for (int n = firstAttempt; ; n++) {
      try {
        return attempt.get();
      } catch (StratusException e) {
        failures = attach(e, failures);
        if (!retry.test(e) || n >= policy.maxAttempts()) {
          throw failures;
        }
      }
      onRetry.run();
      backOff(policy, jitter, n + 1, failures);
    }
  }

  /** Waits before attempt {@code next}; an interrupt ends the loop with {@code failures}. */
  private static void backOff(
      RetryPolicy policy, SplittableRandom jitter, int next, RuntimeException failures) {
    try {
      policy.sleeper().sleep(policy.backoffBefore(next, jitter));
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw failures;
    }
  }

  /** {@code latest} with the earlier failures of the loop attached as suppressed. */
  private static RuntimeException attach(
      RuntimeException latest, @Nullable RuntimeException earlier) {
    if (earlier != null && earlier != latest) {
      latest.addSuppressed(earlier);
    }
    return latest;
  }
}
