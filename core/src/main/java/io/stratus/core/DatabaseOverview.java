package io.stratus.core;

import io.stratus.CorruptPageException;
import io.stratus.cloudapi.CloudFutures;
import io.stratus.cloudapi.CloudServices;
import io.stratus.cloudapi.ItemSummary;
import io.stratus.cloudapi.NotFoundException;
import io.stratus.cloudapi.QueueBacklog;
import io.stratus.cloudapi.SupportsQueueInspection;
import io.stratus.core.Catalog.CollectionDef;
import io.stratus.core.Catalog.IndexDef;
import io.stratus.protocols.StorageLayout;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;

/**
 * What a database holds, read without opening it ({@link DatabaseAdmin#overview}): its collections
 * and their indexes from the catalog, the pages of each tree from a listing of storage, optionally
 * the records of each collection, and the backlog of its pending-update and ATOMIC queues. Nothing
 * of any client's handle: no counters, no buffer pool.
 *
 * <p><b>Read-only.</b> Storage is read with plain gets and lists; queues through {@link
 * SupportsQueueInspection}, which hides and deletes nothing (queues that cannot be inspected are
 * not received from: {@link #queuesInspected()} is false). No lock is taken, nothing is created
 * or written. Immutable.
 */
public final class DatabaseOverview {
  /** How far {@link DatabaseAdmin#overview} reads. */
  public enum Depth {
    /** The catalog, one listing of the trees' pages, and the queues. */
    PAGES,
    /** {@link #PAGES}, and every leaf of every collection, to count its records. */
    RECORDS
  }

  /**
   * One index: its name, the pages of its tree (0 for an index in the index service) and where it
   * is held.
   */
  public record IndexOverview(String name, long pages, IndexPlacement placement) {}

  /**
   * One collection: its name, the pages of its primary tree, its records (present at {@link
   * Depth#RECORDS}, absent when not counted or when a page could not be read) and its indexes.
   */
  public record CollectionOverview(
      String name, long pages, OptionalLong records, List<IndexOverview> indexes) {
    public CollectionOverview {
      indexes = List.copyOf(indexes);
    }
  }

  private final String databaseUri;
  private final Optional<String> protocol;
  private final List<CollectionOverview> collections;
  private final long pages;
  private final List<QueueBacklog> queues;
  private final boolean queuesInspected;

  private DatabaseOverview(
      String databaseUri,
      Optional<String> protocol,
      List<CollectionOverview> collections,
      long pages,
      List<QueueBacklog> queues,
      boolean queuesInspected) {
    this.databaseUri = databaseUri;
    this.protocol = protocol;
    this.collections = List.copyOf(collections);
    this.pages = pages;
    this.queues = List.copyOf(queues);
    this.queuesInspected = queuesInspected;
  }

  /** The database URI. */
  public String databaseUri() {
    return databaseUri;
  }

  /** The commit protocol the catalog records, when it records one. */
  public Optional<String> protocol() {
    return protocol;
  }

  /** The collections the catalog names, by name. */
  public List<CollectionOverview> collections() {
    return collections;
  }

  /** Every page stored under the database's trees, reached or not. */
  public long pages() {
    return pages;
  }

  /** The pending-update and ATOMIC queues with their backlog. */
  public List<QueueBacklog> queues() {
    return queues;
  }

  /** Whether the queues could be inspected; false leaves {@link #queues()} empty. */
  public boolean queuesInspected() {
    return queuesInspected;
  }

  /**
   * Reads the overview of the database of {@code config}.
   *
   * @throws io.stratus.CorruptPageException when the catalog does not decode
   * @throws io.stratus.CloudServiceException when storage or a queue cannot be read
   */
  static DatabaseOverview read(DatabaseConfig config, Depth depth) {
    CloudServices services = config.services();
    StorageLayout layout = new StorageLayout(config.databaseUri());
    return CloudFailures.reading(
        () -> "reading the overview of " + config.databaseUri(),
        () -> {
          Catalog catalog = readCatalog(services, layout);
          Map<String, Long> pagesPerTree = new HashMap<>();
          long pages = 0;
          for (String prefix : List.of(layout.collectionsPrefix(), layout.indexesPrefix())) {
            for (ItemSummary s : CloudFutures.await(services.storage().listAll(prefix))) {
              pagesPerTree.merge(StorageLayout.rootOf(s.uri()), 1L, Long::sum);
              pages++;
            }
          }
          List<CollectionOverview> collections = new ArrayList<>();
          for (CollectionDef def : catalog.collections().values()) {
            List<IndexOverview> indexes = new ArrayList<>();
            for (IndexDef index : def.indexes.values()) {
              indexes.add(
                  new IndexOverview(
                      index.name(),
                      pagesPerTree.getOrDefault(index.tree().rootUri(), 0L),
                      index.placement()));
            }
            String root = def.primary.rootUri();
            collections.add(
                new CollectionOverview(
                    def.name,
                    pagesPerTree.getOrDefault(root, 0L),
                    depth == Depth.RECORDS ? countRecords(services, root) : OptionalLong.empty(),
                    indexes));
          }
          SupportsQueueInspection inspectable =
              services.hasSimpleQueues()
                  ? SupportsQueueInspection.of(services.simpleQueues())
                  : null;
          List<QueueBacklog> queues = new ArrayList<>();
          if (inspectable != null) {
            for (String prefix : List.of(layout.pendingUpdatePrefix(), layout.atomicPrefix())) {
              for (String uri : CloudFutures.await(services.simpleQueues().listQueues(prefix))) {
                try {
                  queues.add(CloudFutures.await(inspectable.inspect(uri, 0)));
                } catch (NotFoundException gone) {
                  // deleted since it was listed
                }
              }
            }
          }
          return new DatabaseOverview(
              layout.databaseUri(),
              catalog.protocol(),
              collections,
              pages,
              queues,
              inspectable != null);
        });
  }

  private static Catalog readCatalog(CloudServices services, StorageLayout layout) {
    StoredPages.Read read =
        new StoredPages(services.storage(), new VerifyFindings(1)).read(layout.catalog());
    return switch (read.state()) {
      case OK -> Catalog.fromPage(read.page());
      case ABSENT -> Catalog.EMPTY;
      default ->
          throw new CorruptPageException(
              layout.catalog(), "the catalog cannot be read or decoded; run verify");
    };
  }

  /** The entries of every leaf of the tree at {@code root}; empty when a page was not read. */
  private static OptionalLong countRecords(CloudServices services, String root) {
    VerifyFindings findings = new VerifyFindings(1);
    long[] records = {0};
    new TreeWalk(new StoredPages(services.storage(), findings), findings, root)
        .walk(leaf -> records[0] += leaf.entryCount());
    boolean whole =
        findings.counts().keySet().stream()
            .noneMatch(
                k ->
                    k == Finding.Kind.CORRUPT_PAGE
                        || k == Finding.Kind.UNREADABLE
                        || k == Finding.Kind.MISSING_PAGE
                        || k == Finding.Kind.MISSING_ROOT);
    return whole ? OptionalLong.of(records[0]) : OptionalLong.empty();
  }

  @Override
  public String toString() {
    return "DatabaseOverview{"
        + databaseUri
        + ", collections="
        + collections
        + ", pages="
        + pages
        + ", queues="
        + queues.size()
        + '}';
  }
}
