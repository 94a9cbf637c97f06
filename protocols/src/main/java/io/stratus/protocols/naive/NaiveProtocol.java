package io.stratus.protocols.naive;

import io.stratus.CommitFailedException;
import io.stratus.CommitStateUnknownException;
import io.stratus.btree.SecondaryKeys;
import io.stratus.btree.TreeChange;
import io.stratus.cloudapi.CloudException;
import io.stratus.cloudapi.CloudFutures;
import io.stratus.cloudapi.CrashPoints;
import io.stratus.cloudapi.ItemVersion;
import io.stratus.cloudapi.OutcomeUnknownException;
import io.stratus.pagemanager.BufferPool;
import io.stratus.pagemanager.PageTransaction;
import io.stratus.pagemanager.PageWrite;
import io.stratus.pagemanager.PageWriter;
import io.stratus.protocols.CommitProtocol;
import io.stratus.protocols.CommitResult;
import io.stratus.protocols.CrashPoint;
import io.stratus.protocols.LogicalChange;
import io.stratus.protocols.ProtocolContext;
import io.stratus.protocols.ProtocolKind;
import io.stratus.protocols.StorageLayout;
import io.stratus.protocols.WriteSet;
import io.stratus.protocols.log.Changes;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;

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
 * fewer records than point reads). So the commits of a handle are written in groups (group
 * commit), and a group holds the pages it changes until it has written and installed them: the
 * leader takes every waiting commit whose changed pages no running group holds, and writes a
 * lone commit whose pages no other commit of the handle changed since it read them as it is;
 * otherwise it replays the group's logical changes, in arrival order, on the handle's current
 * pages (its buffer pool, where its own commits are installed) and writes those once. Groups
 * with no page in common are written at the same time; a commit that needs a page a group holds
 * waits for that group. A hot page (the rightmost leaf that new orders go to) is then written
 * once per group instead of once per commit, and never by two puts at once (two puts of one
 * object in flight together have no order in storage). Lost updates between different handles,
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
 * <p>Thread-safe: the commits of one handle meet in its group commit (one leader per group, groups
 * on disjoint pages).
 */
public final class NaiveProtocol implements CommitProtocol {
  private final PageWriter writer;
  private final CrashPoints crashPoints;
  private final BufferPool pool;

  /** Guards {@link #waiting} and {@link #reserved}; notified whenever a group ends or backs off. */
  private final Object groups = new Object();

  /** Commits no group has taken yet, in arrival order. */
  private final List<Waiter> waiting = new ArrayList<>();

  /**
   * The changed pages of the groups being written. New pages need no reservation: no other commit
   * knows them.
   */
  private final Set<String> reserved = new HashSet<>();

  public NaiveProtocol(ProtocolContext context) {
    this.writer = new PageWriter(context.services().storage(), context.bufferPool());
    this.crashPoints = context.crashPoints();
    this.pool = context.bufferPool();
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
    Waiter me = new Waiter(ws);
    Group group = null;
    synchronized (groups) {
      waiting.add(me);
      while (!me.taken) {
        if (Collections.disjoint(me.footprint, reserved)) {
          group = takeGroup();
          break;
        }
        try {
          groups.wait();
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
          if (!me.taken) {
            waiting.remove(me);
            throw new CommitFailedException(
                "interrupted before the commit was written; nothing was", true, e);
          }
        }
      }
    }
    if (group != null) {
      lead(group);
    }
    return outcome(me);
  }

  /**
   * Under {@link #groups}: every waiting commit whose changed pages no running group holds, taken
   * in arrival order, their pages reserved.
   */
  private Group takeGroup() {
    List<Waiter> members = new ArrayList<>();
    Set<String> pages = new HashSet<>();
    for (Iterator<Waiter> it = waiting.iterator(); it.hasNext(); ) {
      Waiter w = it.next();
      if (Collections.disjoint(w.footprint, reserved)) {
        it.remove();
        w.taken = true;
        members.add(w);
        pages.addAll(w.footprint);
      }
    }
    reserved.addAll(pages);
    return new Group(members, pages);
  }

  /** This commit's outcome, once its group's leader has set it. */
  private static CommitResult outcome(Waiter me) {
    boolean interrupted = false;
    try {
      while (true) {
        try {
          return me.result.get();
        } catch (InterruptedException e) {
          interrupted = true; // taken into a group: its outcome is coming, and must be told
        } catch (ExecutionException e) {
          Throwable cause = e.getCause();
          throw cause instanceof RuntimeException r ? r : new IllegalStateException(cause);
        }
      }
    } finally {
      if (interrupted) {
        Thread.currentThread().interrupt();
      }
    }
  }

  /**
   * Writes a group and gives each member the outcome: a lone commit whose pages nobody of this
   * handle changed since it read them is written as it is; otherwise the group's logical changes
   * are replayed, in arrival order, on the handle's current pages and those are written once.
   * When the pages to write turn out to include one another group holds (a split reaching a
   * parent), or one a group has changed since, the group lets go of its pages, waits for that
   * page and prepares again: holding while waiting could deadlock two groups.
   */
  private void lead(Group group) {
    try {
      WriteSet lead = group.members.get(0).ws;
      CommitResult r;
      while (true) {
        try (PageTransaction current = pool.begin()) {
          Prepared prepared = prepare(group, current);
          if (claim(group, prepared.writes())) {
            r = write(lead, prepared.writes());
            if (prepared.replayed()) {
              // Replayed pages are installed here; the members' own copies are not what was put.
              r = new CommitResult(Map.of(), r.pagesWritten(), r.newPagesWritten(), 0);
            }
            break;
          }
        }
      }
      for (Waiter w : group.members) {
        w.result.complete(r);
      }
    } catch (RuntimeException | Error e) {
      for (Waiter w : group.members) {
        w.result.completeExceptionally(e);
      }
      if (e instanceof Error err) {
        throw err;
      }
    } finally {
      synchronized (groups) {
        reserved.removeAll(group.pages);
        groups.notifyAll();
      }
    }
  }

