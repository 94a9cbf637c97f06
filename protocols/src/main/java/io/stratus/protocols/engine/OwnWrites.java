package io.stratus.protocols.engine;

import io.stratus.StratusException;
import io.stratus.btree.BLinkTree;
import io.stratus.btree.TreeChange;
import io.stratus.pagemanager.Page;
import io.stratus.pagemanager.PageKind;
import io.stratus.pagemanager.PageStore;
import io.stratus.protocols.checkpoint.ChainState;
import io.stratus.protocols.checkpoint.WriteChains;
import io.stratus.protocols.log.LogRecord;
import io.stratus.protocols.log.PuQueues;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentNavigableMap;
import java.util.concurrent.ConcurrentSkipListMap;
import java.util.concurrent.ConcurrentSkipListSet;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Function;
import org.jspecify.annotations.Nullable;

/**
 * The read-your-writes strategy ({@link ReadYourWrites}) of the monotonic and atomic protocols (paper 001, section 5.2): this client's committed
 * records that no checkpoint has applied yet, overlaid on the leaves its transactions read.
 *
 * <p>Why it is exact: a record is no longer laid over a leaf copy once a page header says its
 * chain covers it — the data page's {@code q:<writer>} counter for an update, the tree
 * root's {@code t:<writer>} counter for an insert or delete ({@link WriteChains}) — as read
 * through the transaction's store (the buffer pool, so after at most a TTL). Until then the
 * overlay shows the client's own latest write of each key, which is what read-your-writes asks.
 *
 * <p><b>Copies held by open transactions.</b> A transaction keeps the copy of a leaf it read
 * first (repeatable read), so one transaction may still hold a copy from before a checkpoint
 * while another reads the checkpointed copy and finds a record applied. What a copy shows is
 * therefore judged per copy, and a record is forgotten only once every transaction that was open
 * when it was first found applied has ended (the reader that found it excepted: its own copy
 * shows it); transactions that begin later read copies at least as new from the pool (monotonic
 * reads). Each transaction's reads ({@link #reads}) hold a ticket, in the order they began, for
 * this.
 *
 * <p>Routing of later commits reads the pool directly, never this overlay, except that a key
 * with a pending record here sends its later records to the same queue ({@link #pendingTarget}):
 * one chain then orders them, across deletes, re-creates and splits.
 *
 * <p><b>Moved keys.</b> When the data page an update was routed to has split since and the key
 * moved right, the checkpoint of that page applies the update to the leaf now responsible and
 * counts it in its chain. The chain then proves the update applied, but this client's cached copy
 * of the other leaf may be older: the record stays until that leaf shows its value, or shows a
 * later writer's state of the key (an entry or a tombstone stamped after the record: the record
 * can never show there any more). The same holds for an insert, whose chain is the tree's root
 * while its value is in a leaf. While it stays, later records of the key follow it to the same
 * page ({@link #pendingTarget}).
 *
 * <p>Only the latest own record per key is kept (an earlier one is superseded). Thread-safe:
 * concurrent skip-list maps per tree; a record is removed only if it is still the one checked.
 * An overlaid leaf is cached (bounded) while the leaf object and its tree's records are unchanged,
 * so a leaf with pending records is not copied again for every read. Records known applied are
 * also forgotten in the background ({@link #prune}), so memory follows what is still pending.
 */
public final class OwnWrites implements ReadYourWrites {
  /** Every how many remembered records a prune is due ({@link #remember}). */
  static final int PRUNE_EVERY = 256;

  /** A pending record, where its chain is recorded, and since when it is known applied. */
  private static final class Pending {
    private final TreeChange change;

    /** The record's write stamp (the change in the overlay carries none). */
    private final long stamp;

    private final long counter;
    private final String chainKey;
    private final String chainPage;

    /** Whether the chain is a data page's (else the tree's). */
    private final boolean pageChain;

    /** When a prune first saw the chain cover the record (0: not yet). */
    private volatile long coveredSince;

    /**
     * The last ticket issued when a read or a prune first found the record applied ({@link
     * #NOT_SEEN}: not yet): readers with a later ticket began afterwards.
     */
    private volatile long seenAt = NOT_SEEN;

