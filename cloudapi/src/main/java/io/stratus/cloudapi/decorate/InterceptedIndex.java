package io.stratus.cloudapi.decorate;

import static io.stratus.cloudapi.Operation.INDEX_CREATE_DOMAIN;
import static io.stratus.cloudapi.Operation.INDEX_DELETE;
import static io.stratus.cloudapi.Operation.INDEX_DELETE_BATCH;
import static io.stratus.cloudapi.Operation.INDEX_DELETE_DOMAIN;
import static io.stratus.cloudapi.Operation.INDEX_GET;
import static io.stratus.cloudapi.Operation.INDEX_PUT;
import static io.stratus.cloudapi.Operation.INDEX_PUT_BATCH;
import static io.stratus.cloudapi.Operation.INDEX_QUERY;

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
 * An index service whose every call goes through an {@link InterceptorChain}. The target of every
 * call is the domain; items are sized as their name plus attribute names and values ({@link
 * Sizes#indexItem}). {@link #limits()} and {@link #isStronglyConsistent()} are not calls and are
 * forwarded directly.
 */
final class InterceptedIndex extends InterceptedService<IndexService> implements IndexService {
  InterceptedIndex(IndexService delegate, InterceptorChain chain, boolean closesDelegate) {
    super(delegate, chain, closesDelegate ? delegate::close : null);
  }

  @Override
  public CompletableFuture<Void> createDomain(String domain, Set<String> queryAttributes) {
    return route(
        Call.of(INDEX_CREATE_DOMAIN, domain, 0),
        () -> delegate.createDomain(domain, queryAttributes));
  }

  @Override
  public CompletableFuture<Void> deleteDomain(String domain) {
    return route(Call.of(INDEX_DELETE_DOMAIN, domain, 0), () -> delegate.deleteDomain(domain));
  }

  @Override
  public CompletableFuture<Void> put(String domain, IndexItem item) {
    return route(
        Call.of(INDEX_PUT, domain, Sizes.indexItem(item)), () -> delegate.put(domain, item));
  }

  @Override
  public CompletableFuture<Void> putBatch(String domain, List<IndexItem> items) {
    return route(
        Call.of(INDEX_PUT_BATCH, domain, Sizes.indexItems(items)),
        () -> delegate.putBatch(domain, items));
  }

  @Override
  public CompletableFuture<Optional<IndexItem>> get(String domain, String itemName) {
    return route(
        Call.of(
            INDEX_GET, domain, 0, (Optional<IndexItem> r) -> r.map(Sizes::indexItem).orElse(0L)),
        () -> delegate.get(domain, itemName));
  }

  @Override
  public CompletableFuture<Void> delete(String domain, String itemName) {
    return route(Call.of(INDEX_DELETE, domain, 0), () -> delegate.delete(domain, itemName));
  }

  @Override
  public CompletableFuture<Void> deleteBatch(String domain, List<String> itemNames) {
    return route(
        Call.of(INDEX_DELETE_BATCH, domain, 0), () -> delegate.deleteBatch(domain, itemNames));
  }

  @Override
  public CompletableFuture<IndexPage> query(String domain, IndexQuery query) {
    return route(
        Call.of(INDEX_QUERY, domain, 0, (IndexPage p) -> Sizes.indexItems(p.items())),
        () -> delegate.query(domain, query));
  }

  @Override
  public boolean isStronglyConsistent() {
    return delegate.isStronglyConsistent();
  }

  @Override
  public IndexLimits limits() {
    return delegate.limits();
  }
}
