package io.stratus.core;

import io.stratus.CorruptPageException;
import io.stratus.DeadLetter;
import io.stratus.btree.SecondaryKeys;
import io.stratus.cloudapi.CloudException;
import io.stratus.cloudapi.CloudFutures;
import io.stratus.cloudapi.CloudServices;
import io.stratus.cloudapi.IndexItem;
import io.stratus.cloudapi.IndexPage;
import io.stratus.cloudapi.IndexQuery;
import io.stratus.cloudapi.ItemSummary;
import io.stratus.cloudapi.NotFoundException;
import io.stratus.cloudapi.QueueBacklog;
import io.stratus.cloudapi.SimpleQueueService;
import io.stratus.cloudapi.SupportsQueueInspection;
import io.stratus.core.Catalog.CollectionDef;
import io.stratus.core.Catalog.IndexDef;
import io.stratus.core.Finding.Kind;
import io.stratus.core.Finding.Severity;
import io.stratus.protocols.DamageReports;
import io.stratus.protocols.DeadLetters;
import io.stratus.protocols.StorageLayout;
import java.nio.ByteBuffer;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.function.BiFunction;
import java.util.function.Supplier;
import org.jspecify.annotations.Nullable;

/**
 * One read-only scan of a database (see {@link DatabaseAdmin#verify}): the catalog, the backlog of
 * the pending-update and ATOMIC queues, of the advanced atomicity queues and of the snapshot
 * archive, every tree's B-link invariants, the secondary indexes against
 * their collections, pages no tree reaches, and dead letters.
 *
 * <p><b>Read-only.</b> Pages are read with plain gets (no buffer pool, so nothing of a damaged
 * page is cached for anyone), simple queues through {@link SupportsQueueInspection} and advanced
 * queues through receives ({@link AdvancedQueueBacklogs}), which hide and delete nothing; no lock is taken and nothing is written. Queues that cannot be inspected are
 * not received from: their backlog is reported as unknown.
 *
 * <p><b>Memory.</b> Checking indexes keeps every record key of a collection, and every index entry
 * its attached extractors expect, in memory while that collection is checked.
 *
 * <p><b>Pending updates.</b> Under the queue-based protocols a committed change reaches the pages
 * only when a checkpoint applies it, so a collection and its index may disagree until then. While
 * queues hold messages (or cannot be inspected), index disagreements are warnings, not errors.
 *
 * <p>Used by one thread for one scan.
 */
final class Verifier {
  private final CloudServices services;
  private final StorageLayout layout;
  private final Clock clock;
  private final Duration checkpointInterval;

  /** Age past which an advanced atomicity message waits for recovery: twice the atomic timeout. */
  private final Duration recoveryLate;

  /**
   * Age past which an archived record outlives every use (snapshots within the lease and the
   * transaction timeout, cached copies within the TTL) by more than the checkpoints' backlog bound.
   */
  private final Duration archiveLate;

  private final BiFunction<String, String, IndexKeyExtractor> extractors;
  private final VerifyOptions options;
  private final VerifyFindings findings;
  private final StoredPages pages;
  private final Set<String> reached = new HashSet<>();
  private long trees;
  private long entries;

  /** Messages waiting in queues, or -1 when unknown. */
  private long pending;

  Verifier(
      DatabaseConfig config,
      BiFunction<String, String, IndexKeyExtractor> extractors,
      VerifyOptions options) {
    this.services = config.services();
    this.layout = new StorageLayout(config.databaseUri());
    this.clock = config.clock();
    this.checkpointInterval = config.checkpointInterval();
    this.recoveryLate = config.checkpoints().atomicTimeout().multipliedBy(2);
    this.archiveLate =
        config
            .isolation()
            .leaseTimeout()
            .plus(config.isolation().transactionTimeout())
            .plus(config.ttl())
            .plus(checkpointInterval.multipliedBy(options.backlogFactor()));
    this.extractors = extractors;
    this.options = options;
    this.findings = new VerifyFindings(options.maxFindingsPerKind());
    this.pages = new StoredPages(services.storage(), findings);
  }

