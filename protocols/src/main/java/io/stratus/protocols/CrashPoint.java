package io.stratus.protocols;

import java.util.EnumSet;
import java.util.Optional;
import java.util.Set;

/**
 * Every named step at which the protocols announce themselves to {@link
 * io.stratus.cloudapi.CrashPoints}: the one registry of crash points. Protocol code reaches a
 * point only through a constant here ({@code crashPoints.reach(CrashPoint.X.id())}), so a test can
 * iterate the registry and kill a client at every step the code has, and a source scan can refuse
 * a name that is not registered: a step added to the code without a constant fails a test instead
 * of going unswept.
 *
 * <p>The {@link #id()} strings are what {@link io.stratus.cloudapi.decorate.ScriptedCrashPoints}
 * arms and counts; they are stable, since tests and logs name them.
 */
public enum CrashPoint {
  /** Naive: the write set is final, no page is written yet. */
  NAIVE_BEFORE_PAGES("naive.before-pages", Phase.COMMIT),
  /** Naive: the new pages (split halves, fresh leaves) are written, the modified ones not. */
  NAIVE_AFTER_NEW_PAGES("naive.after-new-pages", Phase.COMMIT),
  /** Naive: every page of the commit is written. */
  NAIVE_AFTER_PAGES("naive.after-pages", Phase.COMMIT),

  /** Basic and monotonic: before the log records go to the pending-update queues. */
  BASIC_BEFORE_SEND("basic.before-send", Phase.COMMIT),
  /** Basic and monotonic: the log records are in the pending-update queues. */
  BASIC_AFTER_SEND("basic.after-send", Phase.COMMIT),

  /** Atomic: before anything is sent to the client's ATOMIC queue. */
  ATOMIC_BEFORE_LOG("atomic.before-log", Phase.COMMIT),
  /** Atomic, a commit of several messages: the log messages are sent, the commit record not. */
  ATOMIC_AFTER_LOG("atomic.after-log", Phase.COMMIT),
  /** Atomic: the commit record (or the one complete message) is sent: the commit is durable. */
  ATOMIC_AFTER_COMMIT_RECORD("atomic.after-commit-record", Phase.COMMIT),
  /** Atomic: the committed records are in the pending-update queues. */
  ATOMIC_AFTER_PROPAGATE("atomic.after-propagate", Phase.PROPAGATION),
  /** Atomic: the commit's messages are deleted from the ATOMIC queue. */
  ATOMIC_AFTER_CLEANUP("atomic.after-cleanup", Phase.PROPAGATION),
  /** Atomic log pass (propagation or recovery): winners propagated, no marker sent yet. */
  ATOMIC_PASS_AFTER_PROPAGATE("atomic.pass-after-propagate", Phase.RECOVERY),
  /** Atomic log pass: the propagated markers are sent, no log message deleted yet. */
  ATOMIC_PASS_AFTER_MARKER("atomic.pass-after-marker", Phase.RECOVERY),
  /** Atomic log pass: the log messages are deleted, the commit records not yet. */
  ATOMIC_PASS_AFTER_LOG_DELETES("atomic.pass-after-log-deletes", Phase.RECOVERY),

  /** Advanced atomic: before anything is sent to the shared log queues. */
  AATOMIC_BEFORE_LOG("aatomic.before-log", Phase.COMMIT),
  /** Advanced atomic, a commit of several messages: log messages sent, commit record not. */
  AATOMIC_AFTER_LOG("aatomic.after-log", Phase.COMMIT),
  /** Advanced atomic: the commit record is sent: the commit is durable. */
  AATOMIC_AFTER_COMMIT_RECORD("aatomic.after-commit-record", Phase.COMMIT),
  /** Advanced atomic: the committed records are in the pending-update queues. */
  AATOMIC_AFTER_PROPAGATE("aatomic.after-propagate", Phase.PROPAGATION),
  /** Advanced atomic: the commit's log and commit messages are deleted. */
  AATOMIC_AFTER_CLEANUP("aatomic.after-cleanup", Phase.PROPAGATION),
  /** Advanced atomic recovery: an abandoned commit is propagated, its messages not deleted. */
  AATOMIC_RECOVERY_AFTER_PROPAGATE("aatomic.recovery.after-propagate", Phase.RECOVERY),

