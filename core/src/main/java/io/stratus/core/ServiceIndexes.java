package io.stratus.core;

import io.stratus.btree.SecondaryKeys;
import io.stratus.btree.TreeCursor;
import io.stratus.cloudapi.CloudFutures;
import io.stratus.cloudapi.IndexItem;
import io.stratus.cloudapi.IndexService;
import io.stratus.core.Catalog.IndexDef;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * Creates and fills the domains of indexes held by the index service ({@link
 * IndexPlacement#INDEX_SERVICE}): at the index's creation from the collection's records, and at a
 * bulk load. The service has no bulk load (paper 000, section 7.7): entries go in batches of the
 * service's largest, one request each. Stateless apart from the handle it serves; thread-safe.
 */
final class ServiceIndexes {
  private final Database db;

  ServiceIndexes(Database db) {
    this.db = db;
  }

  /** Creates the domain of {@code index} (idempotent). */
  void createDomain(IndexDef index) {
    CloudFutures.await(
        db.indexService(index)
            .createDomain(index.domain().orElseThrow(), Set.of(ServiceEntries.ATTRIBUTE)));
  }

  /**
   * Puts the entries {@code composites} into the domain of {@code index}, each checked against
   * the service's limits before any is put.
   *
   * @return how many were put
   */
  long fill(IndexDef index, List<byte[]> composites) {
    IndexService service = db.indexService(index);
    for (byte[] c : composites) {
      ServiceEntries.check(service, SecondaryKeys.searchKey(c), SecondaryKeys.recordKey(c));
    }
    int batch = service.limits().maxBatchSize();
    for (int from = 0; from < composites.size(); from += batch) {
      List<IndexItem> items = new ArrayList<>(batch);
      for (byte[] c : composites.subList(from, Math.min(composites.size(), from + batch))) {
        items.add(ServiceEntries.item(c));
      }
      String domain = index.domain().orElseThrow();
      CloudFutures.await(
          items.size() == 1 ? service.put(domain, items.get(0)) : service.putBatch(domain, items));
    }
    return composites.size();
  }

  /** The entries (composite keys) of an index with {@code extractor} over {@code records}. */
  static List<byte[]> entries(List<TreeCursor.Entry> records, IndexKeyExtractor extractor) {
    List<byte[]> out = new ArrayList<>();
    for (TreeCursor.Entry e : records) {
      Optional<byte[]> search = extractor.extract(e.key().clone(), e.value().clone());
      search.ifPresent(s -> out.add(SecondaryKeys.compose(s, e.key())));
    }
    return out;
  }
}
