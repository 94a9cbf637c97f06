package io.stratus.aws;

import java.time.Duration;
import java.util.concurrent.locks.LockSupport;

/**
 * Lets real time pass, for the contract hook {@code elapse} on real services: a visibility timeout
 * on SQS or on an S3 queue runs on the service's (or the client's) real clock and cannot be
 * advanced. Only the LocalStack-backed contract tests use it, and only for the suites' short
 * visibility timeouts (2 s); everything else in these tests waits on results, not on time.
 */
final class RealTime {
  private RealTime() {}

  /** Returns after at least {@code d} has passed. */
  static void pass(Duration d) {
    long deadline = System.nanoTime() + d.toNanos();
    for (long left = d.toNanos(); left > 0; left = deadline - System.nanoTime()) {
      LockSupport.parkNanos(left);
    }
  }
}
