package io.stratus.cloudapi.decorate;

import io.stratus.cloudapi.CloudFutures;
import io.stratus.cloudapi.ItemVersion;
import io.stratus.cloudapi.PreconditionFailedException;
import io.stratus.cloudapi.StoredItem;
import io.stratus.cloudapi.SupportsConditionalPut;
import java.util.Map;
import java.util.concurrent.CompletableFuture;

/** {@link FakeStorage} with conditional puts (checked and applied under the object's lock). */
class FakeConditionalStorage extends FakeStorage implements SupportsConditionalPut {

  @Override
  public synchronized CompletableFuture<ItemVersion> putIfAbsent(
      String uri, byte[] payload, Map<String, String> md) {
    callsMade.incrementAndGet();
    if (items.containsKey(uri)) {
      return CloudFutures.failed(new PreconditionFailedException(uri + " exists"));
    }
    return CompletableFuture.completedFuture(versionOf(store(uri, payload, md)));
  }

  @Override
  public synchronized CompletableFuture<ItemVersion> putIfVersionMatches(
      String uri, byte[] payload, Map<String, String> md, String expectedVersion) {
    callsMade.incrementAndGet();
    StoredItem current = items.get(uri);
    if (current == null || !current.version().equals(expectedVersion)) {
      return CloudFutures.failed(new PreconditionFailedException(uri + " has another version"));
    }
    return CompletableFuture.completedFuture(versionOf(store(uri, payload, md)));
  }
}
