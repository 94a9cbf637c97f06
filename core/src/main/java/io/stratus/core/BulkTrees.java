package io.stratus.core;

import io.stratus.InvalidRequestException;
import io.stratus.btree.BLinkTree;
import io.stratus.btree.BulkLoader;
import io.stratus.btree.SecondaryKeys;
import io.stratus.btree.TreeChange;
import io.stratus.btree.TreeCursor;
import io.stratus.cloudapi.CloudFutures;
import io.stratus.cloudapi.ItemVersion;
import io.stratus.core.Catalog.CollectionDef;
import io.stratus.pagemanager.BufferPool;
import io.stratus.pagemanager.Keys;
import io.stratus.pagemanager.Page;
import io.stratus.pagemanager.PageTransaction;
import io.stratus.pagemanager.PageWriter;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;

/**
 * Whole trees built bottom-up with full pages and written at once: a bulk load into an empty
 * collection (paper 000, section 7.7), and a new secondary index over a collection's records.
 * Every page is put once, the roots last, so a reader sees a tree either as it was or whole. A
 * load keeps the tombstones of the trees it replaces (the stamps of deletes applied to the
 * collection, kept against older records of those keys that may still arrive), except those of
 * keys it loads.
 *
 * <p>Thread-safe: it holds no state of its own beyond what it is given.
 */
final class BulkTrees {
  private final BufferPool pool;
  private final PageWriter writer;
  private final int pageSize;

  BulkTrees(BufferPool pool, PageWriter writer, int pageSize) {
    this.pool = pool;
    this.writer = writer;
    this.pageSize = pageSize;
  }

  /**
   * Loads {@code records} into the empty collection {@code def} and the indexes {@code attached}
   * (every index of the collection, with its extractor).
   */
  BulkLoadResult bulkLoad(
      String collection,
      CollectionDef def,
      Map<String, IndexKeyExtractor> attached,
      Iterable<Record> records,
      ServiceIndexes services) {
    Map<String, List<TreeChange>> tombstones = new HashMap<>();
    try (PageTransaction pages = pool.begin()) {
      if (def.primary.scan(pages, io.stratus.btree.KeyRange.all()).hasNext()) {
        throw new InvalidRequestException(
            "bulk load needs an empty collection, and " + collection + " has records");
      }
      tombstones.put(def.primary.rootUri(), def.primary.tombstones(pages));
      for (String index : attached.keySet()) {
        Catalog.IndexDef d = def.index(index);
        if (d.domain().isPresent()) {
          continue; // entries in the index service: no pages
        }
        BLinkTree tree = d.tree();
        tombstones.put(tree.rootUri(), tree.tombstones(pages));
      }
    }
    List<TreeCursor.Entry> sorted = new ArrayList<>();
    for (Record r : records) {
      byte[] key = r.key().toBytes();
      byte[] payload = r.payload();
      def.primary.checkEntry(pageSize, key, payload);
      sorted.add(new TreeCursor.Entry(key, payload));
    }
    sorted.sort(Comparator.comparing(TreeCursor.Entry::key, Keys.ORDER));
    for (int i = 1; i < sorted.size(); i++) {
      if (Arrays.equals(sorted.get(i - 1).key(), sorted.get(i).key())) {
        throw new InvalidRequestException(
            "bulk load of "
                + collection
                + ": key "
                + Key.ofBytes(sorted.get(i).key())
                + " occurs twice");
      }
    }
    List<Page> pages =
        new ArrayList<>(build(def.primary, sorted, tombstonesOf(tombstones, def.primary)));
    List<String> roots = new ArrayList<>();
    long indexEntries = 0;
    for (Map.Entry<String, IndexKeyExtractor> e : attached.entrySet()) {
      Catalog.IndexDef d = def.index(e.getKey());
      if (d.domain().isPresent()) {
        // Put before any root is written, so the service holds every entry of a visible record.
        indexEntries += services.fill(d, ServiceIndexes.entries(sorted, e.getValue()));
        continue;
      }
      BLinkTree index = d.tree();
      List<TreeCursor.Entry> entries = indexEntries(sorted, e.getValue(), index);
      indexEntries += entries.size();
      pages.addAll(build(index, entries, tombstonesOf(tombstones, index)));
      roots.add(index.rootUri());
    }
    roots.add(def.primary.rootUri()); // the collection's root last: it makes the load visible
    writeNewTrees(pages, roots);
    return new BulkLoadResult(sorted.size(), indexEntries, pages.size());
  }

