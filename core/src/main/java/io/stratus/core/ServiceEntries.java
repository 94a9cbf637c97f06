package io.stratus.core;

import io.stratus.CommitFailedException;
import io.stratus.RecordTooLargeException;
import io.stratus.btree.KeyRange;
import io.stratus.btree.SecondaryKeys;
import io.stratus.cloudapi.CloudException;
import io.stratus.cloudapi.CloudFutures;
import io.stratus.cloudapi.IndexItem;
import io.stratus.cloudapi.IndexKeys;
import io.stratus.cloudapi.IndexQuery;
import io.stratus.cloudapi.IndexService;
import io.stratus.cloudapi.OutcomeUnknownException;
import io.stratus.core.Catalog.IndexDef;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.NavigableSet;
import java.util.TreeSet;

/**
 * The entries of indexes held by the index service ({@link IndexPlacement#INDEX_SERVICE}): how an
 * entry is an item, and the entries one transaction adds, put at its commit.
 *
 * <p><b>Items.</b> One item per entry, i.e. per (search key, record key) pair, in the index's
 * domain: its one query attribute {@value #ATTRIBUTE} holds the sortable encoding ({@link
 * IndexKeys#encode(byte[])}) of the entry's composite key ({@link SecondaryKeys#compose}), so the
 * service orders entries as a client-side index tree does (search key, then record key), a range
 * of search keys is one range of values, and a value names one entry, so a query page continues
 * after a value; the item name is a digest of the composite (32 hex digits), unique per entry.
 * One item per entry and not per record: an update that moves a record to another search key puts
 * the new entry and leaves the old, which readers that still see the old record need.
 *
 * <p><b>What a transaction adds.</b> The entries its writes insert, kept here until its commit
 * puts them ({@link #putAll}), before the protocol commits anything, so that the service holds
 * every entry of a commit before any reader can see the commit's records. Its deletes change
 * nothing in the service: an entry whose record no longer has its search key is a stale hint,
 * which every query drops by reading the record (docs/protocols.md says why entries are not
 * deleted). Not thread-safe: one per transaction.
 */
final class ServiceEntries {
  /** The query attribute of every domain: the entry's composite key, encoded. */
  static final String ATTRIBUTE = "k";

  private final Database db;

  /** Per index root URI: the index and the entries this transaction inserts, as composites. */
  private final Map<String, Added> added = new LinkedHashMap<>();

  /** An index and the entries a transaction inserts into it. */
  private record Added(IndexDef index, NavigableSet<byte[]> composites) {}

  ServiceEntries(Database db) {
    this.db = db;
  }

  /** The item of the entry {@code composite}. */
  static IndexItem item(byte[] composite) {
    return IndexItem.of(name(composite), ATTRIBUTE, IndexKeys.encode(composite));
  }

  /**
   * The composite key of an entry's item. Items come from queries on {@link #ATTRIBUTE}, and the
   * index service answers a query only with items that have its attribute.
   *
   * @throws IllegalArgumentException when the item has no such attribute, or its value is not an
   *     encoded key: it is no entry of this class
   */
  static byte[] composite(IndexItem item) {
    String encoded = item.get(ATTRIBUTE);
    if (encoded == null) {
      throw new IllegalArgumentException(
          "index item " + item.name() + " has no attribute " + ATTRIBUTE + ": not an index entry");
    }
    return IndexKeys.decode(encoded);
  }

  /** The item name of the entry {@code composite}. */
  static String name(byte[] composite) {
    try {
      return HexFormat.of()
          .formatHex(MessageDigest.getInstance("SHA-256").digest(composite), 0, 16);
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("every Java platform has SHA-256", e);
    }
  }

  /**
   * Refuses an entry the service cannot hold: its encoded composite is longer than the service's
   * longest value (nothing has changed yet).
   */
  static void check(IndexService service, byte[] searchKey, byte[] recordKey) {
    int bytes = IndexKeys.encode(SecondaryKeys.compose(searchKey, recordKey)).length();
    int max = service.limits().maxAttributeValueLength();
    if (bytes > max) {
      throw RecordTooLargeException.forIndexService(bytes / 2, max / 2);
    }
  }

  /** The query of {@code range} (composite keys) in {@code order}, {@code limit} per page. */
  static IndexQuery query(KeyRange range, IndexQuery.Order order, int limit) {
    IndexQuery q = IndexQuery.on(ATTRIBUTE).order(order).limit(limit);
    if (range.lowerBound().isPresent()) {
      String v = IndexKeys.encode(range.lowerBound().get());
      q = q.from(range.isLowerInclusive() ? IndexQuery.Bound.inclusive(v) : exclusive(v));
    }
    if (range.upperBound().isPresent()) {
      String v = IndexKeys.encode(range.upperBound().get());
      q = q.to(range.isUpperInclusive() ? IndexQuery.Bound.inclusive(v) : exclusive(v));
    }
    return q;
  }

  private static IndexQuery.Bound exclusive(String value) {
    return IndexQuery.Bound.exclusive(value);
  }

  /** Records that this transaction inserts the entry {@code composite} into {@code index}. */
  void insert(IndexDef index, byte[] composite) {
    added
        .computeIfAbsent(
            index.tree().rootUri(), r -> new Added(index, new TreeSet<>(Arrays::compareUnsigned)))
        .composites()
        .add(composite);
  }

  /** Forgets an insert of this transaction that a later write of it undid. */
  void undo(IndexDef index, byte[] composite) {
    Added mine = added.get(index.tree().rootUri());
    if (mine != null) {
      mine.composites().remove(composite);
    }
  }

  /** The entries this transaction inserts into {@code index} (a live view; empty when none). */
  NavigableSet<byte[]> added(IndexDef index) {
    Added mine = added.get(index.tree().rootUri());
    return mine == null ? new TreeSet<>(Arrays::compareUnsigned) : mine.composites();
  }

  /** How many entries the commit will put. */
  int size() {
    return added.values().stream().mapToInt(a -> a.composites().size()).sum();
  }

  /**
   * Puts every entry this transaction inserts, in batches of the service's largest, before the
   * commit: nothing of the commit is visible yet, so any failure leaves at most entries without
   * committed records, which queries drop.
   *
   * @throws CommitFailedException (retryable when the service's failure was) when a put failed
   */
  void putAll(String transactionId) {
    for (Added a : added.values()) {
      if (a.composites().isEmpty()) {
        continue;
      }
      IndexDef index = a.index();
      IndexService service = db.indexService(index);
      String domain = index.domain().orElseThrow();
      int batch = service.limits().maxBatchSize();
      List<IndexItem> items = new ArrayList<>(Math.min(batch, a.composites().size()));
      try {
        for (byte[] composite : a.composites()) {
          items.add(item(composite));
          if (items.size() == batch) {
            put(service, domain, items);
            items.clear();
          }
        }
        if (!items.isEmpty()) {
          put(service, domain, items);
        }
      } catch (CloudException failure) {
        throw new CommitFailedException(
            "commit of transaction "
                + transactionId
                + ": putting its entries of index "
                + index.name()
                + " into the index service failed: "
                + failure.getMessage()
                + "; nothing was committed",
            failure.isRetryable() || failure instanceof OutcomeUnknownException,
            failure);
      }
    }
  }

  private static void put(IndexService service, String domain, List<IndexItem> items) {
    CloudFutures.await(
        items.size() == 1
            ? service.put(domain, items.get(0))
            : service.putBatch(domain, List.copyOf(items)));
  }
}
