package io.stratus.cloudapi;

import java.util.Map;
import java.util.concurrent.CompletableFuture;
import org.jspecify.annotations.Nullable;

/**
 * The optional ability to write an item only if the store is still in the state the caller
 * believes it is in (S3 conditional writes, If-None-Match: * and If-Match: ETag, since 2024).
 *
 * <p>Guarantees every implementation MUST give, in addition to {@link StorageService}'s:
 *
 * <ul>
 *   <li>The check and the write are one atomic step: of two concurrent conditional puts that expect
 *       the same state, at most one succeeds.
 *   <li>A put whose condition does not hold fails with {@link PreconditionFailedException} and has
 *       no effect.
 *   <li>A put that lost a race with a concurrent write of the same URI MAY fail with {@link
 *       ConflictException} (S3's 409) instead; it had no effect and may be retried, after which it
 *       typically fails with {@link PreconditionFailedException}.
 * </ul>
 *
 * <p>Use: check with {@code instanceof} (or {@link #of(StorageService)}), then use the conditional
 * form; fall back to timing-based protocols when the ability is missing.
 */
public interface SupportsConditionalPut extends StorageService {

  /** Stores the item only if there is no item at {@code uri} (If-None-Match: *). */
  CompletableFuture<ItemVersion> putIfAbsent(
      String uri, byte[] payload, Map<String, String> metadata);

  /**
   * Stores the item only if the current item's version equals {@code expectedVersion} (If-Match).
   * Fails with {@link PreconditionFailedException} when the item is absent or has another version.
   */
  CompletableFuture<ItemVersion> putIfVersionMatches(
      String uri, byte[] payload, Map<String, String> metadata, String expectedVersion);

  /** {@code storage} as conditional storage, or null when it lacks the ability. */
  static @Nullable SupportsConditionalPut of(StorageService storage) {
    return storage instanceof SupportsConditionalPut ? (SupportsConditionalPut) storage : null;
  }
}
