package io.stratus.core;

import io.stratus.CheckpointSummary;
import io.stratus.DeadLetter;
import io.stratus.RecoverySummary;
import io.stratus.core.CloudFailures.Effect;
import io.stratus.core.DatabaseConfig.IndexId;
import io.stratus.pagemanager.PageWriter;
import io.stratus.protocols.CommitProtocol;
import io.stratus.protocols.DamageReports;
import io.stratus.protocols.DeadLetters;
import io.stratus.protocols.ProtocolKind;
import io.stratus.protocols.StorageLayout;
import java.util.List;

/**
 * The operator's side of a database: applying every pending update now, recovering other clients'
 * transactions, the dead-letter area, verification, key rotation, inspection and protocol
 * switches. An application's request path needs none of it; a {@link Database} hands out its
 * facet with {@link Database#admin()}, and the static methods work on a database that is not
 * open (one that does not open, or that must not start a commit protocol). See
 * docs/operations.md.
 *
 * <p>Each instance method works through the handle that made the facet: it fails with {@link
 * io.stratus.DatabaseClosedException} once that handle is closed, and reports a cloud failure as
 * a {@link io.stratus.CloudServiceException} that says whether it is safe to retry.
 *
 * <p><b>Thread safety.</b> Thread-safe, like its handle; no static state.
 */
public final class DatabaseAdmin {
  private final Database db;
  private final DatabaseConfig config;
  private final CommitProtocol protocol;
  private final IndexReconciler reconciler;
  private final PageWriter writer;
  private final DeadLetters deadLetters;

  /** The facet of {@code db}, made once by the handle. */
  DatabaseAdmin(
      Database db,
      CommitProtocol protocol,
      IndexReconciler reconciler,
      PageWriter writer,
      DamageReports damage) {
    this.db = db;
    this.config = db.config();
    this.protocol = protocol;
    this.reconciler = reconciler;
    this.writer = writer;
    this.deadLetters =
        new DeadLetters(
            config.services().storage(),
            config.services().hasSimpleQueues() ? config.services().simpleQueues() : null,
            config.services().hasAdvancedQueues() ? config.services().advancedQueues() : null,
            new StorageLayout(config.databaseUri()),
            config.clock(),
            damage);
  }

  /**
   * Applies every pending update of the database now, on the calling thread; not part of any
   * transaction. Under the queue-based protocols it lists the database's PU queues and checkpoints
   * each until it stays empty for a few receives (bounded); use it before a planned shutdown of
   * all clients, or in tests to reach quiescence. Other clients' concurrent checkpoints make it
   * skip the queues they hold. Under the naive protocol there is nothing to apply. Then, under
   * every protocol, it reconciles each index created long enough ago (see {@link
   * Database#createIndex}) whose extractor is attached to this handle: adds the entries of records
   * written by handles that did not know the index yet, and checkpoints those entries' records.
   *
   * @return what was done: queues, checkpoints, records applied, pages written, failures
   */
  public CheckpointSummary checkpointAll() {
    return db.guarded(
        Effect.READS,
        () -> "checkpointAll",
        () -> {
          CheckpointSummary summary = protocol.checkpointAll();
          // After the records queued so far are applied: a new index's entries of records written
          // by handles that did not know it yet, then those entries' own records.
          return reconciler.reconcileDue() > 0 ? protocol.checkpointAll() : summary;
        });
  }

  /**
   * Recovers the ATOMIC queues of the other clients of the database under the atomic protocol
   * (paper 000, section 5.1), on the calling thread: committed transactions of clients that died
   * before propagating them are propagated, transactions that never got a commit record and are
   * older than the atomic timeout are deleted. Safe while those clients are alive and while
   * several clients recover at once; {@link #checkpointAll()} does it too. Does nothing under the
   * other protocols.
   */
  public RecoverySummary recoverAbandonedClients() {
    return db.guarded(
        Effect.READS, () -> "recoverAbandonedClients", protocol::recoverAbandonedClients);
  }

