package io.stratus.protocols.isolation;

import io.stratus.CommitFailedException;
import io.stratus.InvalidRequestException;
import io.stratus.TransactionConflictException;
import io.stratus.btree.BLinkTree;
import io.stratus.btree.KeyRange;
import io.stratus.btree.TreeChange;
import io.stratus.cloudapi.CloudException;
import io.stratus.cloudapi.LockMode;
import io.stratus.cloudapi.OutcomeUnknownException;
import io.stratus.cloudapi.SupportsIntentionLocks;
import io.stratus.pagemanager.Page;
import io.stratus.pagemanager.PageKind;
import io.stratus.pagemanager.PageStore;
import io.stratus.pagemanager.ReadInterposer;
import io.stratus.pagemanager.UriKeyed;
import io.stratus.protocols.CommitResult;
import io.stratus.protocols.LogicalChange;
import io.stratus.protocols.ProtocolTransaction;
import io.stratus.protocols.StorageLayout;
import io.stratus.protocols.TransactionInfo;
import io.stratus.protocols.WriteSet;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.NavigableSet;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import org.jspecify.annotations.Nullable;

/**
 * Reads under locks, the read strategy of strict two-phase locking (paper 000, section 5.5):
 * serializable transactions that lock what they read and write through the lock service, and
 * commit through the same durable half as snapshot isolation ({@link DurableCommit}).
 *
 * <p><b>Reads</b> take a shared lock before they read (the record manager reports every read
 * before it makes it): a point read locks its key, present or not; a scan or an index probe locks
 * every key its range holds and the first key after it (or the end of the tree) — next-key
 * locking, so no phantom can appear in the range. Locked keys are read in their latest committed
 * state ({@link LatestCommitted}): a refresh of the tree's archive after the grant, never a
 * TTL-old page. A range is read, locked, then read again; if it changed meanwhile it is locked
 * again (a few times, then the transaction aborts).
 *
 * <p><b>A point read in one round</b>, where the lock service keeps stamps ({@link
 * io.stratus.cloudapi.SupportsLockStamps}): a committed writer releases its exclusive locks with
 * its commit id as their stamp, once it is archived and validated, and the shared grant reports
 * the stamp. A stamp {@code s} means that every commit that wrote the key is at most {@code s}:
 * each writer held the key's lock exclusively from before it took its commit id, so writers took
 * their ids in the order they held the lock; the last one left {@code s}; and any later exclusive
 * grant would have made the stamp unknown (so would a writer whose lock lapsed, or a lock service
 * that lost its state). Stamp 0, an untouched lock, means no writer since the lock service's state
 * began. When the stamp is at most the newest commit of the key this transaction's view already
 * holds (its base, or a record of the key a refresh found), the view shows the key's latest
 * committed value — the newest commit decides a key's value, and every commit up to the base is
 * archived — and the refresh is skipped; otherwise, and whenever no stamp came, it is made as
 * above. The transaction keeps what it read of locked
 * keys and lays it over every page it reads, so a private page copied before a key was locked
 * cannot show that key stale; its own changes (reported by the record manager) stay on top.
 *
 * <p><b>A tree locked whole</b> (a range of more than {@value #ESCALATE_AT} keys, or a read of the
 * whole tree through an index service): the tree's writers' lock, held against every writer, keeps
 * the whole tree as it was when the lock was granted, until the transaction ends. So a read of a
 * key of it does no work of its own — no lock, no look at the latest state, nothing recorded —
 * and every leaf read shows, for its whole key range, the tree's latest committed state as the
 * refresh after the grant found it: the latest value of each key the transaction did not change
 * itself, and no entry for a key whose latest commit deleted it; its own changes stay on top.
 * That view of a leaf is made once per page and change of the transaction, not once per read.
 * Why: a point read of a tree the transaction already holds whole is the common read of a
 * long transaction (one scan of a collection locks it), and finding the key among the keys it
 * locked one by one cost as much as the read itself. The keys it locked one by one before keep
 * their values (their locks kept every writer away), and a commit needs no new look at a tree
 * locked whole.
 *
 * <p><b>Commit</b>: exclusive locks on every key written (upgrading the shared ones) and, for
 * each key inserted, an insert intention on the first committed key after it — the fence a scanner
 * of that gap holds shared. Intentions pass one another, so inserts into one gap (appends at the
 * end of a tree above all) do not conflict, while a scanner of the gap and an insert into it
 * exclude each other; a fence the transaction also read, wrote or scanned is locked exclusively
 * ({@link LockSet}), and so is every fence on a lock service without intentions. Once the locks
 * are granted and the commit holds its commit id, the fences are checked again (then the
 * assembly's {@link Validation}, which for two-phase locking checks nothing). Then the commit
 * record, the archive, validation of the commit id and the release of every lock, shared ones
 * included, once the commit is durable.
 * Any refused lock aborts at once (no waiting, no deadlock); every lock is held until the end
 * (strict), so commit-id order is a serialization order. The transaction timeout runs from begin:
 * reads and the commit after it fail retryably, and locks are never used past their lease (a read
 * of a leaf shown before checks the time only now and then: {@link
 * TransactionDeadline#REPEATS_PER_CHECK}).
 *
 * <p><b>Read-only transactions</b> ({@code Database.read}) take no locks: they read the snapshot
 * of the highest validated commit id, which under strict two-phase locking is a prefix of the
 * serialization order (a documented deviation from the paper, which locks them too).
 *
 * <p>Thread-safe: one instance serves every transaction of a handle.
 */
