package io.stratus.core;

import io.stratus.BufferPoolStats;
import java.util.Objects;

/**
 * What a {@link Database} handle has done since it was opened, at one moment (counters are read one
 * after another, so a snapshot under load may be off by the transactions in flight).
 *
 * <p>A value with one accessor per counter and no public constructor, so that counters added later
 * break no caller (a record's canonical constructor and pattern would). Immutable.
 */
public final class DatabaseStats {
  private final BufferPoolStats bufferPool;
  private final long commits;
  private final long aborts;
  private final long failedCommits;
  private final long unknownCommits;
  private final long pagesWritten;
  private final long checkpointsRun;
  private final long checkpointsFailed;
  private final long pendingOwnWrites;
  private final long retries;
  private final long backgroundFailures;
  private final long corruptMessages;
  private final long corruptPages;
  private final long deadLettered;
  private final long owedCheckpoints;
  private final long recordsWaitingForRoom;
  private final long writersWaitingForRoom;

  DatabaseStats(
      BufferPoolStats bufferPool,
      long commits,
      long aborts,
      long failedCommits,
      long unknownCommits,
      long pagesWritten,
      long checkpointsRun,
      long checkpointsFailed,
      long pendingOwnWrites,
      long retries,
      long backgroundFailures,
      long corruptMessages,
      long corruptPages,
      long deadLettered,
      long owedCheckpoints,
      long recordsWaitingForRoom,
      long writersWaitingForRoom) {
    this.bufferPool = Objects.requireNonNull(bufferPool, "bufferPool");
    this.commits = commits;
    this.aborts = aborts;
    this.failedCommits = failedCommits;
    this.unknownCommits = unknownCommits;
    this.pagesWritten = pagesWritten;
    this.checkpointsRun = checkpointsRun;
    this.checkpointsFailed = checkpointsFailed;
    this.pendingOwnWrites = pendingOwnWrites;
    this.retries = retries;
    this.backgroundFailures = backgroundFailures;
    this.corruptMessages = corruptMessages;
    this.corruptPages = corruptPages;
    this.deadLettered = deadLettered;
    this.owedCheckpoints = owedCheckpoints;
    this.recordsWaitingForRoom = recordsWaitingForRoom;
    this.writersWaitingForRoom = writersWaitingForRoom;
  }

  /** The buffer pool's counters (hits, misses, refreshes, evictions, size). */
  public BufferPoolStats bufferPool() {
    return bufferPool;
  }

  /** Transactions committed (read-only ones included). */
  public long commits() {
    return commits;
  }

  /**
   * Transactions aborted by the application (abort, or close without commit, also a {@link
   * Database#run} or {@link Database#read} attempt whose function threw); a read whose function
   * returned is not one.
   */
  public long aborts() {
    return aborts;
  }

  /** Commits that failed (and so ended their transaction). */
  public long failedCommits() {
    return failedCommits;
  }

  /**
   * Of {@link #failedCommits()}, those whose outcome is unknown ({@link
   * io.stratus.CommitStateUnknownException}): the commit may have taken effect, and nobody retried
   * it. Each is a transaction whose effect the application must find out by reading; a count that
   * rises means the cloud is failing in ways that leave writes in doubt.
   */
  public long unknownCommits() {
    return unknownCommits;
  }

  /** Pages the commit protocol wrote to storage. */
  public long pagesWritten() {
    return pagesWritten;
  }

  /** Checkpoints this handle ran in the background, completed or not. */
  public long checkpointsRun() {
    return checkpointsRun;
  }

  /** Of {@link #checkpointsRun()}, those that gave up or failed (their records stay queued). */
  public long checkpointsFailed() {
    return checkpointsFailed;
  }

  /**
   * Committed records this handle overlays on its reads until it knows them applied (monotonic
   * and atomic: read-your-writes); the overlay's memory follows it. Records applied by background
   * checkpoints leave it about a TTL later; {@link DatabaseAdmin#checkpointAll} drops those it
   * applied itself at once, unless a transaction open since before holds them back.
   */
  public long pendingOwnWrites() {
    return pendingOwnWrites;
  }

  /** Attempts of {@link Database#run} and {@link Database#read} that failed and were run again. */
  public long retries() {
    return retries;
  }

  /**
   * Failures of background work other than checkpoints that left committed records invisible
   * until a later pass: the atomic protocols' propagation, clean-up and recovery, the isolating
   * protocols' archiving. Each kind is also logged as a warning at most once a minute.
   */
  public long backgroundFailures() {
    return backgroundFailures;
  }