  /** The tombstones read of {@code tree} before the load (every tree it builds has them). */
  private static List<TreeChange> tombstonesOf(
      Map<String, List<TreeChange>> tombstones, BLinkTree tree) {
    List<TreeChange> t = tombstones.get(tree.rootUri());
    if (t == null) {
      throw new IllegalStateException("the bulk load read no tombstones of " + tree.rootUri());
    }
    return t;
  }

  /** Builds and writes the index {@code index} over every record of {@code def}. */
  void buildIndex(CollectionDef def, BLinkTree index, IndexKeyExtractor extractor) {
    List<Page> pages = build(index, indexEntries(recordsOf(def), extractor, index), List.of());
    writeNewTrees(pages, List.of(index.rootUri()));
  }

  /** Every record of {@code def}, in key order, as tree entries (the collection is read whole). */
  List<TreeCursor.Entry> recordsOf(CollectionDef def) {
    List<TreeCursor.Entry> all = new ArrayList<>();
    try (PageTransaction pages = pool.begin()) {
      TreeCursor c = def.primary.scan(pages, io.stratus.btree.KeyRange.all());
      while (c.hasNext()) {
        all.add(c.next());
      }
    }
    return all;
  }

  /** The entries of an index over {@code records}, sorted, each checked for size. */
  private List<TreeCursor.Entry> indexEntries(
      List<TreeCursor.Entry> records, IndexKeyExtractor extractor, BLinkTree index) {
    byte[] none = new byte[0];
    List<TreeCursor.Entry> entries = new ArrayList<>();
    for (TreeCursor.Entry e : records) {
      byte[] recordKey = e.key();
      Optional<byte[]> search = extractor.extract(recordKey, e.value());
      if (search.isPresent()) {
        byte[] composite = SecondaryKeys.compose(search.get(), recordKey);
        index.checkEntry(pageSize, composite, none);
        entries.add(new TreeCursor.Entry(composite, none));
      }
    }
    entries.sort(Comparator.comparing(TreeCursor.Entry::key, Keys.ORDER));
    return entries;
  }

  /**
   * The pages of {@code tree} built bottom-up from sorted entries, keeping {@code tombstones} of
   * keys not loaded, not yet written anywhere.
   */
  private List<Page> build(
      BLinkTree tree, List<TreeCursor.Entry> sortedEntries, List<TreeChange> tombstones) {
    StagingPageStore staging = new StagingPageStore(pageSize);
    BulkLoader.forTree(tree).load(staging, sortedEntries.iterator(), tombstones);
    return staging.pages();
  }

  /**
   * Puts freshly built trees: every page but the roots concurrently (nothing refers to them yet),
   * then the roots in the given order, each of which makes its tree whole. Built roots replace
   * what is stored at their URIs (an empty root, or what a failed earlier build left).
   */
  private void writeNewTrees(List<Page> pages, List<String> rootUris) {
    Map<String, Page> roots = new HashMap<>();
    List<CompletableFuture<ItemVersion>> puts = new ArrayList<>();
    for (Page p : pages) {
      if (rootUris.contains(p.uri())) {
        roots.put(p.uri(), p);
      } else {
        puts.add(writer.put(p, PageWriter.Condition.none())); // new pages: nobody saw them
      }
    }
    for (CompletableFuture<ItemVersion> f : puts) {
      CloudFutures.await(f);
    }
    for (String uri : rootUris) {
      Page root = roots.get(uri);
      if (root == null) {
        throw new IllegalStateException("the bulk load wrote no root at " + uri);
      }
      // It replaces the root readers have seen: the writer stamps it above what they saw.
      writer.write(root, 0, PageWriter.Condition.none());
    }
  }
}