  /**
   * The damaged messages in the database's dead-letter area: log messages that failed their
   * checksum or had an unknown format, moved out of their queues by checkpoints and recovery (so
   * they no longer come back to every pass, nor hold back their writer's later records) and kept
   * for an operator. Each entry says where it came from, why and when, and holds its bytes.
   * {@link DatabaseStats#deadLettered()} counts those this handle moved.
   *
   * @throws io.stratus.CloudServiceException when storage cannot be listed or read
   */
  public List<DeadLetter> deadLetters() {
    return db.guarded(Effect.READS, () -> "listing dead letters", deadLetters::list);
  }

  /**
   * Sends a dead letter's bytes back to its queue and removes it from the area: for a message a
   * newer client version can read, or one an operator repaired. A checkpoint that still cannot
   * read it sets it aside again. Safe to retry: a message sent twice is applied once.
   *
   * @return the id of the message sent
   * @throws io.stratus.CloudServiceException when the send or the delete fails
   */
  public String replayDeadLetter(DeadLetter entry) {
    Args.notNull(entry, "entry");
    return db.guarded(
        Effect.CHANGES, () -> "replaying " + entry.item(), () -> deadLetters.replay(entry));
  }

  /**
   * Removes a dead letter for good: whatever its records held is given up. For a message an
   * operator has judged unrecoverable (its writer's later records no longer wait for it either
   * way: it left its queue when it was set aside).
   *
   * @throws io.stratus.CloudServiceException when the delete fails
   */
  public void discardDeadLetter(DeadLetter entry) {
    Args.notNull(entry, "entry");
    db.guarded(
        Effect.CHANGES,
        () -> "discarding " + entry.item(),
        () -> {
          deadLetters.discard(entry);
          return null;
        });
  }

  /**
   * Gives a dead letter up and lets its queue move on: removes it from the area, then checkpoints
   * its queue taking the counters its writer's chains still wait for as gone, so that what the
   * writer committed after it is applied (under the monotonic protocols those records wait for
   * the missing one, for ever). The writer's own reads then show what everyone reads. Use it once
   * the message is known to be unrecoverable; a record of the skipped counters that still arrives
   * is dropped as applied. The waiting records must be visible to the checkpoint: a checkpoint
   * that received them within the last checkpoint lock timeout hid them until it ends, and a
   * chain is closed only up to the records seen (skipping a dead letter twice is harmless).
   *
   * @return whether the queue's checkpoint ran (false: another client holds it, or the queue is
   *     not one of this protocol's; call again)
   * @throws io.stratus.CloudServiceException when a cloud call fails
   */
  public boolean skipDeadLetter(DeadLetter entry) {
    Args.notNull(entry, "entry");
    return db.guarded(
        Effect.CHANGES,
        () -> "skipping " + entry.item(),
        () -> {
          deadLetters.discard(entry);
          return protocol.closeGaps(entry.queue());
        });
  }

  /**
   * Scans the database without changing it and reports what is wrong, with {@linkplain
   * VerifyOptions#defaults() default options}. See {@link #verify(VerifyOptions)}.
   */
  public VerificationReport verify() {
    return verify(VerifyOptions.defaults());
  }

  /**
   * Scans the database without changing it (no lock, no write, no message received or deleted)
   * and reports what is wrong: pages that do not decode, broken B-link invariants in any tree,
   * catalog entries without roots and roots without catalog entries, index entries without records
   * and records missing from their indexes (for indexes whose extractor is attached to this
   * handle), pending-update and ATOMIC queues whose oldest message is late or near the queue's
   * retention, pages no tree reaches, and dead letters. Pages are read straight from storage, past
   * the handle's buffer pool. Damage is a finding, never an exception: the scan goes on past it.
   * Reads every page of the database: cost and time grow with its size.
   *
   * @throws io.stratus.InvalidRequestException when {@code options} is null
   */
  public VerificationReport verify(VerifyOptions options) {
    db.checkOpen();
    Args.notNull(options, "options");
    return new Verifier(config, db::extractor, options).run();
  }

  /**
   * {@link #verify(VerifyOptions)} without opening the database: for a database that does not
   * open (a damaged catalog), or to verify without starting a commit protocol. Uses the
   * extractors of {@code config}.
   *
   * @throws io.stratus.InvalidRequestException when an argument is null
   */
  public static VerificationReport verify(DatabaseConfig config, VerifyOptions options) {
    Args.notNull(config, "config");
    Args.notNull(options, "options");
    return new Verifier(config, (c, i) -> config.extractors().get(new IndexId(c, i)), options)
        .run();
  }

