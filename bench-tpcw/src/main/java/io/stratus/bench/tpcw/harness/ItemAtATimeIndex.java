package io.stratus.bench.tpcw.harness;

import io.stratus.cloudapi.IndexItem;
import io.stratus.cloudapi.IndexLimits;
import io.stratus.cloudapi.IndexPage;
import io.stratus.cloudapi.IndexQuery;
import io.stratus.cloudapi.IndexService;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletableFuture;

/**
 * An index service whose limits allow one item per batch, so that its clients put and delete
 * entries one request each, as SimpleDB's clients had to in 2008 (paper 000 section 2.2.4). Every
 * call goes to the service it wraps; only {@link #limits()} differs. Thread-safe as the service.
 */
final class ItemAtATimeIndex implements IndexService {
  private final IndexService service;
  private final IndexLimits limits;

  ItemAtATimeIndex(IndexService service) {
    this.service = service;
    IndexLimits l = service.limits();
    this.limits =
        IndexLimits.builder()
            .maxDomainNameLength(l.maxDomainNameLength())
            .maxItemNameLength(l.maxItemNameLength())
            .maxAttributeNameLength(l.maxAttributeNameLength())
            .maxAttributeValueLength(l.maxAttributeValueLength())
            .maxAttributesPerItem(l.maxAttributesPerItem())
            .maxItemSize(l.maxItemSize())
            .maxQueryAttributes(l.maxQueryAttributes())
            .maxBatchSize(1)
            .maxPageSize(l.maxPageSize())
            .build();
  }

  @Override
  public CompletableFuture<Void> createDomain(String domain, Set<String> queryAttributes) {
    return service.createDomain(domain, queryAttributes);
  }

  @Override
  public CompletableFuture<Void> deleteDomain(String domain) {
    return service.deleteDomain(domain);
  }

  @Override
  public CompletableFuture<Void> put(String domain, IndexItem item) {
    return service.put(domain, item);
  }

  @Override
  public CompletableFuture<Void> putBatch(String domain, List<IndexItem> items) {
    try {
      limits.checkItemBatch(items);
    } catch (RuntimeException e) {
      return CompletableFuture.failedFuture(e);
    }
    return service.putBatch(domain, items);
  }

  @Override
  public CompletableFuture<Optional<IndexItem>> get(String domain, String itemName) {
    return service.get(domain, itemName);
  }

  @Override
  public CompletableFuture<Void> delete(String domain, String itemName) {
    return service.delete(domain, itemName);
  }

  @Override
  public CompletableFuture<Void> deleteBatch(String domain, List<String> itemNames) {
    try {
      limits.checkNameBatch(itemNames);
    } catch (RuntimeException e) {
      return CompletableFuture.failedFuture(e);
    }
    return service.deleteBatch(domain, itemNames);
  }

  @Override
  public CompletableFuture<IndexPage> query(String domain, IndexQuery query) {
    return service.query(domain, query);
  }

  @Override
  public boolean isStronglyConsistent() {
    return service.isStronglyConsistent();
  }

  @Override
  public IndexLimits limits() {
    return limits;
  }

  @Override
  public void close() {
    service.close();
  }
}
