/**
 * Commit protocols and checkpoints: naive, basic, monotonic, atomic; later advanced atomic, GSI
 * and 2PL (paper 000, sections 4 and 5).
 *
 * <p>The seam is {@link io.stratus.protocols.CommitProtocol}: the record manager hands it a
 * {@link io.stratus.protocols.WriteSet} (the transaction's logical changes, shaped like the
 * papers' redo log records, and its modified and new pages) and installs the {@link
 * io.stratus.protocols.CommitResult}'s page versions into the buffer pool. {@link
 * io.stratus.protocols.CommitProtocols#create} makes the protocol of a {@link
 * io.stratus.protocols.ProtocolKind} from a {@link io.stratus.protocols.ProtocolContext}.
 *
 * <p>Implemented (all package-private; see their class comments):
 *
 * <ul>
 *   <li><b>naive</b> ({@code NaiveProtocol}): commit puts the pages; lost updates by design;
 *   <li><b>basic</b> ({@code BasicProtocol}, paper 000 section 4): commit sends log records to
 *       pending-update queues, concurrently ({@code BasicCommit}); checkpoints apply them to data
 *       pages and B-trees under a lock lease ({@code Checkpointer}), started by writers and readers
 *       on the checkpoint executor ({@code CheckpointScheduler}) or by
 *       {@link io.stratus.protocols.CommitProtocol#checkpointAll()}; pages are put conditionally
 *       or, paper-faithful, by timing alone ({@link io.stratus.protocols.CheckpointWrites}).
 *       Durable and eventually consistent; no atomicity, no read-your-writes.
 *   <li><b>monotonic</b> ({@code BasicProtocol} with counters, paper 001 section 5.2): records
 *       numbered per (writer lane, queue), applied in order and exactly once, lanes ordered by
 *       real time ({@code WriterLanes}, {@code WriteChains}); the client's own pending records
 *       overlaid on its reads ({@code OwnWrites}); monotonic reads by page version stamps in the
 *       buffer pool.
 *   <li><b>atomic</b> ({@code AtomicProtocol}, paper 000 section 5.1): the numbered records of a
 *       transaction in one complete-transaction message, or (large ones) log records and then a
 *       commit record, to a per-client ATOMIC queue ({@code AtomicMessages}); propagation to the
 *       PU queues and clean-up on the checkpoint executor; recovery passes under the queue's lock
 *       ({@code AtomicLog}); the monotonic guarantees as above.
 * </ul>
 *
 * <p>Failures map onto {@link io.stratus.CommitFailedException} (nothing visible) and {@link
 * io.stratus.CommitStateUnknownException} (perhaps partly applied). See {@code docs/protocols.md}.
 */
package io.stratus.protocols;
