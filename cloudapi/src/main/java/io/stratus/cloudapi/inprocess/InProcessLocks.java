package io.stratus.cloudapi.inprocess;

import io.stratus.cloudapi.*;
import java.time.*;
import java.util.*;
import java.util.concurrent.CompletableFuture;

// STUB: replaced by the real implementation.
final class InProcessLocks implements LockService {
  InProcessLocks(Clock clock, CloudLimits limits, Duration defaultTimeout) {}

  void restart() {}

  @Override
  public CompletableFuture<Void> setTimeout(String uriPrefix, Duration timeout) {
    throw new UnsupportedOperationException("not implemented yet");
  }

  @Override
  public CompletableFuture<LockGrant> acquireExclusive(String uri, String clientId) {
    throw new UnsupportedOperationException("not implemented yet");
  }

  @Override
  public CompletableFuture<LockGrant> acquireShared(String uri, String clientId) {
    throw new UnsupportedOperationException("not implemented yet");
  }

  @Override
  public CompletableFuture<Boolean> release(String uri, String clientId) {
    throw new UnsupportedOperationException("not implemented yet");
  }

  @Override
  public CompletableFuture<Duration> timeoutFor(String uri) {
    throw new UnsupportedOperationException("not implemented yet");
  }

}
