package io.stratus.core;

import io.stratus.IndexNotAttachedException;
import io.stratus.btree.SecondaryKeys;
import io.stratus.core.Catalog.CollectionDef;
import io.stratus.core.Catalog.IndexDef;
import io.stratus.pagemanager.PageStore;
import io.stratus.protocols.LogicalChange;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import java.util.function.Consumer;
import org.jspecify.annotations.Nullable;

/**
 * The secondary-index side of one transaction's writes: which indexes a record's write must
 * change, the record's search key in each (size-checked before anything changes), and the entry
 * changes themselves, in the transaction's pages and log for a client-side tree, or staged in its
 * {@link ServiceEntries} for an index held by the index service.
 *
 * <p>Not thread-safe: used by its transaction's thread only.
 */
final class IndexMaintenance {
  private static final byte[] NONE = new byte[0];

  private final Database db;
  private final PageStore view;
  private final ServiceEntries serviceEntries;
  private final Consumer<LogicalChange> log;

  /**
   * The index maintenance of a transaction that reads and writes pages through {@code view},
   * stages service-held entries in {@code serviceEntries} and logs each tree change with {@code
   * log}.
   */
  IndexMaintenance(
      Database db, PageStore view, ServiceEntries serviceEntries, Consumer<LogicalChange> log) {
    this.db = db;
    this.view = view;
    this.serviceEntries = serviceEntries;
    this.log = log;
  }

  /** An index with its attached extractor. */
  record Attached(IndexDef def, IndexKeyExtractor extractor) {}

  /**
   * Every index of {@code c} with its extractor.
   *
   * @throws IndexNotAttachedException when one has no extractor in this process
   */
  List<Attached> attached(CollectionDef c) {
    List<Attached> out = new ArrayList<>(c.indexes.size());
    for (IndexDef d : c.indexes.values()) {
      IndexKeyExtractor f = db.extractor(c.name, d.name());
      if (f == null) {
        throw new IndexNotAttachedException(c.name, d.name());
      }
      out.add(new Attached(d, f));
    }
    return out;
  }

  /**
   * Each index's search key for a record about to be written (null: not indexed), every entry
   * checked to fit its index.
   *
   * @throws io.stratus.RecordTooLargeException when an entry does not fit
   */
  List<byte[]> newSearchKeys(List<Attached> indexes, byte[] k, byte[] p) {
    List<byte[]> out = new ArrayList<>(indexes.size());
    for (Attached a : indexes) {
      byte[] s = searchKey(a, k, p);
      if (s != null) {
        checkEntry(a.def(), s, k);
      }
      out.add(s);
    }
    return out;
  }

  /** Each index's search key for a stored record (null: not indexed). */
  List<byte[]> searchKeys(List<Attached> indexes, byte[] k, byte[] p) {
    List<byte[]> out = new ArrayList<>(indexes.size());
    for (Attached a : indexes) {
      out.add(searchKey(a, k, p));
    }
    return out;
  }

  private static byte @Nullable [] searchKey(Attached index, byte[] k, byte[] p) {
    return index.extractor().extract(k.clone(), p.clone()).map(byte[]::clone).orElse(null);
  }

  /** Adds the entries of a created record. */
  void created(List<Attached> indexes, List<byte[]> searchKeys, byte[] k) {
    for (int i = 0; i < indexes.size(); i++) {
      insert(indexes.get(i).def(), searchKeys.get(i), k);
    }
  }

  /** Moves the entries of an updated record from its old search keys to its new ones. */
  void updated(List<Attached> indexes, List<byte[]> oldKeys, List<byte[]> newKeys, byte[] k) {
    for (int i = 0; i < indexes.size(); i++) {
      IndexDef d = indexes.get(i).def();
      byte[] before = oldKeys.get(i);
      byte[] after = newKeys.get(i);
      if (!Arrays.equals(before, after)) { // an index entry changes by delete + insert
        delete(d, before, k);
        insert(d, after, k);
      } else {
        reassert(d, after, k);
      }
    }
  }