final class LockedReads implements ReadStrategy {
  /** Times a range is locked again because it changed between its read and its lock. */
  private static final int RANGE_ATTEMPTS = 4;

  /** Keys a range may hold before its transaction locks the whole tree instead of its keys. */
  static final int ESCALATE_AT = 64;

  /**
   * The mode of a tree's writers' lock for a commit that writes the tree, and for a transaction
   * that reads so much of it that it locks the whole tree. With intentions, writers hold
   * intentions (which pass one another) and whole-tree readers hold it shared (so two of them pass
   * one another too); without, writers hold it shared and whole-tree readers exclusively.
   */
  private final LockMode treeWriters;

  private final LockMode treeReaders;

  private final IsolationParts parts;

  LockedReads(IsolationParts parts) {
    this.parts = parts;
    boolean intentions = SupportsIntentionLocks.of(parts.context().services().locks()) != null;
    this.treeWriters = intentions ? LockMode.INTENTION : LockMode.SHARED;
    this.treeReaders = intentions ? LockMode.SHARED : LockMode.EXCLUSIVE;
  }

  @Override
  public ProtocolTransaction begin(TransactionInfo tx) {
    if (tx.readOnly()) {
      return new ReadOnlyTransaction(tx, parts.ids().snapshotFor(tx), parts.deadlineOf(tx));
    }
    return new LockingTransaction(tx, parts.ids().latestBase(tx));
  }

  /** A read-only transaction: a snapshot, no locks. */
  private final class ReadOnlyTransaction implements ProtocolTransaction {
    private final TransactionInfo info;
    private final long snapshot;
    private final TransactionDeadline deadline;

    ReadOnlyTransaction(TransactionInfo info, long snapshot, TransactionDeadline deadline) {
      this.info = info;
      this.snapshot = snapshot;
      this.deadline = deadline;
    }

    @Override
    public TransactionInfo info() {
      return info;
    }

    @Override
    public PageStore readView(PageStore pages) {
      return new SnapshotView(pages, snapshot, parts.archive(), deadline, parts.memo());
    }

    @Override
    public void readKey(String treeUri, byte[] key) {
      // A snapshot without locks or validation: nothing depends on what it read.
    }

    @Override
    public CommitResult commit(WriteSet ws) {
      if (!ws.changes().isEmpty()) {
        throw new InvalidRequestException(
            "transaction "
                + info.transactionId()
                + " was begun read-only and cannot commit changes");
      }
      return CommitResult.empty();
    }

    @Override
    public void finish(boolean committed) {}
  }

  /** A transaction that may write: its locks, what it read under them, its own changes. */
  private final class LockingTransaction implements ProtocolTransaction {
    private final TransactionInfo info;
    private final TransactionDeadline deadline;
    private final long base;
    private final LockSet locks;
    private final LatestCommitted latest;
    private final ReadSet reads = parts.validation().newReadSet();

    /**
     * Per tree not locked whole: the latest committed value of every key read under a key lock.
     */
    private final Map<String, KnownKeys> known = new HashMap<>();

    /** Per tree not locked whole: the ranges whose every key is in {@link #known}. */
    private final Map<String, List<KeyRange>> ranges = new HashMap<>();

