package io.stratus.cloudapi.decorate;

import io.stratus.cloudapi.Operation;
import java.time.Duration;

/**
 * How long a call takes from the client's point of view, as a function of what it moves. {@link
 * LatencyProfiles} has the paper's measurements; implement this for other settings.
 *
 * <p>Implementations MUST be thread-safe, fast and deterministic (jitter belongs to {@link
 * LatencyInterceptor#withJitter}).
 */
@FunctionalInterface
public interface LatencyModel {

  /**
   * The round-trip time of one call.
   *
   * @param requestBytes payload bytes sent ({@link Call#requestBytes()})
   * @param responseBytes payload bytes received (0 for a failed call)
   * @return zero or positive
   */
  Duration latency(Operation op, long requestBytes, long responseBytes);
}
