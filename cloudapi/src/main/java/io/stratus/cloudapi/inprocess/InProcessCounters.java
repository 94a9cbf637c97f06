package io.stratus.cloudapi.inprocess;

import io.stratus.cloudapi.*;
import java.time.*;
import java.util.*;
import java.util.concurrent.CompletableFuture;

// STUB: replaced by the real implementation.
final class InProcessCounters implements CounterService {
  InProcessCounters(Clock clock, CloudLimits limits, Duration defaultTimeout) {}

  void restart() {}

  @Override
  public CompletableFuture<Void> setTimeout(String uriPrefix, Duration timeout) {
    throw new UnsupportedOperationException("not implemented yet");
  }

  @Override
  public CompletableFuture<Long> increment(String uri) {
    throw new UnsupportedOperationException("not implemented yet");
  }

  @Override
  public CompletableFuture<Void> validate(String uri, long value) {
    throw new UnsupportedOperationException("not implemented yet");
  }

  @Override
  public CompletableFuture<Long> highestValidated(String uri) {
    throw new UnsupportedOperationException("not implemented yet");
  }

}
