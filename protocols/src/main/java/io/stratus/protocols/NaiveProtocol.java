package io.stratus.protocols;

import io.stratus.CommitFailedException;
import io.stratus.CommitStateUnknownException;
import io.stratus.btree.SecondaryKeys;
import io.stratus.btree.TreeChange;
import io.stratus.cloudapi.CloudException;
import io.stratus.cloudapi.CloudFutures;
import io.stratus.cloudapi.CrashPoints;
import io.stratus.cloudapi.ItemVersion;
import io.stratus.cloudapi.OutcomeUnknownException;
import io.stratus.cloudapi.StorageService;
import io.stratus.pagemanager.BufferPool;
import io.stratus.pagemanager.PageCodec;
import io.stratus.pagemanager.PageTransaction;
import io.stratus.pagemanager.PageWrite;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.locks.ReentrantLock;

/**
 * The naive protocol, the papers' baseline (paper 000, section 7.1; [7]): commit writes every
 * modified and new page straight to storage with a plain put, the way storage services are used
 * without a database. No queues, no log, no conditions.
 *
 * <p><b>Lost updates, by design.</b> Two clients that change different records on the same page
 * each put their whole copy of the page; the later put wins and the other change disappears. This
 * protocol must not use conditional puts to prevent that: it is the baseline that shows why the
 * queue-based protocols exist.
 *
 * <p><b>Commits of one handle never undo each other.</b> A transaction's page copies come from
 * what it read, which may be older than what another request thread of the same handle has
 * committed since; putting them would undo that commit, and two threads splitting one leaf would
 * leave the tree inconsistent (commits that had returned normally went missing, and scans found
 * fewer records than point reads). So a commit replays the transaction's logical changes onto
 * the handle's current pages (its buffer pool, where its own commits are installed), locks the
 * pages that replay writes, checks that none changed in the pool meanwhile (else it replays
 * again), puts them and installs them before unlocking. Lost updates between different handles,
 * the baseline's nature, stay.
 *
 * <p><b>Write order</b> (what the B-link trees need for concurrent readers, see {@code
 * BLinkTree}): all new pages first, concurrently (nothing refers to them yet), then the modified
 * pages in ascending level, the pages of one level concurrently, each level after the one below
 * has completed; so a split node is written after its new sibling and a parent after its children.
 * Crash points: {@code naive.before-pages}, {@code naive.after-new-pages}, {@code
 * naive.after-pages}.
 *
 * <p><b>Failures</b> (a level's calls are all awaited before deciding, so it is known which puts
 * took effect):
 *
 * <ul>
 *   <li>nothing was written and every failure is retryable (it had no effect):
 *       {@link CommitFailedException}, retryable;
 *   <li>nothing was written and a failure is neither retryable nor outcome-unknown (a malformed
 *       request, a limit): {@link CommitFailedException}, not retryable, with the cause;
 *   <li>a put's outcome is unknown, or any failure after some page was written: {@link
 *       CommitStateUnknownException} (new pages written so far are unreachable, but modified pages
 *       may have been overwritten).
 * </ul>
 *
 * Failures that are not {@link CloudException}s (a simulated process death, a bug) propagate
 * unchanged: they are not cloud errors and must not be handled as such.
 *
 * <p>Thread-safe: commits of one handle coordinate through page locks of their own.
 */
final class NaiveProtocol implements CommitProtocol {
  /** Replays a commit that lost a race with another commit of this handle at most this often. */
  static final int MAX_REPLAYS = 50;
  /** Lock stripes of the pages being written by this handle's commits. */
  private static final int STRIPES = 256;

  private final StorageService storage;
  private final CrashPoints crashPoints;
  private final BufferPool pool;
  private final ReentrantLock[] stripes = new ReentrantLock[STRIPES];

  NaiveProtocol(ProtocolContext context) {
    this.storage = context.services().storage();
    this.crashPoints = context.crashPoints();
    this.pool = context.bufferPool();
    for (int i = 0; i < STRIPES; i++) {
      stripes[i] = new ReentrantLock();
    }
  }