    /** Per tree: the keys this transaction changed (its pages show them). */
    private final Map<String, TreeSet<byte[]>> own = new HashMap<>();

    /**
     * Trees locked whole (their writers' lock held against every writer): nothing in them can
     * change until the end, so every leaf of one shows its latest committed state as a whole.
     */
    private final Set<String> wholeTrees = new HashSet<>();

    /**
     * The URI object the tree last found locked whole was named by (an {@code Object}: only its
     * identity counts). A point read asks about its tree first, and runs of reads name one tree by
     * the same string object, so the answer usually comes from an identity check. A tree stays
     * locked whole to the end.
     */
    private @Nullable Object lastWhole;

    private int version;
    private boolean ended;

    private boolean isWhole(String root) {
      if (lastWhole == (Object) root) {
        return true;
      }
      if (wholeTrees.contains(root)) {
        lastWhole = root;
        return true;
      }
      return false;
    }

    LockingTransaction(TransactionInfo info, long base) {
      this.info = info;
      this.base = base;
      this.deadline = parts.deadlineOf(info);
      this.locks = parts.locks().newLocks(info);
      this.latest =
          new LatestCommitted(
              parts.archive(), parts.memo(), parts.context().bufferPool().begin(), base, deadline);
    }

    private void checkTime() {
      deadline.check();
    }

    @Override
    public TransactionInfo info() {
      return info;
    }

    @Override
    public PageStore readView(PageStore pages) {
      return new LockedView(pages, this);
    }

    @Override
    public void readKeys(String treeUri, KeyRange range) {
      checkTime();
      if (range.isEmpty()) {
        return;
      }
      reads.add(treeUri, range);
      Optional<byte[]> lower = range.lowerBound();
      if (lower.isPresent() && range.equals(KeyRange.singleton(lower.get()))) {
        lockKey(treeUri, lower.get());
      } else {
        readRange(treeUri, range);
      }
    }

    /**
     * Locks the whole tree for reading (as a range too large for key locks does) without looking
     * at its keys: each key read later gets its latest commit, and no writer of the tree commits
     * while the lock is held, so no phantom can appear in what the transaction read.
     */
    @Override
    public void readsAll(String treeUri) {
      checkTime();
      if (!isWhole(treeUri)) {
        lockWhole(treeUri);
      }
    }

    /**
     * Locks the tree rooted at {@code root} whole and brings its latest committed state up to
     * date, once and for all: no writer of the tree commits from here on. What the transaction
     * knew of its keys goes, since every leaf now shows the whole latest state, and the keys it
     * locked one by one hold the same values there (their locks kept every writer away).
     */
    private void lockWhole(String root) {
      lock(List.of(parts.locks().treeLockUri(root)), treeReaders, "a whole tree it reads");
      latest.refresh(List.of(root));
      wholeTrees.add(root);
      lastWhole = root;
      known.remove(root);
      ranges.remove(root);
      parts.ids().mustSee(latest.newestCommit(root, KeyRange.all()));
      version++;
    }

    @Override
    public void readKey(String treeUri, byte[] key) {
      reads.addKey(treeUri, key);
      if (isWhole(treeUri)) {
        // Its leaves show the tree's latest committed state (overlay); the leaf the record
        // manager reads next checks the deadline (LockedView).
        return;
      }
      if (knownOf(treeUri).contains(key)) {
        // Locked and read before: no lock to take, so no clock read here; the leaf the record
        // manager reads next checks the deadline (LockedView), once per read rather than twice.
        return;
      }
      checkTime();
      lockKey(treeUri, key);
    }

    private void lockKey(String root, byte[] key) {
      if (isWhole(root)) {
        return; // nothing in the tree can change: its leaves show its latest state (overlay)
      }
      KnownKeys k = knownOf(root);
      if (k.contains(key)) {
        return; // locked and read before: nobody can have changed it
      }
      String uri = parts.locks().lockUri(root, key);
      Long stamp = lock(List.of(uri), LockMode.SHARED, "a record it reads").get(uri);
      if (stamp == null || stamp > latest.newestCommit(root, KeyRange.singleton(key))) {
        latest.refresh(List.of(root)); // else no commit of the key is missing here (see above)
      }
      k.addIfAbsent(key, latest.get(root, key));
      parts.ids().mustSee(latest.newestCommit(root, KeyRange.singleton(key)));
      version++;
    }