    Pending(
        TreeChange change,
        long stamp,
        long counter,
        String chainKey,
        String chainPage,
        boolean pageChain) {
      this.change = change;
      this.stamp = stamp;
      this.pageChain = pageChain;
      this.counter = counter;
      this.chainKey = chainKey;
      this.chainPage = chainPage;
    }

    boolean coveredBy(@Nullable Page chain) {
      return chain != null && ChainState.of(chain).applied(chainKey, counter);
    }

    /**
     * Notes that the record was found applied while {@code lastTicket} was the last ticket issued.
     * Two finders racing may leave either's ticket: each is a true observation.
     */
    void seen(long lastTicket) {
      if (seenAt == NOT_SEEN) {
        seenAt = lastTicket;
      }
    }
  }

  /** {@link Pending#seenAt} of a record not yet found applied. */
  private static final long NOT_SEEN = -1;

  /** The ticket of no reader (a prune): tickets start at 1. */
  private static final long NO_READER = 0;

  /** One tree's pending records by key, and a version that changes with them. */
  private static final class TreePending {
    final ConcurrentSkipListMap<byte[], Pending> byKey =
        new ConcurrentSkipListMap<>(Arrays::compareUnsigned);
    final AtomicLong version = new AtomicLong();

    /** What the URIs of the tree's pages start with (the root's folder). */
    final String pagePrefix;

    TreePending(String root) {
      this.pagePrefix = root.substring(0, root.lastIndexOf('/') + 1);
    }
  }

  /**
   * An overlaid leaf: valid while the leaf is the same object and its tree's version holds, or,
   * once the version moved (a record added or forgotten anywhere in the tree), while the records
   * in the leaf's range are still the same ones ({@code changes}, by identity).
   */
  private record Overlaid(Page leaf, long version, List<TreeChange> changes, Page result) {
    boolean madeOf(List<TreeChange> now) {
      if (now.size() != changes.size()) {
        return false;
      }
      for (int i = 0; i < now.size(); i++) {
        if (now.get(i) != changes.get(i)) {
          return false;
        }
      }
      return true;
    }
  }

  /** Overlaid leaves kept at most (each a page copy), so hot leaves are not merged per read. */
  private static final int MAX_CACHED = 128;

  private final Map<String, TreePending> byTree = new ConcurrentHashMap<>();
  private final AtomicLong adds = new AtomicLong();
  private final Map<String, Overlaid> cache = new ConcurrentHashMap<>();

  /** The last ticket issued to a transaction's reads ({@link #reads}). */
  private final AtomicLong tickets = new AtomicLong();

  /** The tickets of the transactions whose reads are open, lowest first. */
  private final ConcurrentSkipListSet<Long> open = new ConcurrentSkipListSet<>();

  /** An empty overlay. */
  public OwnWrites() {}

  /**
   * {@code c} without its write stamp: the overlay shows the handle's own pending value until the
   * record is known applied, and an overlaid page (which a transaction may take as its private
   * copy) gains no stamps.
   */
  private static TreeChange unstamped(TreeChange c) {
    return c.kind() == TreeChange.Kind.PUT
        ? TreeChange.put(c.key(), c.value())
        : TreeChange.delete(c.key());
  }

  /**
   * {@inheritDoc} A prune is due every {@link #PRUNE_EVERY} records.
   */
  @Override
  public boolean remember(Map<String, List<LogRecord>> byQueue) {
    int added = 0;
    for (List<LogRecord> records : byQueue.values()) {
      for (LogRecord r : records) {
        boolean secondary = r.change().secondaryIndex();
        boolean pageChain = !secondary && r.dataPageUri().isPresent();
        String chainPage = pageChain ? r.dataPageUri().get() : r.treeUri();
        Pending p =
            new Pending(
                unstamped(r.toTreeChange(secondary)),
                r.writeStamp(),
                r.clientCounter(),
                WriteChains.key(r.clientId(), !pageChain),
                chainPage,
                pageChain);
        TreePending tree = byTree.computeIfAbsent(r.treeUri(), TreePending::new);
        tree.byKey.put(p.change.key(), p);
        tree.version.incrementAndGet();
        added++;
      }
    }
    long before = adds.getAndAdd(added);
    return before / PRUNE_EVERY != (before + added) / PRUNE_EVERY;
  }