  /** The pages a group writes, and whether they come from replaying its changes. */
  private record Prepared(Collection<PageWrite> writes, boolean replayed) {}

  /** The pages the group writes: the lone commit's own, or the group replayed in {@code current}. */
  private Prepared prepare(Group group, PageTransaction current) {
    if (group.members.size() == 1 && unchangedInPool(group.members.get(0).ws.pages())) {
      return new Prepared(group.members.get(0).ws.pages(), false);
    }
    Map<String, List<TreeChange>> byTree = new LinkedHashMap<>();
    for (Waiter w : group.members) {
      treeChanges(w.ws.changes())
          .forEach(
              (tree, changes) ->
                  byTree.computeIfAbsent(tree, t -> new ArrayList<>()).addAll(changes));
    }
    for (Map.Entry<String, List<TreeChange>> e : byTree.entrySet()) {
      StorageLayout.tree(e.getKey()).applySorted(current, e.getValue());
    }
    return new Prepared(current.writes().values(), true);
  }

  /**
   * Whether the group may write {@code writes}: every changed page it did not reserve is free (and
   * is reserved now), and none changed in the pool since it was read. Otherwise the group lets go
   * of its pages, waits until those it needs are free, reserves them and returns false.
   */
  private boolean claim(Group group, Collection<PageWrite> writes) {
    Set<String> extra = new HashSet<>();
    for (PageWrite w : writes) {
      if (!w.isNew() && !group.pages.contains(w.uri())) {
        extra.add(w.uri());
      }
    }
    synchronized (groups) {
      if (Collections.disjoint(extra, reserved) && unchangedInPool(writes)) {
        reserved.addAll(extra);
        group.pages.addAll(extra);
        return true;
      }
      reserved.removeAll(group.pages);
      groups.notifyAll();
      group.pages.addAll(extra);
      boolean interrupted = false;
      while (!Collections.disjoint(group.pages, reserved)) {
        try {
          groups.wait();
        } catch (InterruptedException e) {
          interrupted = true; // the members are taken: their outcome must come from this group
        }
      }
      if (interrupted) {
        Thread.currentThread().interrupt();
      }
      reserved.addAll(group.pages);
      return false;
    }
  }

  /** Commits taken together, and the changed pages they hold while being written. */
  private record Group(List<Waiter> members, Set<String> pages) {}

  /** One commit waiting for its group to be written. */
  private static final class Waiter {
    final WriteSet ws;

    /** The changed (not new) pages of the commit: what it conflicts on. */
    final Set<String> footprint = new HashSet<>();

    final CompletableFuture<CommitResult> result = new CompletableFuture<>();

    /** Whether a group took it (guarded by {@link NaiveProtocol#groups}). */
    boolean taken;

    Waiter(WriteSet ws) {
      this.ws = ws;
      for (PageWrite w : ws.pages()) {
        if (!w.isNew()) {
          footprint.add(w.uri());
        }
      }
    }
  }

  /** The collapsed changes of the write set as tree changes, per tree, in commit order. */
  private static Map<String, List<TreeChange>> treeChanges(List<LogicalChange> changes) {
    Map<String, List<TreeChange>> byTree = new LinkedHashMap<>();
    for (LogicalChange c : Changes.collapse(changes)) {
      byte[] key = c.secondaryIndex() ? SecondaryKeys.compose(c.key(), c.value()) : c.key();
      TreeChange t =
          c.kind() == LogicalChange.Kind.DELETE
              ? TreeChange.delete(key)
              : TreeChange.put(key, c.secondaryIndex() ? new byte[0] : c.value());
      byTree.computeIfAbsent(c.treeUri(), u -> new ArrayList<>()).add(t);
    }
    return byTree;
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
    crashPoints.reach(CrashPoint.NAIVE_BEFORE_PAGES.id());
    try {
      putAll(fresh, progress);
      crashPoints.reach(CrashPoint.NAIVE_AFTER_NEW_PAGES.id());
      for (List<PageWrite> level : modifiedByLevel.values()) {
        putAll(level, progress);
      }
      crashPoints.reach(CrashPoint.NAIVE_AFTER_PAGES.id());
    } catch (CommitStateUnknownException e) {
      for (PageWrite w : writes) {
        pool.invalidate(w.uri()); // some may be written: read them from storage
      }
      throw e;
    }
    for (PageWrite w : writes) {
      writer.install(w.page(), progress.versions.get(w.uri())); // before the locks go
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
      CompletableFuture<ItemVersion> f;
      try {
        f = writer.put(w.page(), PageWriter.Condition.none()); // stamped when staged
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
      String what =
          "naive commit of transaction "
              + ws.transaction().transactionId()
              + " ("
              + ws.pages().size()
              + " pages): ";
      RuntimeException mapped;
      if (maybeWritten || !versions.isEmpty()) {
        mapped =
            new CommitStateUnknownException(
                what
                    + versions.size()
                    + " pages written, "
                    + failures.size()
                    + " failed or unknown; the commit may have taken effect in part",
                first);
      } else {
        boolean retryable =
            failures.stream()
                .allMatch(f -> f instanceof CloudException && ((CloudException) f).isRetryable());
        mapped =
            new CommitFailedException(
                what + "no page was written (" + first.getMessage() + ")", retryable, first);
      }
      for (int i = 1; i < failures.size(); i++) {
        mapped.addSuppressed(failures.get(i));
      }
      return mapped;
    }
  }
}
