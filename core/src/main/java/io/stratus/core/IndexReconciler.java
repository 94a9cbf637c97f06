package io.stratus.core;

import io.stratus.CommitFailedException;
import io.stratus.core.Catalog.CollectionDef;
import io.stratus.core.Catalog.IndexDef;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * Adds to a new index the entries of records written by handles that did not know the index yet.
 *
 * <p>Why: a handle learns of an index from its copy of the catalog, which may be a TTL old, and on
 * eventually consistent storage a fresh read may still serve the catalog from before the index
 * ({@link io.stratus.pagemanager.BufferPool#STALE_COPIES}). Records such a handle writes in that
 * while reach the collection without an entry in the index, and nothing else would ever add one:
 * acknowledged records invisible through the index. So an index is recorded in the catalog as
 * owed a reconciliation ({@link IndexDef#owedSince}); once the horizon (the TTL, plus the stale
 * copies' bound where storage reads may lag) has passed since, every handle maintains the index
 * in each write, and a pass here, after {@code checkpointAll} applied what was queued, scans the
 * collection, adds every entry the index lacks (through ordinary transactions, so it is safe beside
 * writers: an entry whose record moved or went is skipped by probes like any stale entry) and
 * records that the index owes nothing.
 *
 * <p>A handle reconciles only indexes whose extractor it has attached; others wait for one that
 * has. Thread-safe (runs on the caller's thread, state lives in the catalog).
 */
final class IndexReconciler {
  private static final System.Logger LOG = System.getLogger(IndexReconciler.class.getName());

  /** Records whose entries one transaction checks and adds. */
  private static final int BATCH = 64;

  /**
   * Records whose keys one read-only transaction lists. Why not all of them in one: the isolating
   * protocols bound every transaction by the transaction timeout, and a scan of a whole large
   * collection on a busy machine outlived it, failing the checkpoint-all pass that ran it.
   */
  static final int KEYS_PER_READ = 1_000;

  private final Database db;
  private final CatalogStore catalog;
  private final Clock clock;
  private final Duration horizon;

  /**
   * A reconciler of {@code db}'s indexes, which waits {@code horizon} after an index was recorded
   * before it trusts that every handle maintains it.
   */
  IndexReconciler(Database db, CatalogStore catalog, Clock clock, Duration horizon) {
    this.db = db;
    this.catalog = catalog;
    this.clock = clock;
    this.horizon = horizon;
  }

  /**
   * Reconciles every index owed a reconciliation for longer than the horizon whose extractor is
   * attached here.
   *
   * @return how many entries were added
   */
  long reconcileDue() {
    long added = 0;
    long now = clock.millis();
    for (CollectionDef c : catalog.current().collections().values()) {
      for (IndexDef index : c.indexes.values()) {
        if (!index.owed() || now - index.owedSince() < horizon.toMillis()) {
          continue;
        }
        IndexKeyExtractor extractor = db.extractor(c.name, index.name());
        if (extractor == null) {
          LOG.log(
              System.Logger.Level.DEBUG,
              "index {0} of {1} waits for a handle with its extractor to reconcile it",
              index.name(),
              c.name);
          continue;
        }
        added += reconcile(c.name, index.name(), extractor);
        try {
          catalog.update(cat -> settled(cat, c.name, index));
        } catch (CommitFailedException changedMeanwhile) {
          // Another handle changed the catalog (or settled the index) in a way this handle cannot
          // read yet: the next pass finds out, and reconciling again adds nothing twice.
          LOG.log(
              System.Logger.Level.DEBUG,
              "index {0} of {1}: reconciled, but not yet recorded: {2}",
              index.name(),
              c.name,
              changedMeanwhile.getMessage());
        }
      }
    }
    return added;
  }

  /**
   * Goes through {@code collection}'s records {@link #KEYS_PER_READ} at a time, each part listed
   * by a read-only transaction that goes on after the last key of the one before, and adds the
   * entries the index lacks. A record created meanwhile may be missed: its writer knew the index
   * (the horizon has passed), so its entry is there.
   */
  private long reconcile(String collection, String index, IndexKeyExtractor extractor) {
    long added = 0;
    KeyRange rest = KeyRange.all();
    while (true) {
      List<Key> keys = keysIn(collection, rest);
      for (int from = 0; from < keys.size(); from += BATCH) {
        List<Key> batch = keys.subList(from, Math.min(keys.size(), from + BATCH));
        added += db.run(tx -> tx.addMissingEntries(collection, index, extractor, batch));
      }
      if (keys.size() < KEYS_PER_READ) {
        break;
      }
      rest = KeyRange.of(keys.get(keys.size() - 1), false, null, false);
    }
    if (added > 0) {
      LOG.log(
          System.Logger.Level.INFO,
          "index {0} of {1}: added {2} entries of records written by handles that did not know"
              + " the index yet",
          index,
          collection,
          added);
    }
    return added;
  }

  /** The keys of the first {@link #KEYS_PER_READ} records of {@code collection} in {@code range}. */
  private List<Key> keysIn(String collection, KeyRange range) {
    return db.read(
        tx -> {
          List<Key> keys = new ArrayList<>();
          try (RecordCursor records = tx.scan(collection, range)) {
            while (keys.size() < KEYS_PER_READ && records.hasNext()) {
              keys.add(records.next().key());
            }
          }
          return keys;
        });
  }

  /** {@code cat} with {@code index} of {@code collection} owing nothing, if it is still the same. */
  private static Catalog settled(Catalog cat, String collection, IndexDef index) {
    CollectionDef now = cat.collection(collection).orElse(null);
    if (now == null) {
      return cat;
    }
    IndexDef def = now.indexes.get(index.name());
    if (def == null
        || def.owedSince() != index.owedSince()
        || !def.tree().rootUri().equals(index.tree().rootUri())) {
      return cat;
    }
    return cat.with(now.withIndex(def.settled()));
  }
}
