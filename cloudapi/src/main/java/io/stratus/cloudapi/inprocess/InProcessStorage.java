package io.stratus.cloudapi.inprocess;

import io.stratus.cloudapi.*;
import java.time.*;
import java.util.*;
import java.util.concurrent.CompletableFuture;

// STUB: replaced by the real implementation.
final class InProcessStorage implements SupportsConditionalPut {
  InProcessStorage(Clock clock, CloudLimits limits, StorageConsistency consistency, long seed) {}

  int itemCount() {
    return 0;
  }

  @Override
  public CompletableFuture<ItemVersion> put(String uri, byte[] payload, Map<String, String> metadata) {
    throw new UnsupportedOperationException("not implemented yet");
  }

  @Override
  public CompletableFuture<Optional<StoredItem>> get(String uri) {
    throw new UnsupportedOperationException("not implemented yet");
  }

  @Override
  public CompletableFuture<Optional<ItemMetadata>> getMetadata(String uri) {
    throw new UnsupportedOperationException("not implemented yet");
  }

  @Override
  public CompletableFuture<ConditionalRead> getIfChanged(String uri, String knownVersion) {
    throw new UnsupportedOperationException("not implemented yet");
  }

  @Override
  public CompletableFuture<ConditionalRead> getIfModifiedSince(String uri, Instant since) {
    throw new UnsupportedOperationException("not implemented yet");
  }

  @Override
  public CompletableFuture<ListPage> list(String prefix, Optional<String> continuationToken, int maxItems) {
    throw new UnsupportedOperationException("not implemented yet");
  }

  @Override
  public CompletableFuture<Void> delete(String uri) {
    throw new UnsupportedOperationException("not implemented yet");
  }

  @Override
  public boolean isStronglyConsistent() {
    throw new UnsupportedOperationException("not implemented yet");
  }

  @Override
  public CloudLimits limits() {
    throw new UnsupportedOperationException("not implemented yet");
  }

  @Override
  public CompletableFuture<ItemVersion> putIfAbsent( String uri, byte[] payload, Map<String, String> metadata) {
    throw new UnsupportedOperationException("not implemented yet");
  }

  @Override
  public CompletableFuture<ItemVersion> putIfVersionMatches( String uri, byte[] payload, Map<String, String> metadata, String expectedVersion) {
    throw new UnsupportedOperationException("not implemented yet");
  }

}
