package io.stratus.cloudapi.inprocess;

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
 * The in-process storage with its conditional-put ability hidden, to reproduce S3 before 2024 and so
 * exercise the protocols' timing-only (paper-faithful) mode.
 */
final class UnconditionalStorageView implements StorageService {
  private final StorageService delegate;

  UnconditionalStorageView(StorageService delegate) {
    this.delegate = delegate;
  }

  @Override
  public CompletableFuture<ItemVersion> put(String uri, byte[] payload, Map<String, String> md) {
    return delegate.put(uri, payload, md);
  }

  @Override
  public CompletableFuture<Optional<StoredItem>> get(String uri) {
    return delegate.get(uri);
  }

  @Override
  public CompletableFuture<Optional<ItemMetadata>> getMetadata(String uri) {
    return delegate.getMetadata(uri);
  }

  @Override
  public CompletableFuture<ConditionalRead> getIfChanged(String uri, String knownVersion) {
    return delegate.getIfChanged(uri, knownVersion);
  }

  @Override
  public CompletableFuture<ConditionalRead> getIfModifiedSince(String uri, Instant since) {
    return delegate.getIfModifiedSince(uri, since);
  }

  @Override
  public CompletableFuture<ListPage> list(String prefix, Optional<String> token, int maxItems) {
    return delegate.list(prefix, token, maxItems);
  }

  @Override
  public CompletableFuture<Void> delete(String uri) {
    return delegate.delete(uri);
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