    private void readRange(String root, KeyRange range) {
      if (isWhole(root)) {
        return; // nothing in the tree can change: its leaves show its latest state (overlay)
      }
      latest.refresh(List.of(root));
      TreeMap<byte[], byte[]> entries = latest.scan(root, range);
      if (entries.size() > ESCALATE_AT) {
        lockWhole(root);
        return;
      }
      Optional<byte[]> fence = latest.keyAfter(root, range);
      for (int attempt = 0; attempt < RANGE_ATTEMPTS; attempt++) {
        List<String> uris = new ArrayList<>(entries.size() + 1);
        for (byte[] k : entries.keySet()) {
          uris.add(parts.locks().lockUri(root, k));
        }
        uris.add(fenceUri(root, fence));
        lock(uris, LockMode.SHARED, "a range it reads");
        latest.refresh(List.of(root));
        TreeMap<byte[], byte[]> again = latest.scan(root, range);
        Optional<byte[]> fenceAgain = latest.keyAfter(root, range);
        if (again.keySet().equals(entries.keySet()) && sameKey(fence, fenceAgain)) {
          known(root, range, again);
          return;
        }
        entries = again;
        fence = fenceAgain;
      }
      throw new TransactionConflictException(
          "transaction "
              + info.transactionId()
              + ": the key range it reads kept changing while it locked it ("
              + range
              + ")");
    }

    /** Records that {@code entries} are exactly the keys of {@code range}, locked. */
    private void known(String root, KeyRange range, TreeMap<byte[], byte[]> entries) {
      KnownKeys k = knownOf(root);
      entries.forEach((key, value) -> k.addIfAbsent(key, Optional.of(value)));
      ranges.computeIfAbsent(root, r -> new ArrayList<>()).add(range);
      parts.ids().mustSee(latest.newestCommit(root, range));
      version++;
    }

    private KnownKeys knownOf(String root) {
      return known.computeIfAbsent(root, r -> new KnownKeys());
    }

    private String fenceUri(String root, Optional<byte[]> key) {
      return key.isPresent()
          ? parts.locks().lockUri(root, key.get())
          : parts.locks().endLockUri(root);
    }

    /** Locks {@code uris}; the stamps reported with the shared grants (see {@link LockSet}). */
    private Map<String, Long> lock(List<String> uris, LockMode mode, String what) {
      return locks.acquire(uris, mode, what);
    }

    @Override
    public void wrote(LogicalChange change) {
      own.computeIfAbsent(change.treeUri(), r -> new TreeSet<>(Arrays::compareUnsigned))
          .add(ChangeSets.treeKey(change));
      version++;
    }

    /** {@code leaf} with what this transaction knows of its locked keys laid over it. */
    Page overlay(Page leaf) {
      String root = StorageLayout.rootOf(leaf.uri());
      if (isWhole(root)) {
        return latestOver(root, leaf);
      }
      KnownKeys k = known.get(root);
      if (k == null) {
        return leaf;
      }
      Set<byte[]> mine = own.getOrDefault(root, new TreeSet<>(Arrays::compareUnsigned));
      byte[] low = leaf.lowKey();
      Optional<byte[]> high = leaf.highKey();
      TreeMap<byte[], TreeChange> changes = new TreeMap<>(Arrays::compareUnsigned);
      for (Map.Entry<byte[], Optional<byte[]>> e : k.between(low, high).entrySet()) {
        if (!mine.contains(e.getKey())) {
          changes.put(
              e.getKey(),
              e.getValue()
                  .map(v -> TreeChange.put(e.getKey(), v))
                  .orElseGet(() -> TreeChange.delete(e.getKey())));
        }
      }
      for (KeyRange r : ranges.getOrDefault(root, List.of())) {
        for (int i = 0; i < leaf.entryCount(); i++) {
          byte[] key = leaf.key(i);
          if (r.contains(key) && !k.contains(key) && !mine.contains(key)) {
            changes.put(key, TreeChange.delete(key)); // gone from the range since cached
          }
        }
      }
      return changes.isEmpty() ? leaf : BLinkTree.overlay(leaf, List.copyOf(changes.values()));
    }