  /** Isolating protocols: the commit's record locks are held, nothing is sent. */
  ISOLATION_AFTER_LOCKS("isolation.after-locks", Phase.COMMIT),
  /** Isolating protocols, a commit of several messages: log messages sent, commit record not. */
  ISOLATION_AFTER_LOG("isolation.after-log", Phase.COMMIT),
  /** Isolating protocols: the commit record is sent: the commit is durable. */
  ISOLATION_AFTER_COMMIT_RECORD("isolation.after-commit-record", Phase.COMMIT),
  /** Isolating protocols: the commit's versions are archived, its commit id not validated. */
  ISOLATION_AFTER_ARCHIVE("isolation.after-archive", Phase.COMMIT),
  /** Isolating protocols: the commit id is validated (visible to new snapshots). */
  ISOLATION_AFTER_VALIDATE("isolation.after-validate", Phase.COMMIT),
  /** Snapshot checkpoint: the tree's checkpoint lock is held. */
  ISOLATION_CHECKPOINT_AFTER_LOCK("isolation.checkpoint.after-lock", Phase.RECOVERY),
  /** Snapshot checkpoint: the new pages are put, the root not yet installed. */
  ISOLATION_CHECKPOINT_AFTER_PUT("isolation.checkpoint.after-put", Phase.RECOVERY),

  /** Tree checkpoint: the queue's lock is held. */
  CHECKPOINT_TREE_AFTER_LOCK("checkpoint.tree.after-lock", Phase.RECOVERY),
  /** Tree checkpoint: records received (hidden), nothing applied. */
  CHECKPOINT_TREE_AFTER_RECEIVE("checkpoint.tree.after-receive", Phase.RECOVERY),
  /** Tree checkpoint: the changed pages are put, the applied messages not deleted. */
  CHECKPOINT_TREE_AFTER_PUT("checkpoint.tree.after-put", Phase.RECOVERY),
  /** Tree checkpoint: the applied messages are deleted. */
  CHECKPOINT_TREE_AFTER_DELETE("checkpoint.tree.after-delete", Phase.RECOVERY),
  /** Data-page checkpoint: the queue's lock is held. */
  CHECKPOINT_PAGE_AFTER_LOCK("checkpoint.page.after-lock", Phase.RECOVERY),
  /** Data-page checkpoint: records received (hidden), nothing applied. */
  CHECKPOINT_PAGE_AFTER_RECEIVE("checkpoint.page.after-receive", Phase.RECOVERY),
  /** Data-page checkpoint: the page is put, the applied messages not deleted. */
  CHECKPOINT_PAGE_AFTER_PUT("checkpoint.page.after-put", Phase.RECOVERY),
  /** Data-page checkpoint: the applied messages are deleted. */
  CHECKPOINT_PAGE_AFTER_DELETE("checkpoint.page.after-delete", Phase.RECOVERY);

  /**
   * Where in a transaction's life a point lies: in the committing client's commit call, in the
   * committing client's background work after it returned, or in work any client does for
   * others (checkpoints, log passes, recovery of abandoned clients) — the steps at which a
   * recovering client can die too.
   */
  public enum Phase {
    COMMIT,
    PROPAGATION,
    RECOVERY
  }

  private final String id;
  private final Phase phase;

  CrashPoint(String id, Phase phase) {
    this.id = id;
    this.phase = phase;
  }

  /** The name reached and armed, e.g. {@code "atomic.after-log"}. */
  public String id() {
    return id;
  }

  /** Where in a transaction's life the point lies. */
  public Phase phase() {
    return phase;
  }

  /** The points of {@code phase}, in declaration order. */
  public static Set<CrashPoint> of(Phase phase) {
    EnumSet<CrashPoint> out = EnumSet.noneOf(CrashPoint.class);
    for (CrashPoint p : values()) {
      if (p.phase == phase) {
        out.add(p);
      }
    }
    return out;
  }

  /** The point named {@code id}, if registered. */
  public static Optional<CrashPoint> byId(String id) {
    for (CrashPoint p : values()) {
      if (p.id.equals(id)) {
        return Optional.of(p);
      }
    }
    return Optional.empty();
  }
}
