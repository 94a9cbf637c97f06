package io.stratus.cloudapi;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;

/**
 * A reliable store of items (payload, user metadata, version, last-modified time) named by URI:
 * paper 000, section 2.3.1, as S3 offers it today.
 *
 * <p>Guarantees every implementation MUST give:
 *
 * <ul>
 *   <li><b>Durability.</b> A put whose future completed normally is never lost; only a later put or
 *       delete of the same URI replaces it.
 *   <li><b>Atomic items.</b> A get returns the payload and metadata of exactly one put, never a mix.
 *   <li><b>Consistency.</b> Either strong (read-after-write: a get, get-metadata or list that starts
 *       after a put or delete completed reflects it, as S3 does since 2020), or eventual: such a read
 *       may return an older version or miss the change for a bounded window, and after the window
 *       every read reflects it. {@link #isStronglyConsistent()} says which. The 2008 protocols are
 *       designed to survive the eventual form.
 *   <li><b>Versions.</b> The version (S3's ETag) MUST change whenever the payload changes. It MAY stay
 *       the same when only the metadata changes or an identical payload is put again, so callers
 *       that must notice metadata changes have to compare the metadata, not only the version.
 *   <li><b>Limits.</b> A request that breaks the service's {@link #limits()} MUST fail with {@link
 *       LimitExceededException} and have no effect.
 *   <li><b>Failures</b> use the {@link CloudException} hierarchy only.
 * </ul>
 *
 * <p>Absent items are not errors: reads return {@link Optional#empty()} or {@link
 * ConditionalRead.Status#ABSENT}; delete of an absent item succeeds.
 *
 * <p>Conditional writes are an optional ability: implementations that offer them also implement
 * {@link SupportsConditionalPut}. Implementations MUST be thread-safe.
 */
public interface StorageService extends AutoCloseable {

  /**
   * Stores {@code payload} with {@code metadata} at {@code uri}, replacing any item there.
   *
   * <p>MUST be atomic: a concurrent reader sees either the old or the new item. The caller MUST NOT
   * change {@code payload} until the future completes.
   */
  CompletableFuture<ItemVersion> put(String uri, byte[] payload, Map<String, String> metadata);

  /** Reads the item at {@code uri}, or empty when there is none. */
  CompletableFuture<Optional<StoredItem>> get(String uri);

  /** Reads the item's metadata, version, time and size without its payload. */
  CompletableFuture<Optional<ItemMetadata>> getMetadata(String uri);

  /**
   * Reads the item only if its version differs from {@code knownVersion} (HTTP If-None-Match). The
   * exact form of the paper's getIfModifiedSince: it cannot miss a change of the payload.
   *
   * <p>MUST answer {@link ConditionalRead.Status#NOT_MODIFIED} only when the current version equals
   * {@code knownVersion}.
   */
  CompletableFuture<ConditionalRead> getIfChanged(String uri, String knownVersion);

  /**
   * Reads the item only if it was modified after {@code since} (HTTP If-Modified-Since; paper 000,
   * section 2.3.1).
   *
   * <p>MUST answer {@link ConditionalRead.Status#MODIFIED} when the item's last-modified time,
   * truncated to the store's granularity, is after {@code since}; MAY answer it in other cases too
   * (a spurious transfer is harmless). Two puts within one granule (one second on S3) can make a
   * change invisible to this form: callers that cannot tolerate that use {@link #getIfChanged}.
   */
  CompletableFuture<ConditionalRead> getIfModifiedSince(String uri, Instant since);

  /**
   * Lists items whose URI starts with {@code prefix}, in ascending UTF-8 byte order of URI.
   *
   * @param continuationToken empty for the first page, otherwise the {@link ListPage#nextToken()}
   *     of the previous page
   * @param maxItems 1 to {@link CloudLimits#maxListPageSize()}
   */
  CompletableFuture<ListPage> list(String prefix, Optional<String> continuationToken, int maxItems);

  /** Deletes the item at {@code uri}; succeeds when there is none. */
  CompletableFuture<Void> delete(String uri);

  /** Whether reads reflect every completed write at once (see the class comment). */
  boolean isStronglyConsistent();

  /** The limits this service enforces. */
  CloudLimits limits();

  /**
   * Lists every item under {@code prefix}, following continuation tokens: a convenience for small
   * listings. Each page is one request.
   */
  default CompletableFuture<List<ItemSummary>> listAll(String prefix) {
    List<ItemSummary> all = new ArrayList<>();
    return listFrom(prefix, Optional.empty(), all).thenApply(v -> all);
  }

  private CompletableFuture<Void> listFrom(
      String prefix, Optional<String> token, List<ItemSummary> into) {
    return list(prefix, token, limits().maxListPageSize())
        .thenCompose(
            page -> {
              into.addAll(page.items());
              return page.nextToken().isPresent()
                  ? listFrom(prefix, page.nextToken(), into)
                  : CompletableFuture.completedFuture(null);
            });
  }

  /** Releases client resources (connections, threads). The default holds none. */
  @Override
  default void close() {}
}