  VerificationReport run() {
    Instant started = clock.instant();
    long t0 = System.nanoTime();
    Optional<Catalog> catalog = readCatalog();
    List<QueueBacklog> queues = checkQueues(started);
    Optional<List<String>> stored = listTreePages();
    if (catalog.isPresent()) {
      for (CollectionDef def : catalog.get().collections().values()) {
        checkCollection(def);
      }
    } else if (stored.isPresent()) {
      // Without a catalog the trees are still checked: every root storage holds.
      for (String uri : stored.get()) {
        if (StorageLayout.isRootUri(uri)) {
          walk(uri, leaf -> entries += leaf.entryCount());
        }
      }
    }
    if (stored.isPresent()) {
      checkUnreached(stored.get(), catalog.isPresent());
    }
    checkDeadLetters();
    return new VerificationReport(
        layout.databaseUri(),
        started,
        Duration.ofNanos(System.nanoTime() - t0),
        findings.sorted(),
        findings.counts(),
        findings.suppressed(),
        queues,
        pages.decoded(),
        trees,
        entries);
  }

  // ---- catalog ----

  private Optional<Catalog> readCatalog() {
    String uri = layout.catalog();
    StoredPages.Read read = pages.read(uri);
    reached.add(uri);
    if (read.state() == StoredPages.State.ABSENT) {
      findings.info(
          Kind.CATALOG_MISSING,
          uri,
          "no catalog: the database is empty (or the" + " database URI is wrong)");
      return Optional.of(Catalog.EMPTY);
    }
    if (!read.ok()) {
      findings.error(
          Kind.CATALOG_CORRUPT,
          uri,
          "the catalog cannot be read, so the database"
              + " cannot be opened; the trees found in storage were checked without it");
      return Optional.empty();
    }
    try {
      return Optional.of(Catalog.fromPage(read.page()));
    } catch (CorruptPageException e) {
      findings.error(
          Kind.CATALOG_CORRUPT,
          uri,
          e.getMessage() + "; the trees found in storage were checked without it");
      return Optional.empty();
    }
  }

  // ---- trees and indexes ----

  private void checkCollection(CollectionDef def) {
    String root = def.primary.rootUri();
    Set<ByteBuffer> keys = new HashSet<>();
    Map<String, Set<ByteBuffer>> expected = new TreeMap<>();
    Map<String, IndexKeyExtractor> attached = new TreeMap<>();
    for (IndexDef index : def.indexes.values()) {
      IndexKeyExtractor f = extractors.apply(def.name, index.name());
      if (f != null) {
        attached.put(index.name(), f);
        expected.put(index.name(), new HashSet<>());
      }
    }
    boolean complete =
        walk(
            root,
            leaf -> {
              for (int i = 0; i < leaf.entryCount(); i++) {
                byte[] key = leaf.key(i);
                keys.add(ByteBuffer.wrap(key));
                entries++;
                for (Map.Entry<String, IndexKeyExtractor> e : attached.entrySet()) {
                  expect(def, e.getKey(), e.getValue(), key, leaf.value(i), expected);
                }
              }
            });
    for (IndexDef index : def.indexes.values()) {
      if (index.domain().isPresent()) {
        checkServiceIndex(def, index, complete ? keys : null, expected.get(index.name()));
      } else {
        checkIndex(def, index, complete ? keys : null, expected.get(index.name()));
      }
    }
  }