  /**
   * Forgets the records that are applied, without waiting for a read of their leaf: the overlay
   * forgets a record only when a read shows it, so keys written and never read again (order
   * lines, say) would stay for the handle's life. A record goes once {@code chainPage} (the pool:
   * the tree root or data page, fetched if needed) has shown its chain covering it for longer than
   * {@code ttlMillis}: by then every cached copy of its leaf that predates the apply has expired,
   * so no read can miss it — and once every transaction open when a prune first saw it applied
   * has ended, since those may hold older copies. Runs in the background.
   *
   * @return how many records were forgotten
   */
  @Override
  public int prune(Function<String, Optional<Page>> chainPage, long nowMillis, long ttlMillis) {
    int removed = 0;
    Map<String, Optional<Page>> chains = new HashMap<>();
    for (TreePending tree : byTree.values()) {
      for (Map.Entry<byte[], Pending> e : tree.byKey.entrySet()) {
        Pending p = e.getValue();
        if (!p.coveredBy(chains.computeIfAbsent(p.chainPage, chainPage).orElse(null))) {
          continue;
        }
        if (p.coveredSince == 0) {
          p.coveredSince = nowMillis;
          p.seen(tickets.get());
        } else if (nowMillis - p.coveredSince > ttlMillis
            && forgettable(p, NO_READER)
            && tree.byKey.remove(e.getKey(), p)) {
          tree.version.incrementAndGet();
          removed++;
        }
      }
    }
    return removed;
  }

  /**
   * {@inheritDoc} A record whose tree cannot be read now (dropped, a page corrupt, a read lagging)
   * stays: a later read or {@link #prune} forgets it.
   */
  @Override
  public int forgetApplied(PageStore pages, Set<String> chainPages) {
    int removed = 0;
    for (Map.Entry<String, TreePending> t : byTree.entrySet()) {
      TreePending tree = t.getValue();
      BLinkTree index = BLinkTree.open(t.getKey());
      Page leaf = null;
      try {
        for (Map.Entry<byte[], Pending> e : tree.byKey.entrySet()) { // in key order
          Pending p = e.getValue();
          if (!chainPages.contains(p.chainPage)
              || !p.coveredBy(pages.read(p.chainPage).orElse(null))) {
            continue;
          }
          if (leaf == null || !covers(leaf, e.getKey())) {
            leaf = pages.read(index.leafFor(pages, e.getKey())).orElse(null);
            if (leaf == null) {
              continue;
            }
          }
          if (!leaf.uri().equals(p.chainPage) && !shows(leaf, p)) {
            continue;
          }
          p.seen(tickets.get());
          if (forgettable(p, NO_READER) && tree.byKey.remove(e.getKey(), p)) {
            tree.version.incrementAndGet();
            removed++;
          }
        }
      } catch (StratusException e) {
        // Its records stay, which is what a read would find too.
      }
    }
    return removed;
  }

  /** Whether {@code key} falls in {@code leaf}'s key range. */
  private static boolean covers(Page leaf, byte[] key) {
    return Arrays.compareUnsigned(key, leaf.lowKey()) >= 0
        && leaf.highKey().map(h -> Arrays.compareUnsigned(key, h) < 0).orElse(true);
  }

  @Override
  public int pending() {
    return byTree.values().stream().mapToInt(t -> t.byKey.size()).sum();
  }

  /**
   * The queue (a data page's, or the tree's) that carries this client's latest record of {@code
   * key} in {@code treeUri}, while that record is not yet seen applied: later records of the key
   * follow it there, into the same chain.
   */
  @Override
  public Optional<PuQueues.Target> pendingTarget(String treeUri, byte[] key) {
    TreePending tree = byTree.get(treeUri);
    Pending p = tree == null ? null : tree.byKey.get(key);
    if (p == null) {
      return Optional.empty();
    }
    return Optional.of(
        p.pageChain
            ? new PuQueues.Target(PuQueues.Kind.DATA_PAGE, p.chainPage)
            : new PuQueues.Target(PuQueues.Kind.PRIMARY_TREE, p.chainPage));
  }