    /**
     * {@code leaf} of a tree locked whole, showing the latest committed state of its key range
     * [low key, high key): for every key there that this transaction did not change, its latest
     * committed value, and no entry where the latest state has none. Its own changes stay as its
     * pages hold them.
     */
    private Page latestOver(String root, Page leaf) {
      byte[] low = leaf.lowKey();
      Optional<byte[]> high = leaf.highKey();
      KeyRange span =
          high.isPresent() ? KeyRange.closedOpen(low, high.get()) : KeyRange.atLeast(low);
      NavigableSet<byte[]> mine = own.get(root);
      if (mine != null) {
        mine =
            high.isPresent() ? mine.subSet(low, true, high.get(), false) : mine.tailSet(low, true);
      }
      Iterator<Map.Entry<byte[], byte[]>> committed = latest.scan(root, span).entrySet().iterator();
      Map.Entry<byte[], byte[]> next = committed.hasNext() ? committed.next() : null;
      List<TreeChange> changes = new ArrayList<>();
      int i = 0;
      int n = leaf.entryCount();
      while (i < n || next != null) {
        int order = next == null ? -1 : i == n ? 1 : leaf.compareKeyAt(i, next.getKey());
        if (next == null || order < 0) { // in the leaf alone: no record committed
          byte[] key = leaf.key(i++);
          if (!contains(mine, key)) {
            changes.add(TreeChange.delete(key));
          }
          continue;
        }
        byte[] key = next.getKey();
        byte[] value = next.getValue();
        if (!contains(mine, key) && (order > 0 || !Arrays.equals(leaf.value(i), value))) {
          changes.add(TreeChange.put(key, value));
        }
        if (order == 0) {
          i++;
        }
        next = committed.hasNext() ? committed.next() : null;
      }
      return changes.isEmpty() ? leaf : BLinkTree.overlay(leaf, changes);
    }

    int version() {
      return version;
    }

    /**
     * {@inheritDoc} The before images come from the latest committed state. A tree locked whole,
     * or whose every written key was read under a lock, needs no new look: those keys cannot have
     * changed since (every look at a tree after a key's lock shows the key's latest commit), and
     * the fences of inserted keys are checked after their locks anyway.
     */
    @Override
    public CommitResult commit(WriteSet ws) {
      checkTime();
      long start = parts.context().clock().millis();
      if (ws.changes().isEmpty()) {
        return CommitResult.empty();
      }
      Set<String> unread = new LinkedHashSet<>();
      for (LogicalChange c : ws.changes()) {
        if (isWhole(c.treeUri())) {
          continue; // read whole under its lock: the last look at it is the latest state
        }
        KnownKeys k = known.get(c.treeUri());
        if (k == null || !k.contains(ChangeSets.treeKey(c))) {
          unread.add(c.treeUri());
        }
      }
      List<LogicalChange> changes;
      Map<String, LockMode> commitLocks = new LinkedHashMap<>();
      Map<LogicalChange, String> fences = new LinkedHashMap<>();
      try {
        if (!unread.isEmpty()) {
          latest.refresh(unread);
        }
        changes = ChangeSets.collapse(ws, latest);
        for (LogicalChange c : changes) {
          byte[] key = ChangeSets.treeKey(c);
          // Merged: a key written here that is also an insert's fence needs both, so exclusive.
          commitLocks.merge(parts.locks().treeLockUri(c.treeUri()), treeWriters, LockMode::and);
          commitLocks.merge(
              parts.locks().lockUri(c.treeUri(), key), LockMode.EXCLUSIVE, LockMode::and);
          if (inserts(c)) {
            String fence = fenceUri(c.treeUri(), latest.keyAfter(c.treeUri(), key));
            fences.put(c, fence);
            commitLocks.merge(fence, LockMode.INTENTION, LockMode::and);
          }
        }
      } catch (CloudException e) {
        throw DurableCommit.readFailed(
            info.transactionId(), "reading the latest committed state", e);
      }
      if (changes.isEmpty()) {
        return CommitResult.empty();
      }
      lockForCommit(commitLocks);
      Validation.Candidate candidate =
          new Validation.Candidate(info.transactionId(), base, changes, reads);
      long timeoutAt = deadline.expiresAtMillis();
      return parts
          .commits()
          .commitLocked(
              info.transactionId(),
              changes,
              locks,
              commitId -> {
                checkFences(fences);
                parts.validation().check(parts, candidate, commitId, timeoutAt);
              },
              "looking at the gaps of the keys it inserts",
              Math.min(parts.commits().commitDeadlineFrom(start), timeoutAt));
    }