  /**
   * Reads an index held by the index service whole, a page at a time, and checks that it lists
   * every record under the search key its extractor gives ({@code expected}; null when none is
   * attached). Entries whose record is gone or moved are hints the service keeps (queries drop
   * them), so they are counted, not reported one by one.
   */
  private void checkServiceIndex(
      CollectionDef def,
      IndexDef index,
      @Nullable Set<ByteBuffer> keys,
      @Nullable Set<ByteBuffer> expected) {
    String root = index.tree().rootUri();
    if (!services.hasIndex()) {
      findings.warning(
          Kind.INDEX_NOT_CHECKED,
          root,
          "index "
              + index.name()
              + " is held by an index service, and these cloud services have"
              + " none; verify with the index service configured");
      return;
    }
    String domain = index.domain().get();
    IndexQuery query = IndexQuery.on(ServiceEntries.ATTRIBUTE).limit(IndexQuery.DEFAULT_LIMIT);
    long stale = 0;
    Optional<String> token = Optional.empty();
    do {
      IndexPage page =
          CloudFutures.await(services.index().query(domain, token.map(query::after).orElse(query)));
      for (IndexItem item : page.items()) {
        byte[] composite = ServiceEntries.composite(item);
        entries++;
        boolean listed = expected != null && expected.remove(ByteBuffer.wrap(composite));
        if (keys != null && !listed) {
          stale++;
        }
      }
      token = page.nextToken();
    } while (token.isPresent());
    if (stale > 0) {
      findings.info(
          Kind.STALE_INDEX_ENTRY,
          root,
          "index "
              + index.name()
              + " (domain "
              + domain
              + " of the index service) keeps "
              + stale
              + " entries whose records are gone or moved; queries skip them");
    }
    if (keys != null && expected != null) {
      for (ByteBuffer missing : expected) {
        byte[] composite = new byte[missing.remaining()];
        missing.duplicate().get(composite);
        findings.add(
            pending == 0 ? Severity.ERROR : Severity.WARNING,
            Kind.RECORD_MISSING_FROM_INDEX,
            root,
            "record "
                + TreeWalk.show(SecondaryKeys.recordKey(composite))
                + " of "
                + def.name
                + " is not listed in domain "
                + domain
                + " of the index service under its search key "
                + TreeWalk.show(SecondaryKeys.searchKey(composite))
                + "; queries through index "
                + index.name()
                + " miss it");
      }
    }
  }

  private void expect(
      CollectionDef def,
      String index,
      IndexKeyExtractor f,
      byte[] key,
      byte[] payload,
      Map<String, Set<ByteBuffer>> expected) {
    Set<ByteBuffer> into = expected.get(index);
    if (into == null) {
      return;
    }
    try {
      f.extract(key, payload)
          .ifPresent(search -> into.add(ByteBuffer.wrap(SecondaryKeys.compose(search, key))));
    } catch (RuntimeException e) {
      expected.remove(index);
      findings.warning(
          Kind.INDEX_NOT_CHECKED,
          def.index(index).tree().rootUri(),
          "the attached extractor failed on record "
              + TreeWalk.show(key)
              + " ("
              + e
              + "); records missing from the index were not looked for");
    }
  }

