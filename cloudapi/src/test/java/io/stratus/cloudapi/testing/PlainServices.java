package io.stratus.cloudapi.testing;

import io.stratus.cloudapi.LockGrant;
import io.stratus.cloudapi.LockService;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;

/** Services stripped of their optional abilities, to test the paths taken without them. */
public final class PlainServices {
  private PlainServices() {}

  /**
   * {@code locks} as a plain lock service: no intentions and no stamps, whatever {@code locks} can
   * do.
   */
  public static LockService locks(LockService locks) {
    return new LockService() {
      @Override
      public CompletableFuture<Void> setTimeout(String uriPrefix, Duration timeout) {
        return locks.setTimeout(uriPrefix, timeout);
      }

      @Override
      public CompletableFuture<LockGrant> acquireExclusive(String uri, String clientId) {
        return locks.acquireExclusive(uri, clientId);
      }

      @Override
      public CompletableFuture<LockGrant> acquireShared(String uri, String clientId) {
        return locks.acquireShared(uri, clientId);
      }

      @Override
      public CompletableFuture<Boolean> release(String uri, String clientId) {
        return locks.release(uri, clientId);
      }

      @Override
      public CompletableFuture<Duration> timeoutFor(String uri) {
        return locks.timeoutFor(uri);
      }
    };
  }
}
