package io.stratus.cloudapi;

import java.time.Duration;
import java.util.concurrent.CompletableFuture;

/**
 * A lock service with leases (paper 000, section 2.3.5): shared and exclusive locks on URIs, held by
 * client ids, that lapse on their own after a timeout set per URI prefix.
 *
 * <p>Guarantees every implementation MUST give:
 *
 * <ul>
 *   <li><b>Mutual exclusion.</b> At no moment do two clients hold unexpired locks on one URI unless
 *       both are shared (or, on a service with {@link SupportsIntentionLocks}, both are insert
 *       intentions). A lock counts as held from its grant until it is released or its timeout
 *       passes, whichever comes first.
 *   <li><b>Leases.</b> A lock lapses after the timeout of its URI even if the holder never releases
 *       it. The timeout is that of the longest prefix set with {@link #setTimeout} that matches the
 *       URI, else the service's default. Acquiring a lock the caller already holds renews it for a
 *       full timeout.
 *   <li><b>Upgrade.</b> A client that holds the only shared lock on a URI gets an exclusive lock
 *       when it asks for one (S→X). A client holding an exclusive lock that asks for a shared one
 *       keeps its exclusive lock, renewed.
 *   <li><b>Non-blocking.</b> A lock that cannot be granted now is refused at once ({@link
 *       LockGrant#granted()} false); the service never queues requests.
 *   <li><b>Restarts.</b> A service may lose all its locks when it fails. After such a restart it
 *       MUST refuse every acquire with {@link ServiceUnavailableException} for the longest timeout
 *       it has ever been configured with, so that every lock granted before the failure has lapsed
 *       before a conflicting one is granted. Configured timeouts survive restarts.
 * </ul>
 *
 * <p>Implementations MUST be thread-safe.
 */
public interface LockService extends AutoCloseable {

  /** Sets the lock timeout for URIs starting with {@code uriPrefix}; applies to later grants. */
  CompletableFuture<Void> setTimeout(String uriPrefix, Duration timeout);

  /** Acquires (or renews, or upgrades to) an exclusive lock on {@code uri} for {@code clientId}. */
  CompletableFuture<LockGrant> acquireExclusive(String uri, String clientId);

  /** Acquires (or renews) a shared lock on {@code uri} for {@code clientId}. */
  CompletableFuture<LockGrant> acquireShared(String uri, String clientId);

  /** Releases whatever lock {@code clientId} holds on {@code uri}; true if it held an unexpired one. */
  CompletableFuture<Boolean> release(String uri, String clientId);

  /** The timeout that applies to locks on {@code uri} now. */
  CompletableFuture<Duration> timeoutFor(String uri);

  /** Releases client resources. The default holds none. */
  @Override
  default void close() {}
}