  @Override
  public ProtocolKind kind() {
    return ProtocolKind.NAIVE;
  }

  @Override
  public CommitResult commit(WriteSet ws) {
    if (ws.pages().isEmpty()) {
      return CommitResult.empty();
    }
    // Usually nothing else of this handle wrote the pages since the transaction read them, and
    // its own copies are written. Otherwise its changes are replayed on the current pages.
    CommitResult own = writeIfUnchanged(ws, ws.pages(), true);
    if (own != null) {
      return own;
    }
    Map<String, List<TreeChange>> byTree = treeChanges(ws.changes());
    for (int replay = 0; replay < MAX_REPLAYS; replay++) {
      try (PageTransaction current = pool.begin()) {
        for (Map.Entry<String, List<TreeChange>> e : byTree.entrySet()) {
          StorageLayout.tree(e.getKey()).applySorted(current, e.getValue());
        }
        CommitResult replayed = writeIfUnchanged(ws, current.writes().values(), false);
        if (replayed != null) {
          return replayed;
        }
      }
    }
    throw new CommitFailedException("naive commit of transaction "
        + ws.transaction().transactionId() + ": its pages kept changing under " + MAX_REPLAYS
        + " replays by other commits of this handle; nothing was written", true, null);
  }

  /**
   * Under the locks of their pages: writes and installs {@code writes} if none changed in the
   * pool since they were read; null (nothing written) otherwise.
   *
   * @param transactionPages whether these are the transaction's own pages (their versions go back
   *     to the record manager, which installs them too) or a replay's
   */
  private CommitResult writeIfUnchanged(WriteSet ws, Collection<PageWrite> writes,
      boolean transactionPages) {
    List<ReentrantLock> held = lock(writes);
    try {
      if (!unchangedInPool(writes)) {
        return null;
      }
      CommitResult r = write(ws, writes);
      return transactionPages ? r
          : new CommitResult(Map.of(), r.pagesWritten(), r.newPagesWritten(), 0);
    } finally {
      for (int i = held.size() - 1; i >= 0; i--) {
        held.get(i).unlock();
      }
    }
  }

  /** The collapsed changes of the write set as tree changes, per tree, in commit order. */
  private static Map<String, List<TreeChange>> treeChanges(List<LogicalChange> changes) {
    Map<String, List<TreeChange>> byTree = new LinkedHashMap<>();
    for (LogicalChange c : BasicCommit.collapse(changes)) {
      byte[] key = c.secondaryIndex() ? SecondaryKeys.compose(c.key(), c.value()) : c.key();
      TreeChange t = c.kind() == LogicalChange.Kind.DELETE ? TreeChange.delete(key)
          : TreeChange.put(key, c.secondaryIndex() ? new byte[0] : c.value());
      byTree.computeIfAbsent(c.treeUri(), u -> new ArrayList<>()).add(t);
    }
    return byTree;
  }

  /** Locks the stripes of {@code writes}' pages in index order (no deadlock between commits). */
  private List<ReentrantLock> lock(Collection<PageWrite> writes) {
    TreeSet<Integer> indexes = new TreeSet<>();
    for (PageWrite w : writes) {
      indexes.add(Math.floorMod(w.uri().hashCode(), STRIPES));
    }
    List<ReentrantLock> held = new ArrayList<>(indexes.size());
    for (int i : indexes) {
      stripes[i].lock();
      held.add(stripes[i]);
    }
    return held;
  }

  /**
   * Whether every changed page's base is still the version the pool holds. Only the cached copy
   * is compared, never storage: what this detects is another commit of this handle in between
   * (its pages are installed here); other clients' writes stay invisible to a naive commit, whose
   * lost updates between clients are the baseline's nature.
   */
  private boolean unchangedInPool(Collection<PageWrite> writes) {
    for (PageWrite w : writes) {
      if (w.isNew()) {
        continue;
      }
      Optional<String> cached = pool.cachedVersion(w.uri());
      if (cached.isPresent() && !cached.get().equals(w.baseVersion().get())) {
        return false;
      }
    }
    return true;
  }