  /**
   * Distinct damaged messages (bad checksum, unknown format) this handle's background work found
   * in queues, never applied; each is also logged as a warning, once. Those of simple queues are
   * moved into the dead-letter area ({@link #deadLettered()}).
   */
  public long corruptMessages() {
    return corruptMessages;
  }

  /**
   * Distinct pages this handle's checkpoints found corrupt (checksum, format, structure, or a page
   * of another address): each blocks the records that would change it, and only those, until it
   * is repaired. Each is also logged as a warning, once.
   */
  public long corruptPages() {
    return corruptPages;
  }

  /**
   * Damaged messages this handle moved out of their queues into the dead-letter area, where
   * {@link DatabaseAdmin#deadLetters()} lists them for inspection, replay or discarding.
   */
  public long deadLettered() {
    return deadLettered;
  }

  /**
   * Queues this handle sent records to and has not yet seen applied by a checkpoint of its own:
   * it schedules one for each once its record is older than the checkpoint interval, so records
   * nobody touches again are still applied (0 for protocols without queues, and once all are).
   * After {@link Database#close()}: the queues the close could not checkpoint within its time
   * ({@link DatabaseConfig.Builder#closeTimeout}), whose records wait for another client's
   * checkpoint.
   */
  public long owedCheckpoints() {
    return owedCheckpoints;
  }

  /**
   * Committed records this handle's checkpoints found waiting for room in a page header, as of
   * each queue's latest checkpoint here (monotonic and atomic protocols). Every handle
   * incarnation and writer lane that writes a page starts a chain with an entry in that page's
   * header (its tree root, for inserts and deletes), and a full header takes a new chain only
   * once a closed or dead writer's chain retires, at least 15 minutes after it stopped. Handles
   * opened and closed in quick succession (one per request, a short-lived process per job) fill
   * it; their records stay invisible meanwhile. Open one handle per process and keep it; a count
   * above 0 that persists says handles are being made too often (see {@link
   * #writersWaitingForRoom()}).
   */
  public long recordsWaitingForRoom() {
    return recordsWaitingForRoom;
  }

  /** The writer chains (handle incarnation and lane) that hold {@link #recordsWaitingForRoom()}. */
  public long writersWaitingForRoom() {
    return writersWaitingForRoom;
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof DatabaseStats s
        && bufferPool.equals(s.bufferPool)
        && commits == s.commits
        && aborts == s.aborts
        && failedCommits == s.failedCommits
        && unknownCommits == s.unknownCommits
        && pagesWritten == s.pagesWritten
        && checkpointsRun == s.checkpointsRun
        && checkpointsFailed == s.checkpointsFailed
        && pendingOwnWrites == s.pendingOwnWrites
        && retries == s.retries
        && backgroundFailures == s.backgroundFailures
        && corruptMessages == s.corruptMessages
        && corruptPages == s.corruptPages
        && deadLettered == s.deadLettered
        && owedCheckpoints == s.owedCheckpoints
        && recordsWaitingForRoom == s.recordsWaitingForRoom
        && writersWaitingForRoom == s.writersWaitingForRoom;
  }

  @Override
  public int hashCode() {
    return Objects.hash(
        bufferPool,
        commits,
        aborts,
        failedCommits,
        unknownCommits,
        pagesWritten,
        checkpointsRun,
        checkpointsFailed,
        pendingOwnWrites,
        retries,
        backgroundFailures,
        corruptMessages,
        corruptPages,
        deadLettered,
        owedCheckpoints,
        recordsWaitingForRoom,
        writersWaitingForRoom);
  }

  @Override
  public String toString() {
    return "DatabaseStats{commits="
        + commits
        + ", aborts="
        + aborts
        + ", failedCommits="
        + failedCommits
        + ", unknownCommits="
        + unknownCommits
        + ", pagesWritten="
        + pagesWritten
        + ", checkpointsRun="
        + checkpointsRun
        + ", checkpointsFailed="
        + checkpointsFailed
        + ", pendingOwnWrites="
        + pendingOwnWrites
        + ", retries="
        + retries
        + ", backgroundFailures="
        + backgroundFailures
        + ", corruptMessages="
        + corruptMessages
        + ", corruptPages="
        + corruptPages
        + ", deadLettered="
        + deadLettered
        + ", owedCheckpoints="
        + owedCheckpoints
        + ", recordsWaitingForRoom="
        + recordsWaitingForRoom
        + ", writersWaitingForRoom="
        + writersWaitingForRoom
        + ", bufferPool="
        + bufferPool
        + "}";
  }
}