  /**
   * Walks an index, checking each entry against the collection's record keys ({@code keys}; null
   * when the collection could not be read whole) and the entries its extractor expects ({@code
   * expected}; null when no extractor is attached).
   */
  private void checkIndex(
      CollectionDef def,
      IndexDef index,
      @Nullable Set<ByteBuffer> keys,
      @Nullable Set<ByteBuffer> expected) {
    String root = index.tree().rootUri();
    if (keys == null) {
      findings.info(
          Kind.INDEX_NOT_CHECKED,
          root,
          "collection "
              + def.name
              + " could not be"
              + " read whole, so this index was not compared with it");
    } else if (expected == null) {
      findings.info(
          Kind.INDEX_NOT_CHECKED,
          root,
          "no extractor is attached for this index, so"
              + " records missing from it were not looked for (attach it to check)");
    }
    Severity disagreement = pending == 0 ? Severity.ERROR : Severity.WARNING;
    String note =
        pending == 0
            ? ""
            : pending < 0
                ? " (the queues could not be inspected: a pending update may explain it)"
                : " ("
                    + pending
                    + " messages wait in queues: a checkpoint may still apply the change;"
                    + " run checkpoint-all and verify again)";
    boolean complete =
        walk(
            root,
            leaf -> {
              for (int i = 0; i < leaf.entryCount(); i++) {
                byte[] composite = leaf.key(i);
                entries++;
                if (keys == null) {
                  continue;
                }
                byte[] recordKey;
                try {
                  recordKey = SecondaryKeys.recordKey(composite);
                } catch (IllegalArgumentException e) {
                  findings.error(
                      Kind.BAD_INDEX_ENTRY,
                      leaf.uri(),
                      "entry "
                          + TreeWalk.show(composite)
                          + " is not a (search key, record key) composite: "
                          + e.getMessage());
                  continue;
                }
                if (!keys.contains(ByteBuffer.wrap(recordKey))) {
                  findings.add(
                      disagreement,
                      Kind.INDEX_ENTRY_WITHOUT_RECORD,
                      leaf.uri(),
                      "index "
                          + index.name()
                          + " lists record "
                          + TreeWalk.show(recordKey)
                          + ", which "
                          + def.name
                          + " does not hold; a probe returns a record that is not there"
                          + note);
                  if (expected != null) {
                    expected.remove(ByteBuffer.wrap(composite));
                  }
                } else if (expected != null && !expected.remove(ByteBuffer.wrap(composite))) {
                  findings.add(
                      disagreement,
                      Kind.STALE_INDEX_ENTRY,
                      leaf.uri(),
                      "index "
                          + index.name()
                          + " lists record "
                          + TreeWalk.show(recordKey)
                          + " under search key "
                          + TreeWalk.show(SecondaryKeys.searchKey(composite))
                          + ", which the record's"
                          + " extractor does not give"
                          + note);
                }
              }
            });
    if (complete && keys != null && expected != null) {
      for (ByteBuffer missing : expected) {
        byte[] composite = new byte[missing.remaining()];
        missing.duplicate().get(composite);
        findings.add(
            disagreement,
            Kind.RECORD_MISSING_FROM_INDEX,
            root,
            "record "
                + TreeWalk.show(SecondaryKeys.recordKey(composite))
                + " of "
                + def.name
                + " is not listed under its search key "
                + TreeWalk.show(SecondaryKeys.searchKey(composite))
                + "; probes miss it"
                + note);
      }
    }
  }

  /** Walks one tree; whether every page of it was read (no read failure on the way). */
  private boolean walk(String rootUri, TreeWalk.LeafVisitor visitor) {
    long failuresBefore = readFailures();
    TreeWalk walk = new TreeWalk(pages, findings, rootUri);
    walk.walk(visitor);
    trees++;
    reached.addAll(walk.reached());
    return readFailures() == failuresBefore;
  }

  private long readFailures() {
    Map<Kind, Long> c = findings.counts();
    return c.getOrDefault(Kind.CORRUPT_PAGE, 0L)
        + c.getOrDefault(Kind.MISSING_PAGE, 0L)
        + c.getOrDefault(Kind.UNREADABLE, 0L)
        + c.getOrDefault(Kind.MISSING_ROOT, 0L)
        + c.getOrDefault(Kind.LEVEL_MISMATCH, 0L);
  }

  // ---- pages no tree reaches ----

  /** Every item under the collections' and indexes' prefixes, or empty when listing failed. */
  private Optional<List<String>> listTreePages() {
    List<String> uris = new ArrayList<>();
    for (String prefix : List.of(layout.collectionsPrefix(), layout.indexesPrefix())) {
      try {
        for (ItemSummary s : CloudFutures.await(services.storage().listAll(prefix))) {
          uris.add(s.uri());
        }
      } catch (CloudException e) {
        findings.error(
            Kind.UNREADABLE,
            prefix,
            "could not list the stored pages ("
                + e.getMessage()
                + "); pages no tree reaches were not looked for");
        return Optional.empty();
      }
    }
    return Optional.of(uris);
  }