  /** Removes the entries of a deleted record. */
  void deleted(List<Attached> indexes, List<byte[]> oldKeys, byte[] k) {
    for (int i = 0; i < indexes.size(); i++) {
      delete(indexes.get(i).def(), oldKeys.get(i), k);
    }
  }

  /**
   * The entries ({search key, record key}) of {@code index} that the records of {@code keys} have
   * and the index lacks, as the transaction sees both; each checked to fit.
   */
  List<byte[][]> missing(
      CollectionDef c, IndexDef index, IndexKeyExtractor extractor, List<Key> keys) {
    List<byte[][]> missing = new ArrayList<>();
    for (Key key : keys) {
      byte[] k = key.toBytes();
      Optional<byte[]> p = c.primary.get(view, k);
      Optional<byte[]> s = p.flatMap(v -> extractor.extract(k.clone(), v.clone()));
      // A service index takes a put of an entry it has (idempotent) as one it lacks.
      if (s.isPresent()
          && (index.domain().isPresent()
              || index.tree().get(view, SecondaryKeys.compose(s.get(), k)).isEmpty())) {
        checkEntry(index, s.get(), k);
        missing.add(new byte[][] {s.get().clone(), k});
      }
    }
    return missing;
  }

  /** Adds the entries {@link #missing} found. */
  void add(IndexDef index, List<byte[][]> entries) {
    entries.forEach(e -> insert(index, e[0], e[1]));
  }

  private void checkEntry(IndexDef index, byte[] searchKey, byte[] recordKey) {
    if (index.domain().isPresent()) {
      ServiceEntries.check(db.indexService(index), searchKey, recordKey);
    } else {
      index.tree().checkEntry(view.pageSize(), SecondaryKeys.compose(searchKey, recordKey), NONE);
    }
  }

  private void insert(IndexDef index, byte @Nullable [] searchKey, byte[] recordKey) {
    if (searchKey != null && index.domain().isPresent()) {
      serviceEntries.insert(index, SecondaryKeys.compose(searchKey, recordKey));
    } else if (searchKey != null) {
      index.tree().insert(view, SecondaryKeys.compose(searchKey, recordKey), NONE);
      log.accept(entryChange(LogicalChange.Kind.INSERT, index, searchKey, recordKey));
    }
  }

  private void delete(IndexDef index, byte @Nullable [] searchKey, byte[] recordKey) {
    if (searchKey != null && index.domain().isPresent()) {
      // The service keeps the entry (queries drop it once its record moves): see ServiceEntries.
      serviceEntries.undo(index, SecondaryKeys.compose(searchKey, recordKey));
    } else if (searchKey != null) {
      index.tree().delete(view, SecondaryKeys.compose(searchKey, recordKey));
      log.accept(entryChange(LogicalChange.Kind.DELETE, index, searchKey, recordKey));
    }
  }

  /**
   * Logs, for an update that keeps its record's search key, a delete and an insert of the entry,
   * which collapse into a put of it (or, after a create in this transaction, into its insert). The
   * value this transaction read may be older than another writer's latest, whose update moved
   * the entry away with an older write stamp; the put, stamped with this commit, lists the record
   * again. The pages stay as they are: the entry is in them, and page-writing protocols must not
   * write the index page for it.
   */
  private void reassert(IndexDef index, byte @Nullable [] searchKey, byte[] recordKey) {
    if (searchKey != null && index.domain().isEmpty()) { // the service has it since its commit
      log.accept(entryChange(LogicalChange.Kind.DELETE, index, searchKey, recordKey));
      log.accept(entryChange(LogicalChange.Kind.INSERT, index, searchKey, recordKey));
    }
  }

  private static LogicalChange entryChange(
      LogicalChange.Kind kind, IndexDef index, byte[] searchKey, byte[] recordKey) {
    return new LogicalChange(
        kind, index.tree().rootUri(), searchKey, recordKey, Optional.empty(), true);
  }
}
