package io.stratus.cloudapi.decorate;

import io.stratus.cloudapi.CloudLimits;
import io.stratus.cloudapi.ConditionalRead;
import io.stratus.cloudapi.ItemMetadata;
import io.stratus.cloudapi.ItemSummary;
import io.stratus.cloudapi.ItemVersion;
import io.stratus.cloudapi.ListPage;
import io.stratus.cloudapi.StorageService;
import io.stratus.cloudapi.StoredItem;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentSkipListMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.Collectors;

/**
 * A small thread-safe map-backed storage for the decorator tests: strongly consistent, no limits
 * checked, every call completed before it returns. Counts the calls that reached it.
 */
class FakeStorage implements StorageService {
  final ConcurrentSkipListMap<String, StoredItem> items = new ConcurrentSkipListMap<>();
  final AtomicInteger callsMade = new AtomicInteger();
  private final AtomicLong versions = new AtomicLong();
  volatile boolean closed;

  StoredItem store(String uri, byte[] payload, Map<String, String> metadata) {
    StoredItem item =
        new StoredItem(uri, payload, metadata, "v" + versions.incrementAndGet(), Instant.EPOCH);
    items.put(uri, item);
    return item;
  }

  static ItemVersion versionOf(StoredItem item) {
    return new ItemVersion(item.version(), item.lastModified());
  }

  @Override
  public CompletableFuture<ItemVersion> put(String uri, byte[] payload, Map<String, String> md) {
    callsMade.incrementAndGet();
    return CompletableFuture.completedFuture(versionOf(store(uri, payload, md)));
  }

  @Override
  public CompletableFuture<Optional<StoredItem>> get(String uri) {
    callsMade.incrementAndGet();
    return CompletableFuture.completedFuture(Optional.ofNullable(items.get(uri)));
  }

  @Override
  public CompletableFuture<Optional<ItemMetadata>> getMetadata(String uri) {
    callsMade.incrementAndGet();
    return CompletableFuture.completedFuture(
        Optional.ofNullable(items.get(uri)).map(StoredItem::describe));
  }

  @Override
  public CompletableFuture<ConditionalRead> getIfChanged(String uri, String knownVersion) {
    callsMade.incrementAndGet();
    StoredItem item = items.get(uri);
    return CompletableFuture.completedFuture(
        item == null
            ? ConditionalRead.absent()
            : item.version().equals(knownVersion)
                ? ConditionalRead.notModified()
                : ConditionalRead.modified(item));
  }

  @Override
  public CompletableFuture<ConditionalRead> getIfModifiedSince(String uri, Instant since) {
    callsMade.incrementAndGet();
    StoredItem item = items.get(uri);
    return CompletableFuture.completedFuture(
        item == null
            ? ConditionalRead.absent()
            : item.lastModified().isAfter(since)
                ? ConditionalRead.modified(item)
                : ConditionalRead.notModified());
  }

  @Override
  public CompletableFuture<ListPage> list(String prefix, Optional<String> token, int maxItems) {
    callsMade.incrementAndGet();
    List<ItemSummary> all =
        items.tailMap(token.orElse(prefix), token.isEmpty()).values().stream()
            .filter(i -> i.uri().startsWith(prefix))
            .map(i -> new ItemSummary(i.uri(), i.size(), i.version(), i.lastModified()))
            .collect(Collectors.toList());
    List<ItemSummary> page = all.subList(0, Math.min(maxItems, all.size()));
    Optional<String> next =
        all.size() > maxItems ? Optional.of(page.get(page.size() - 1).uri()) : Optional.empty();
    return CompletableFuture.completedFuture(new ListPage(page, next));
  }

  @Override
  public CompletableFuture<Void> delete(String uri) {
    callsMade.incrementAndGet();
    items.remove(uri);
    return CompletableFuture.completedFuture(null);
  }

  @Override
  public boolean isStronglyConsistent() {
    return true;
  }

  @Override
  public CloudLimits limits() {
    return CloudLimits.aws();
  }

  @Override
  public void close() {
    closed = true;
  }
}