  private void checkUnreached(List<String> stored, boolean haveCatalog) {
    Set<String> storedSet = new HashSet<>(stored);
    Map<String, Integer> orphanPages = new HashMap<>();
    List<String> orphanRoots = new ArrayList<>();
    for (String uri : stored) {
      if (reached.contains(uri)) {
        continue;
      }
      if (StorageLayout.isRootUri(uri)) {
        orphanRoots.add(uri);
        continue;
      }
      String dirRoot = StorageLayout.rootOf(uri);
      if (haveCatalog && !reached.contains(dirRoot)) {
        orphanPages.merge(dirRoot, 1, Integer::sum); // reported with the orphan root
        if (storedSet.contains(dirRoot)) {
          continue;
        }
      }
      findings.warning(
          Kind.UNREACHABLE_PAGE,
          uri,
          "no tree reaches this page (left by a load"
              + " or split that did not finish, or cut off by damage reported above); it only costs"
              + " storage");
    }
    for (String root : orphanRoots) {
      int more = orphanPages.getOrDefault(root, 0);
      findings.warning(
          Kind.ORPHAN_ROOT,
          root,
          "a tree root that no catalog entry names"
              + (more > 0 ? " (with " + more + " more pages)" : "")
              + ": a collection or index"
              + " creation that did not finish; creating it again adopts it");
    }
  }

  // ---- queues ----

  private List<QueueBacklog> checkQueues(Instant now) {
    List<QueueBacklog> out = new ArrayList<>();
    if (services.hasSimpleQueues()) {
      checkSimpleQueues(now, out);
    }
    if (services.hasAdvancedQueues()) {
      checkAdvancedQueues(now, out);
    }
    return out;
  }

  private void checkSimpleQueues(Instant now, List<QueueBacklog> out) {
    SimpleQueueService queues = services.simpleQueues();
    List<String> uris = new ArrayList<>();
    for (String prefix : List.of(layout.pendingUpdatePrefix(), layout.atomicPrefix())) {
      try {
        uris.addAll(CloudFutures.await(queues.listQueues(prefix)));
      } catch (CloudException e) {
        pending = -1;
        findings.error(
            Kind.UNREADABLE,
            prefix,
            "could not list the queues (" + e.getMessage() + "); their backlog is unknown");
      }
    }
    SupportsQueueInspection inspectable = SupportsQueueInspection.of(queues);
    if (inspectable == null) {
      if (!uris.isEmpty()) {
        pending = -1;
        findings.info(
            Kind.QUEUE_NOT_INSPECTABLE,
            layout.pendingUpdatePrefix(),
            uris.size()
                + " queues, but this queue service cannot be inspected without receiving (which"
                + " would hide messages from checkpoints): their backlog is unknown");
      }
      return;
    }
    for (String uri : uris) {
      backlog(uri, () -> CloudFutures.await(inspectable.inspect(uri, options.peekPerQueue())), out)
          .ifPresent(b -> judge(b, now, uri.startsWith(layout.atomicPrefix())));
    }
  }

  /**
   * One queue's backlog as {@code read} gives it, kept in {@code out} and counted as pending; empty
   * when the queue went away since it was listed, or could not be read (an error finding: its
   * backlog is unknown).
   */
  private Optional<QueueBacklog> backlog(
      String uri, Supplier<QueueBacklog> read, List<QueueBacklog> out) {
    QueueBacklog b;
    try {
      b = read.get();
    } catch (NotFoundException gone) {
      return Optional.empty(); // deleted since it was listed
    } catch (CloudException e) {
      pending = -1;
      findings.error(
          Kind.UNREADABLE,
          uri,
          "could not read the queue (" + e.getMessage() + "); its backlog is unknown");
      return Optional.empty();
    }
    out.add(b);
    if (pending >= 0) {
      pending += b.messages();
    }
    return Optional.of(b);
  }