  /**
   * For key rotation: finds every stored object of the database — the catalog, the pages of every
   * tree (reachable or not), the dead letters — that is sealed with another key than the one now
   * active for it in the handle's {@link Keyring}, and (unless {@link ResealOptions#dryRun()})
   * puts it back sealed with the active key, so that afterwards no stored object needs an old
   * key. Reports, per key id, how many objects used it before and after. Queue messages are not
   * rewritten; the report says how long old-key messages may stay.
   *
   * <p>Safe while other clients run: each rewrite is a conditional put on the version read, with
   * the same content and, for a page, a version stamp above the one read; a rewrite that loses a
   * race reads the object again. Run it once every client has the keyring with the new key
   * active (a client that still seals with the old key seals it in again); a dry run afterwards
   * shows what is left. Reads every object, puts each stale one: cost grows with the database.
   *
   * @throws io.stratus.InvalidRequestException when the database is not encrypted by the handle
   *     (no keyring), or the storage has no conditional puts and the options neither declare the
   *     database quiescent nor ask for a dry run
   * @throws io.stratus.CloudServiceException when a cloud call fails (objects rewritten so far
   *     stay rewritten; run it again)
   */
  public ResealReport reseal(ResealOptions options) {
    return db.guarded(
        Effect.CHANGES,
        () -> "re-sealing " + config.databaseUri(),
        () -> new Resealer(config, writer, Args.notNull(options, "options")).run());
  }

  /**
   * {@link #reseal(ResealOptions)} without opening the database: no commit protocol is started
   * (no recovery at open, no checkpoint). Pages are stamped above the version read, as by a
   * handle that has seen nothing else.
   *
   * @throws io.stratus.InvalidRequestException when an argument is null, or as {@link
   *     #reseal(ResealOptions)}
   */
  public static ResealReport reseal(DatabaseConfig config, ResealOptions options) {
    Args.notNull(config, "config");
    Args.notNull(options, "options");
    return CloudFailures.changing(
        () -> "re-sealing " + config.databaseUri(), () -> Resealer.withOwnPool(config, options));
  }

  /**
   * Inspection without opening the database: what it holds ({@link DatabaseOverview}:
   * collections, indexes, pages per tree, queue backlogs; records per collection at {@link
   * DatabaseOverview.Depth#RECORDS}, which reads every leaf). Read-only like {@link
   * #verify(DatabaseConfig, VerifyOptions)}: no protocol is started, no lock taken, nothing
   * created, no message received. A database without a catalog reads as one without collections.
   *
   * @throws io.stratus.InvalidRequestException when an argument is null
   * @throws io.stratus.CorruptPageException when the catalog cannot be read or decoded
   * @throws io.stratus.CloudServiceException when storage or a queue cannot be read
   */
  public static DatabaseOverview overview(DatabaseConfig config, DatabaseOverview.Depth depth) {
    Args.notNull(config, "config");
    Args.notNull(depth, "depth");
    return DatabaseOverview.read(config, depth);
  }

  /**
   * Moves the database of {@code current} (configured for the protocol it runs) to {@code next}
   * where {@link ProtocolKind#switchableTo} allows it. Opens a handle with {@code current},
   * recovers and checkpoints until nothing is left that only that protocol would finish, records
   * {@code next} in the catalog and closes. Close every other handle first (one still open
   * refuses to work once it sees the switch). See docs/operations.md.
   *
   * @return the last checkpoint pass
   * @throws io.stratus.InvalidConfigurationException when the database cannot move to {@code
   *     next}, or does not run the protocol of {@code current}
   * @throws io.stratus.InvalidRequestException when work was left after the passes (nothing was
   *     switched; run it again later)
   */
  public static CheckpointSummary switchProtocol(DatabaseConfig current, ProtocolKind next) {
    Args.notNull(current, "current");
    Args.notNull(next, "next");
    return ProtocolRecord.switchProtocol(current, next);
  }
}