  /** Puts {@code writes} in the order readers need and installs them into the pool. */
  private CommitResult write(WriteSet ws, Collection<PageWrite> writes) {
    List<PageWrite> fresh = new ArrayList<>();
    TreeMap<Integer, List<PageWrite>> modifiedByLevel = new TreeMap<>();
    for (PageWrite w : writes) {
      if (w.isNew()) {
        fresh.add(w);
      } else {
        modifiedByLevel.computeIfAbsent(w.page().level(), l -> new ArrayList<>()).add(w);
      }
    }
    Progress progress = new Progress(ws);
    crashPoints.reach("naive.before-pages");
    try {
      putAll(fresh, progress);
      crashPoints.reach("naive.after-new-pages");
      for (List<PageWrite> level : modifiedByLevel.values()) {
        putAll(level, progress);
      }
      crashPoints.reach("naive.after-pages");
    } catch (CommitStateUnknownException e) {
      for (PageWrite w : writes) {
        pool.invalidate(w.uri()); // some may be written: read them from storage
      }
      throw e;
    }
    for (PageWrite w : writes) {
      pool.install(w.page(), progress.versions.get(w.uri())); // before the locks go
    }
    return new CommitResult(progress.versions, progress.versions.size(), fresh.size(), 0);
  }

  /** Puts one batch concurrently, waits for all of it, and maps a failure. */
  private void putAll(List<PageWrite> batch, Progress progress) {
    if (batch.isEmpty()) {
      return;
    }
    List<CompletableFuture<ItemVersion>> calls = new ArrayList<>(batch.size());
    for (PageWrite w : batch) {
      byte[] bytes = PageCodec.encode(w.page());
      CompletableFuture<ItemVersion> f;
      try {
        f = storage.put(w.uri(), bytes, Map.of());
      } catch (RuntimeException e) {
        f = CompletableFuture.failedFuture(e);
      }
      calls.add(f);
    }
    List<RuntimeException> failures = new ArrayList<>();
    RuntimeException fatal = null;
    for (int i = 0; i < calls.size(); i++) {
      try {
        ItemVersion v = CloudFutures.await(calls.get(i));
        progress.versions.put(batch.get(i).uri(), v.version());
      } catch (CloudException e) {
        failures.add(e);
        if (e instanceof OutcomeUnknownException) {
          progress.maybeWritten = true;
        }
      } catch (RuntimeException e) {
        if (fatal == null) {
          fatal = e;
        } else {
          fatal.addSuppressed(e);
        }
      }
    }
    if (fatal != null) {
      throw fatal; // not a cloud error (e.g. the process died): not ours to interpret
    }
    if (!failures.isEmpty()) {
      throw progress.failure(failures);
    }
  }

  /** What a commit has written so far. */
  private static final class Progress {
    final WriteSet ws;
    final Map<String, String> versions = new HashMap<>();
    boolean maybeWritten;

    Progress(WriteSet ws) {
      this.ws = ws;
    }

    RuntimeException failure(List<RuntimeException> failures) {
      RuntimeException first = failures.get(0);
      String what = "naive commit of transaction " + ws.transaction().transactionId() + " ("
          + ws.pages().size() + " pages): ";
      RuntimeException mapped;
      if (maybeWritten || !versions.isEmpty()) {
        mapped = new CommitStateUnknownException(
            what + versions.size() + " pages written, " + failures.size()
                + " failed or unknown; the commit may have taken effect in part", first);
      } else {
        boolean retryable = failures.stream()
            .allMatch(f -> f instanceof CloudException && ((CloudException) f).isRetryable());
        mapped = new CommitFailedException(
            what + "no page was written (" + first.getMessage() + ")", retryable, first);
      }
      for (int i = 1; i < failures.size(); i++) {
        mapped.addSuppressed(failures.get(i));
      }
      return mapped;
    }
  }
}