    private void lockForCommit(Map<String, LockMode> commitLocks) {
      try {
        locks.acquire(commitLocks, "what it writes");
      } catch (CloudException e) {
        locks.releaseNow();
        throw new CommitFailedException(
            "commit of transaction "
                + info.transactionId()
                + ": locking what it writes failed; nothing was sent",
            e.isRetryable() || e instanceof OutcomeUnknownException,
            e);
      }
    }

    /**
     * After the commit locks: no key was committed into an inserted key's gap between the first
     * look and the lock — else the new fence is locked too (an intention, or exclusive as above),
     * and the gap looked at again, until a look finds every fence locked (a few rounds, then the
     * transaction aborts). Another insert into the same gap may have committed meanwhile, since
     * intentions pass one another: its key is then the new fence.
     */
    private void checkFences(Map<LogicalChange, String> fences) {
      if (fences.isEmpty()) {
        return;
      }
      Set<String> roots = new LinkedHashSet<>();
      fences.keySet().forEach(c -> roots.add(c.treeUri()));
      for (int round = 0; round < RANGE_ATTEMPTS; round++) {
        latest.refresh(roots);
        List<String> more = new ArrayList<>();
        for (LogicalChange c : fences.keySet()) {
          String now = fenceUri(c.treeUri(), latest.keyAfter(c.treeUri(), ChangeSets.treeKey(c)));
          if (!locks.holds(now, LockMode.INTENTION)) {
            more.add(now);
          }
        }
        if (more.isEmpty()) {
          return; // every gap is fenced by a lock this transaction holds
        }
        lock(more, LockMode.INTENTION, "the gap of a key it inserts");
      }
      throw new TransactionConflictException(
          "transaction "
              + info.transactionId()
              + ": keys kept arriving next to a key it inserts while it locked the gap");
    }

    @Override
    public void finish(boolean committed) {
      if (ended) {
        return;
      }
      ended = true;
      try {
        latest.close();
      } finally {
        locks.releaseLater(); // empty after a commit: it released or left them to lapse
      }
    }
  }

  /** Whether a change adds a key to its tree (a record created, an index entry added). */
  private static boolean inserts(LogicalChange c) {
    return c.kind() != LogicalChange.Kind.DELETE && c.before().isEmpty();
  }

  private static boolean contains(@Nullable NavigableSet<byte[]> keys, byte[] key) {
    return keys != null && keys.contains(key);
  }

  private static boolean sameKey(Optional<byte[]> a, Optional<byte[]> b) {
    return a.isPresent() == b.isPresent() && (a.isEmpty() || Arrays.equals(a.get(), b.get()));
  }

  /**
   * The pages of a locking transaction: its page transaction's (its own private copies included),
   * every leaf with the latest committed values of the keys it locked laid over it.
   */
  private static final class LockedView extends ReadInterposer {
    private final LockingTransaction tx;
    private final Map<String, Seen> seen = new HashMap<>();

    /** Reads answered from a leaf shown before ({@link TransactionDeadline#REPEATS_PER_CHECK}). */
    private int repeats;

    /**
     * The leaf last read at a URI (the string object it is kept under: {@link UriKeyed}): the page
     * beneath, the transaction's version then, and what the view showed of it (kept as returned,
     * so a repeated read allocates nothing).
     */
    private record Seen(String uri, Page source, int version, Optional<Page> shown) {}

    LockedView(PageStore pages, LockingTransaction tx) {
      super(pages);
      this.tx = tx;
    }

    @Override
    public Optional<Page> read(String uri) {
      Optional<Page> p = beneath.read(uri);
      if (p.isEmpty() || p.get().kind() != PageKind.LEAF) {
        return p;
      }
      Seen s = seen.get(uri);
      if (s != null && s.source() == p.get() && s.version() == tx.version()) {
        if (++repeats % TransactionDeadline.REPEATS_PER_CHECK == 0) {
          tx.checkTime(); // shown under the locks before: safe, checked now and then for timeliness
        }
        if (s.uri() != uri) {
          UriKeyed.keepUnder(seen, uri, new Seen(uri, s.source(), s.version(), s.shown()));
        }
        return s.shown();
      }
      tx.checkTime(); // at the leaf only: every operation reads one, inner pages hold no values
      Page result = tx.overlay(p.get());
      Optional<Page> shown = result == p.get() ? p : Optional.of(result);
      UriKeyed.keepUnder(seen, uri, new Seen(uri, p.get(), tx.version(), shown));
      return shown;
    }
  }
}
