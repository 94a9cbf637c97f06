package io.stratus.protocols.naive;

import io.stratus.CommitFailedException;
import io.stratus.CommitStateUnknownException;
import io.stratus.btree.SecondaryKeys;
import io.stratus.btree.TreeChange;
import io.stratus.cloudapi.CloudException;
import io.stratus.cloudapi.CloudFutures;
import io.stratus.cloudapi.ConflictException;
import io.stratus.cloudapi.CrashPoints;
import io.stratus.cloudapi.ItemVersion;
import io.stratus.cloudapi.OutcomeUnknownException;
import io.stratus.cloudapi.PreconditionFailedException;
import io.stratus.cloudapi.StorageService;
import io.stratus.cloudapi.StoredItem;
import io.stratus.pagemanager.BufferPool;
import io.stratus.pagemanager.Page;
import io.stratus.pagemanager.PageCodec;
import io.stratus.pagemanager.PageKind;
import io.stratus.pagemanager.PageStore;
import io.stratus.pagemanager.PageTransaction;
import io.stratus.pagemanager.PageWrite;
import io.stratus.pagemanager.PageWriter;
import io.stratus.protocols.CommitProtocol;
import io.stratus.protocols.CommitResult;
import io.stratus.protocols.CrashPoint;
import io.stratus.protocols.LogicalChange;
import io.stratus.protocols.ProtocolContext;
import io.stratus.protocols.ProtocolKind;
import io.stratus.protocols.ProtocolTransaction;
import io.stratus.protocols.StorageLayout;
import io.stratus.protocols.TransactionInfo;
import io.stratus.protocols.WriteSet;
import io.stratus.protocols.log.Changes;
import java.util.ArrayList;
import java.util.Arrays;
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
 * protocol must not prevent that: it is the baseline that shows why the queue-based protocols
 * exist.
 *
 * <p><b>Whole trees across handles.</b> A handle's copy of a page may be older than another
 * handle's split of it; put back as it is, it would take the old key range and right link with
 * it and cut the other handle's new page out of the sibling chain (the parent still names it:
 * point reads find its records, scans skip them). So when the storage has conditional puts, a
 * modified page is put only if it is still the version this handle read. When another handle
 * wrote it since, a leaf whose stored version has the same shape (level, key range, right
 * sibling) is put over that version, which loses the other handle's record changes as the
 * baseline does; a leaf of another shape and an inner page (whose entries are structure) make
 * the group replay its changes on the stored pages, first posting again the separators its
 * unwritten parents held for children already on their chain. New pages go with plain puts
 * (their URIs are fresh). Without conditional puts, pages go plainly and only one handle per tree
 * keeps it whole.
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
 *   <li>other handles changed the group's pages {@value #MAX_CONFLICTS} times between its reads
 *       and its puts: {@link CommitFailedException}, retryable, when nothing was written, else
 *       {@link CommitStateUnknownException};
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
  /**
   * Conflicts with other handles' writes after which a group gives up: each one means another
   * handle changed a page of the group between this handle's read and its put.
   */
  static final int MAX_CONFLICTS = 16;

  /** Times a leaf is read again and put over another handle's version of the same shape. */
  private static final int LAST_WRITER_ATTEMPTS = 4;

  private final PageWriter writer;
  private final StorageService storage;
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
    this.storage = context.services().storage();
    this.writer = new PageWriter(storage, context.bufferPool());
    this.crashPoints = context.crashPoints();
    this.pool = context.bufferPool();
  }

  @Override
  public ProtocolKind kind() {
    return ProtocolKind.NAIVE;
  }

  /** A transaction that keeps nothing: its reads go to its page transaction as they are. */
  @Override
  public ProtocolTransaction begin(TransactionInfo tx) {
    return new ProtocolTransaction() {
      @Override
      public TransactionInfo info() {
        return tx;
      }

      @Override
      public PageStore readView(PageStore pages) {
        return pages;
      }

      @Override
      public void readKey(String treeUri, byte[] key) {
        // Validates no reads.
      }

      @Override
      public CommitResult commit(WriteSet ws) {
        return NaiveProtocol.this.commit(ws);
      }

      @Override
      public void finish(boolean committed) {}
    };
  }

  /** Writes the transaction's pages in the handle's group commit; returns once its group has. */
  private CommitResult commit(WriteSet ws) {
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
      // What the last attempt left to redo on the stored pages.
      Optional<Conflict> conflict = Optional.empty();
      int conflicts = 0;
      while (true) {
        try (PageTransaction current = pool.begin()) {
          Prepared prepared = prepare(group, current, conflict);
          if (claim(group, prepared.writes())) {
            Attempt a =
                write(lead, prepared.writes(), conflict.map(Conflict::wroteSome).orElse(false));
            if (a instanceof Written w) {
              r = w.result();
              if (prepared.replayed()) {
                // Replayed pages are installed here; the members' copies are not what was put.
                r = new CommitResult(Map.of(), r.pagesWritten(), r.newPagesWritten(), 0);
              }
              break;
            }
            if (a instanceof Conflict c) {
              conflict = Optional.of(c);
              if (++conflicts >= MAX_CONFLICTS) {
                throw tooManyConflicts(lead, c);
              }
            }
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

  /**
   * The pages the group writes: the lone commit's own, or the group replayed in {@code current}.
   * After a conflict with another handle's write the group always replays, first posting again
   * the separators the conflict kept from their parents.
   */
  private Prepared prepare(Group group, PageTransaction current, Optional<Conflict> conflict) {
    if (conflict.isEmpty()
        && group.members.size() == 1
        && unchangedInPool(group.members.get(0).ws.pages())) {
      return new Prepared(group.members.get(0).ws.pages(), false);
    }
    if (conflict.isPresent()) {
      for (Separator sep : conflict.get().unposted()) {
        StorageLayout.tree(sep.rootUri())
            .postSeparator(current, sep.level(), sep.key(), sep.child());
      }
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

  /**
   * Puts {@code writes} in the order readers need and installs them into the pool; or stops at the
   * first level where another handle changed a page's structure since this handle read it
   * (installing what was written, forgetting the conflicting pages) and says what to redo.
   *
   * @param wroteBefore whether an earlier attempt of the group wrote pages (a failure then leaves
   *     the commit's outcome unknown)
   */
  private Attempt write(WriteSet ws, Collection<PageWrite> writes, boolean wroteBefore) {
    List<PageWrite> fresh = new ArrayList<>();
    TreeMap<Integer, List<PageWrite>> modifiedByLevel = new TreeMap<>();
    for (PageWrite w : writes) {
      if (w.isNew()) {
        fresh.add(w);
      } else {
        modifiedByLevel.computeIfAbsent(w.page().level(), l -> new ArrayList<>()).add(w);
      }
    }
    Progress progress = new Progress(ws, wroteBefore);
    crashPoints.reach(CrashPoint.NAIVE_BEFORE_PAGES.id());
    try {
      putAll(fresh, progress);
      crashPoints.reach(CrashPoint.NAIVE_AFTER_NEW_PAGES.id());
      for (List<PageWrite> level : modifiedByLevel.values()) {
        List<PageWrite> conflicting = putAll(level, progress);
        if (!conflicting.isEmpty()) {
          return conflict(writes, conflicting, progress);
        }
      }
      crashPoints.reach(CrashPoint.NAIVE_AFTER_PAGES.id());
    } catch (CommitStateUnknownException e) {
      for (PageWrite w : writes) {
        pool.invalidate(w.uri()); // some may be written: read them from storage
      }
      throw e;
    }
    progress.installAll(writer); // every page of writes: before the locks go
    return new Written(
        new CommitResult(progress.versions, progress.versions.size(), fresh.size(), 0));
  }

  /** A write's outcome: {@link Written}, or the {@link Conflict} that stopped it. */
  private sealed interface Attempt permits Written, Conflict {}

  /** Every page was written: the commit's result. */
  private record Written(CommitResult result) implements Attempt {}

  /**
   * Another handle changed pages this group based its puts on: the separators the group's
   * unwritten parents would have posted for children already on their level's chain, and whether
   * any page was written.
   */
  private record Conflict(List<Separator> unposted, boolean wroteSome) implements Attempt {}

  /** A child to name in the parent level of its tree. */
  private record Separator(String rootUri, int level, byte[] key, String child) {}

  /**
   * After a conflict: installs what was written, forgets the conflicting pages (the replay reads
   * them from storage) and lists the separators the unwritten inner pages add for children that
   * are on their level's chain. A new page is on the chain only once the page to its left is
   * written with the link to it (a split node, or a new piece that is itself on the chain); a new
   * page whose split node was not written is reachable from nowhere and stays so.
   */
  private Conflict conflict(
      Collection<PageWrite> writes, List<PageWrite> conflicting, Progress progress) {
    progress.installAll(writer);
    for (PageWrite w : conflicting) {
      pool.invalidate(w.uri());
    }
    Map<String, PageWrite> leftOf = new HashMap<>();
    Set<String> created = new HashSet<>();
    for (PageWrite w : writes) {
      w.page().rightSibling().ifPresent(s -> leftOf.put(s, w));
      if (w.isNew()) {
        created.add(w.uri());
      }
    }
    List<Separator> unposted = new ArrayList<>();
    for (PageWrite w : writes) {
      if (w.page().kind() != PageKind.INNER || progress.versions.containsKey(w.uri())) {
        continue;
      }
      for (int i = 0; i < w.page().entryCount(); i++) {
        String child = w.page().valueText(i);
        if (onChain(child, created, leftOf, progress)) {
          unposted.add(
              new Separator(
                  StorageLayout.rootOf(w.uri()), w.page().level(), w.page().key(i), child));
        }
      }
    }
    return new Conflict(unposted, progress.wroteSome());
  }

  /** Whether {@code uri} is on its level's chain after the puts recorded in {@code progress}. */
  private static boolean onChain(
      String uri, Set<String> created, Map<String, PageWrite> leftOf, Progress progress) {
    String page = uri;
    while (created.contains(page)) {
      PageWrite left = leftOf.get(page);
      if (left == null || !progress.versions.containsKey(left.uri())) {
        return false;
      }
      page = left.uri();
    }
    return true;
  }

  /** The failure of a group whose pages other handles kept changing. */
  private static RuntimeException tooManyConflicts(WriteSet ws, Conflict last) {
    String what =
        "naive commit of transaction "
            + ws.transaction().transactionId()
            + ": other handles changed its pages "
            + MAX_CONFLICTS
            + " times between its reads and its puts";
    return last.wroteSome()
        ? new CommitStateUnknownException(
            what
                + "; some pages were written, so the commit may have taken effect in part; "
                + "read the records to find out",
            null)
        : new CommitFailedException(
            what + "; nothing was written, retry the transaction", true, null);
  }

  /**
   * Whether two versions of a page have one shape: kind, level, key range and right sibling. A
   * leaf put over another handle's version of the same shape loses that handle's record changes
   * (the baseline's lost update) but keeps the tree whole; over a version of another shape (a
   * split, or a copy from before one) it would cut pages out of the sibling chain.
   */
  private static boolean sameShape(Page a, Page b) {
    return a.kind() == b.kind()
        && a.level() == b.level()
        && Arrays.equals(a.lowKey(), b.lowKey())
        && Arrays.equals(a.highKey().orElse(null), b.highKey().orElse(null))
        && a.rightSibling().equals(b.rightSibling());
  }

  /**
   * After the conditional put of a leaf failed (another handle wrote it since this one read it):
   * reads the stored leaf and, while it has the shape of this handle's copy, puts the copy over it
   * on its version (last writer wins). False when the shapes differ or it keeps changing: the group
   * must replay its changes on the stored pages.
   */
  private boolean lastWriterWins(PageWrite w, Progress progress) {
    for (int i = 0; i < LAST_WRITER_ATTEMPTS; i++) {
      Optional<StoredItem> item = CloudFutures.await(storage.get(w.uri()));
      if (item.isEmpty()) {
        return false;
      }
      Page stored = PageCodec.decode(w.uri(), item.get().payload());
      if (!sameShape(stored, w.page())) {
        return false;
      }
      Page page = writer.stamp(w.page(), stored.versionStamp());
      try {
        ItemVersion v =
            CloudFutures.await(
                writer.put(page, PageWriter.Condition.version(item.get().version())));
        progress.written(page, v.version());
        return true;
      } catch (PreconditionFailedException | ConflictException e) {
        // written again meanwhile: read it again
      }
    }
    return false;
  }

  /**
   * What a modified page's put requires: the version this handle read, when the storage can check
   * it; new pages have fresh random URIs and go plainly.
   */
  private PageWriter.Condition condition(PageWrite w) {
    return w.isNew() || !writer.supportsConditions()
        ? PageWriter.Condition.none()
        : PageWriter.Condition.version(w.baseVersion().get());
  }

  /**
   * Puts one batch concurrently, waits for all of it, and maps a failure; returns the pages whose
   * conditional put found another handle's version of another shape (nothing else of the batch
   * is left unwritten).
   */
  private List<PageWrite> putAll(List<PageWrite> batch, Progress progress) {
    if (batch.isEmpty()) {
      return List.of();
    }
    List<CompletableFuture<ItemVersion>> calls = new ArrayList<>(batch.size());
    for (PageWrite w : batch) {
      CompletableFuture<ItemVersion> f;
      try {
        f = writer.put(w.page(), condition(w)); // stamped when staged
      } catch (RuntimeException e) {
        f = CompletableFuture.failedFuture(e);
      }
      calls.add(f);
    }
    List<RuntimeException> failures = new ArrayList<>();
    List<PageWrite> changedMeanwhile = new ArrayList<>();
    RuntimeException fatal = null;
    for (int i = 0; i < calls.size(); i++) {
      try {
        ItemVersion v = CloudFutures.await(calls.get(i));
        progress.written(batch.get(i).page(), v.version());
      } catch (PreconditionFailedException | ConflictException e) {
        changedMeanwhile.add(batch.get(i)); // had no effect
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
    List<PageWrite> conflicting = new ArrayList<>();
    for (PageWrite w : changedMeanwhile) {
      boolean written;
      try {
        written = w.page().kind() == PageKind.LEAF && lastWriterWins(w, progress);
      } catch (CloudException e) {
        if (e instanceof OutcomeUnknownException) {
          progress.maybeWritten = true;
        }
        throw progress.failure(List.of(e));
      }
      if (!written) {
        conflicting.add(w);
      }
    }
    return conflicting;
  }

  /** A page as put, and the version the put returned. */
  private record Put(Page page, String version) {}

  /** What a commit has written so far. */
  private static final class Progress {
    final WriteSet ws;
    final Map<String, String> versions = new HashMap<>();

    /**
     * The pages as written (a leaf put again over another handle's is stamped anew), with the
     * versions their puts returned, by URI.
     */
    final Map<String, Put> puts = new HashMap<>();

    boolean maybeWritten;

    Progress(WriteSet ws, boolean wroteBefore) {
      this.ws = ws;
      this.maybeWritten = wroteBefore;
    }

    void written(Page page, String version) {
      puts.put(page.uri(), new Put(page, version));
      versions.put(page.uri(), version);
    }

    /** Makes the pages written the pool's copies. */
    void installAll(PageWriter writer) {
      for (Put p : puts.values()) {
        writer.install(p.page(), p.version());
      }
    }

    boolean wroteSome() {
      return maybeWritten || !versions.isEmpty();
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
