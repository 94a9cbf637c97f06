package io.stratus.cloudapi.decorate;

import static io.stratus.cloudapi.Operation.STORAGE_DELETE;
import static io.stratus.cloudapi.Operation.STORAGE_GET;
import static io.stratus.cloudapi.Operation.STORAGE_GET_IF_CHANGED;
import static io.stratus.cloudapi.Operation.STORAGE_GET_IF_MODIFIED_SINCE;
import static io.stratus.cloudapi.Operation.STORAGE_GET_METADATA;
import static io.stratus.cloudapi.Operation.STORAGE_LIST;
import static io.stratus.cloudapi.Operation.STORAGE_PUT;

import io.stratus.cloudapi.CloudLimits;
import io.stratus.cloudapi.ConditionalRead;
import io.stratus.cloudapi.ItemMetadata;
import io.stratus.cloudapi.ItemVersion;
import io.stratus.cloudapi.ListPage;
import io.stratus.cloudapi.StorageService;
import io.stratus.cloudapi.StoredItem;
import java.time.Instant;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;

/**
 * Storage whose every call goes through an {@link InterceptorChain}. The default {@link
 * StorageService#listAll} is deliberately not overridden: it calls {@link #list}, so each page is
 * intercepted (and billed) as the one request it is. {@link #limits()} and {@link
 * #isStronglyConsistent()} are not calls and are forwarded directly.
 */
class InterceptedStorage extends InterceptedService<StorageService> implements StorageService {
  InterceptedStorage(StorageService delegate, InterceptorChain chain, boolean closesDelegate) {
    super(delegate, chain, closesDelegate ? delegate::close : null);
  }

  @Override
  public CompletableFuture<ItemVersion> put(String uri, byte[] payload, Map<String, String> md) {
    return route(
        Call.of(STORAGE_PUT, uri, Sizes.bytes(payload) + Sizes.metadata(md)),
        () -> delegate.put(uri, payload, md));
  }

  @Override
  public CompletableFuture<Optional<StoredItem>> get(String uri) {
    return route(Call.of(STORAGE_GET, uri, 0, Sizes::storedItem), () -> delegate.get(uri));
  }

  @Override
  public CompletableFuture<Optional<ItemMetadata>> getMetadata(String uri) {
    return route(
        Call.of(STORAGE_GET_METADATA, uri, 0, Sizes::itemMetadata),
        () -> delegate.getMetadata(uri));
  }

  @Override
  public CompletableFuture<ConditionalRead> getIfChanged(String uri, String knownVersion) {
    return route(
        Call.of(STORAGE_GET_IF_CHANGED, uri, 0, Sizes::conditionalRead),
        () -> delegate.getIfChanged(uri, knownVersion));
  }

  @Override
  public CompletableFuture<ConditionalRead> getIfModifiedSince(String uri, Instant since) {
    return route(
        Call.of(STORAGE_GET_IF_MODIFIED_SINCE, uri, 0, Sizes::conditionalRead),
        () -> delegate.getIfModifiedSince(uri, since));
  }

  @Override
  public CompletableFuture<ListPage> list(
      String prefix, Optional<String> continuationToken, int maxItems) {
    return route(
        Call.of(STORAGE_LIST, prefix, 0), () -> delegate.list(prefix, continuationToken, maxItems));
  }

  @Override
  public CompletableFuture<Void> delete(String uri) {
    return route(Call.of(STORAGE_DELETE, uri, 0), () -> delegate.delete(uri));
  }

  @Override
  public boolean isStronglyConsistent() {
    return delegate.isStronglyConsistent();
  }

  @Override
  public CloudLimits limits() {
    return delegate.limits();
  }
}
