package io.stratus.protocols.isolation;

import io.stratus.cloudapi.CloudException;
import io.stratus.protocols.BackgroundFailures;
import io.stratus.protocols.IsolationSettings;
import io.stratus.protocols.log.LogRecord;
import java.time.Clock;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Consumer;

/**
 * Committed transactions of one handle whose archive send failed, sent again until they arrive.
 *
 * <p>Why: a commit record that arrived makes the transaction committed, but until its records are
 * archived no snapshot may include it (its commit id stays unvalidated) and no writer of its
 * records may validate (its locks stay held). Recovery by any client archives it once the commit
 * record is older than the atomic timeout — a minute during which every newer transaction of the
 * writer's own handle waits for it, and other writers of those records are refused. A handle that
 * tries again as soon as it can (right away in the background, at each begin, at {@code
 * checkpointAll}, at close) ends that wait with the outage. A lost reply costs one duplicate in
 * the archive, which readers and checkpoints ignore (records are keyed by commit id).
 *
 * <p>Once the locks' leases run short the transaction is left to recovery, which archives it well
 * before they lapse (the lease rule of {@link IsolationSettings}), and the locks are left to lapse.
 *
 * <p>Thread-safe; a pending transaction is sent by one thread at a time.
 */
final class PendingArchives {

  /** A committed transaction not yet archived, with the locks it still holds. */
  record Pending(long commitId, List<LogRecord> records, LockSet locks, boolean twoStep) {}

  private static final class Entry {
    final Pending pending;
    final AtomicBoolean sending = new AtomicBoolean();
    volatile CloudException lastFailure;

    Entry(Pending pending, CloudException failure) {
      this.pending = pending;
      this.lastFailure = failure;
    }
  }

  private final SnapshotArchive archive;
  private final Clock clock;
  private final BackgroundFailures failures;
  private final Consumer<Pending> archived;
  private final Map<Long, Entry> pending = new ConcurrentHashMap<>();

  /**
   * @param archived told of each transaction once its records arrived (it validates the commit id
   *     and releases the locks)
   */
  PendingArchives(
      SnapshotArchive archive,
      Clock clock,
      BackgroundFailures failures,
      Consumer<Pending> archived) {
    this.archive = archive;
    this.clock = clock;
    this.failures = failures;
    this.archived = archived;
  }

  /** Keeps a committed transaction whose archive send failed with {@code failure}. */
  void add(
      long commitId,
      List<LogRecord> records,
      LockSet locks,
      boolean twoStep,
      CloudException failure) {
    pending.put(commitId, new Entry(new Pending(commitId, records, locks, twoStep), failure));
  }

  /** How many transactions wait to be archived. */
  int size() {
    return pending.size();
  }

  /** Sends every pending transaction again (those another thread is sending are skipped). */
  void retry() {
    for (Entry e : pending.values()) {
      if (!e.sending.compareAndSet(false, true)) {
        continue;
      }
      try {
        retry(e);
      } finally {
        e.sending.set(false);
      }
    }
  }

  private void retry(Entry e) {
    Pending p = e.pending;
    long shortBy = p.locks().validUntilMillis() - IsolationSettings.NETWORK_MARGIN.toMillis();
    if (clock.millis() >= shortBy) {
      if (pending.remove(p.commitId(), e)) {
        p.locks().leaveToLapse();
        failures.report(
            "archive",
            "archiving commit "
                + p.commitId()
                + " kept failing while its locks were valid; it stays invisible to newer"
                + " snapshots until recovery archives it",
            e.lastFailure);
      }
      return;
    }
    try {
      archive.send(p.records());
    } catch (CloudException failure) {
      e.lastFailure = failure;
      return;
    }
    if (pending.remove(p.commitId(), e)) {
      archived.accept(p);
    }
  }
}