  /**
   * The advanced atomicity queues (a message older than {@link #recoveryLate} belongs to a commit
   * whose client stopped and that no recovery finished) and each tree's snapshot archive (a record
   * older than {@link #archiveLate} is one no checkpoint applied or collected).
   */
  private void checkAdvancedQueues(Instant now, List<QueueBacklog> out) {
    AdvancedQueueBacklogs backlogs = new AdvancedQueueBacklogs(services.advancedQueues());
    for (String prefix : List.of(layout.advancedAtomicPrefix(), layout.archivePrefix())) {
      List<String> uris;
      try {
        uris = CloudFutures.await(services.advancedQueues().listQueues(prefix));
      } catch (CloudException e) {
        pending = -1;
        findings.error(
            Kind.UNREADABLE,
            prefix,
            "could not list the advanced queues ("
                + e.getMessage()
                + "); their backlog is unknown");
        continue;
      }
      boolean archive = prefix.equals(layout.archivePrefix());
      for (String uri : uris) {
        Optional<QueueBacklog> read = backlog(uri, () -> backlogs.read(uri), out);
        if (read.isEmpty()) {
          continue;
        }
        QueueBacklog b = read.get();
        Optional<Duration> age = b.oldestAge(now);
        Duration late = archive ? archiveLate : recoveryLate;
        if (age.isPresent() && age.get().compareTo(late) > 0) {
          findings.warning(
              Kind.QUEUE_BACKLOG,
              uri,
              b.messages()
                  + (b.messages() >= AdvancedQueueBacklogs.MAX_COUNTED ? " or more" : "")
                  + " messages, the oldest "
                  + age.get()
                  + " old: more than "
                  + late
                  + (archive
                      ? " (the lease, transaction timeout and TTL a snapshot or cached copy may"
                          + " need it for, and the checkpoints' backlog bound); checkpoints do not"
                          + " apply or collect this tree's archive: run checkpoint-all"
                      : " (twice the atomic timeout); a commit whose client stopped waits for"
                          + " recovery: run recover"));
        }
      }
    }
  }

  private void judge(QueueBacklog b, Instant now, boolean atomic) {
    Optional<Duration> age = b.oldestAge(now);
    if (b.messages() == 0 || age.isEmpty()) {
      return;
    }
    Duration retention = b.retention();
    if (age.get().compareTo(retention.dividedBy(2)) > 0) {
      findings.warning(
          Kind.QUEUE_NEAR_RETENTION,
          b.uri(),
          "the oldest message is "
              + age.get()
              + " old, more than half the queue's retention of "
              + retention
              + ": at "
              + retention
              + " the queue drops it and a committed change is lost; "
              + (atomic ? "run recover now" : "run checkpoint-all now"));
    }
    Duration late = checkpointInterval.multipliedBy(options.backlogFactor());
    if (age.get().compareTo(late) > 0) {
      findings.warning(
          Kind.QUEUE_BACKLOG,
          b.uri(),
          b.messages()
              + " messages, the oldest "
              + age.get()
              + " old: more than "
              + options.backlogFactor()
              + " checkpoint intervals ("
              + late
              + "); "
              + (atomic
                  ? "the client of this ATOMIC queue may have died: run recover"
                  : "checkpoints do not keep up or no client runs them: run checkpoint-all"));
    }
  }

  // ---- dead letters ----

  /** The database's dead-letter area ({@link DeadLetters}), read only. */
  private void checkDeadLetters() {
    List<DeadLetter> letters;
    try {
      letters =
          new DeadLetters(services.storage(), null, layout, clock, new DamageReports()).list();
    } catch (RuntimeException e) {
      findings.error(
          Kind.UNREADABLE,
          layout.databaseUri(),
          "could not list dead letters (" + e.getMessage() + ")");
      return;
    }
    for (DeadLetter d : letters) {
      findings.warning(
          Kind.DEAD_LETTER,
          d.item(),
          "message "
              + d.messageId()
              + " set aside from "
              + d.queue()
              + " at "
              + d.setAsideAt()
              + ": "
              + d.reason()
              + "; its change reaches no page until it is replayed, skipped or discarded");
    }
  }
}