  /**
   * Whether {@code leaf} shows {@code p}'s change (its value, or the key's absence), or a later
   * writer's state of the key: an entry or a tombstone stamped after the record, over which the
   * record can never show.
   */
  private static boolean shows(Page leaf, Pending p) {
    byte[] key = p.change.key();
    int i = leaf.indexOf(key);
    long there = i >= 0 ? leaf.stamp(i) : leaf.tombstoneStamp(key);
    if (p.stamp > 0 && there > p.stamp) {
      return true;
    }
    if (p.change.kind() == TreeChange.Kind.DELETE) {
      return i < 0;
    }
    return i >= 0 && Arrays.equals(leaf.value(i), p.change.value());
  }

  /**
   * Whether {@code p}, found applied, can no longer be missing from a copy that an open
   * transaction other than {@code reader} holds: every such transaction began after it was found.
   * A transaction that took its ticket but is not yet listed as open reads nothing before it is,
   * and so reads copies at least as new as the one that showed the record applied.
   */
  private boolean forgettable(Pending p, long reader) {
    long seen = p.seenAt;
    if (seen == NOT_SEEN) {
      return false;
    }
    for (long t : open) { // lowest first: at most two are looked at
      if (t != reader) {
        return t > seen;
      }
    }
    return true;
  }

  /**
   * {@inheritDoc} Each call takes the next ticket; the reads stay open, holding back the
   * forgetting of records found applied meanwhile, until closed.
   */
  @Override
  public Reads reads() {
    long ticket = tickets.incrementAndGet();
    open.add(ticket);
    return new Reads() {
      @Override
      public Page overlay(PageStore pages, Page leaf) {
        return OwnWrites.this.overlay(ticket, pages, leaf);
      }

      @Override
      public void close() {
        open.remove(ticket);
      }
    };
  }

  private Page overlay(long reader, PageStore pages, Page leaf) {
    if (leaf.kind() != PageKind.LEAF || byTree.isEmpty()) {
      return leaf;
    }
    for (TreePending tree : byTree.values()) {
      if (!leaf.uri().startsWith(tree.pagePrefix)) {
        continue;
      }
      long version = tree.version.get(); // before reading the records: a later add invalidates
      Overlaid cached = cache.get(leaf.uri());
      if (cached != null && cached.leaf() == leaf && cached.version() == version) {
        return cached.result();
      }
      ConcurrentNavigableMap<byte[], Pending> range = tree.byKey.tailMap(leaf.lowKey(), true);
      Optional<byte[]> high = leaf.highKey();
      if (high.isPresent()) {
        range = range.headMap(high.get(), false);
      }
      List<TreeChange> unapplied = new ArrayList<>();
      // Most pending records of a range share their chain's page (the tree root for inserts):
      // read each once per overlay, not once per record.
      Map<String, Optional<Page>> chainPages = new HashMap<>();
      for (Map.Entry<byte[], Pending> e : range.entrySet()) {
        Pending p = e.getValue();
        @Nullable Page chain =
            p.chainPage.equals(leaf.uri())
                ? leaf
                : chainPages.computeIfAbsent(p.chainPage, pages::read).orElse(null);
        // Applied only if the page the read used shows it: the chain's page (a tree root) may
        // be a fresher copy than the leaf, which can predate the checkpoint that applied it.
        if (p.coveredBy(chain) && (chain == leaf || shows(leaf, p))) {
          p.seen(tickets.get());
          // This copy has it; forgotten once no other open transaction may hold an older copy.
          if (forgettable(p, reader) && tree.byKey.remove(e.getKey(), p)) {
            tree.version.incrementAndGet();
          }
          continue;
        }
        unapplied.add(p.change); // in key order: the map is sorted
      }
      if (unapplied.isEmpty()) {
        cache.remove(leaf.uri());
        return leaf;
      }
      if (cached != null && cached.leaf() == leaf && cached.madeOf(unapplied)) {
        // The tree's version moved for records outside this leaf: the copy made still holds.
        cache.put(leaf.uri(), new Overlaid(leaf, version, cached.changes(), cached.result()));
        return cached.result();
      }
      // One pass over the leaf: a leaf may have many pending records (a session's inserts before
      // the tree's checkpoint), and one page copy per record made reads quadratic.
      Page result = BLinkTree.overlay(leaf, unapplied);
      if (cache.size() >= MAX_CACHED) {
        cache.clear(); // crude, but bounded and cheap; hot leaves come back at once
      }
      cache.put(leaf.uri(), new Overlaid(leaf, version, unapplied, result));
      return result;
    }
    return leaf;
  }
}
