/**
 * Commit protocols: the seam the record manager commits through, and the protocols behind it
 * (paper 000, sections 4 and 5; paper 001, section 5).
 *
 * <p>The seam is {@link io.stratus.protocols.CommitProtocol}: the record manager begins each
 * transaction there and hands the {@link io.stratus.protocols.ProtocolTransaction} it gets a
 * {@link io.stratus.protocols.WriteSet} (the transaction's logical changes, shaped like the
 * papers' redo log records, and its modified and new pages) and installs the {@link
 * io.stratus.protocols.CommitResult}'s page versions into the buffer pool. {@link
 * io.stratus.protocols.CommitProtocols#create} opens the protocol of a {@link
 * io.stratus.protocols.ProtocolKind} over a {@link io.stratus.protocols.ProtocolContext}; each
 * kind declares its {@link io.stratus.protocols.Guarantee}s. This package is what the record
 * manager uses; the subpackages are the protocols' internals:
 *
 * <ul>
 *   <li>{@code engine}: the queue-commit engine every queue protocol is assembled from, and its
 *       strategies (sequencing, read-your-writes, commit log);
 *   <li>{@code checkpoint}: applying pending updates to pages and trees, and when;
 *   <li>{@code log}: log records, their messages and queues;
 *   <li>{@code lease}: the lease-guarded exclusive pass every pass that must run alone among all
 *       clients takes its lock through;
 *   <li>{@code naive}, {@code basic} (basic and monotonic), {@code atomic}, {@code advanced},
 *       {@code isolation} (snapshot isolation, serializable snapshot, two-phase locking): the
 *       protocols.
 * </ul>
 *
 * <p>Failures map onto {@link io.stratus.CommitFailedException} (nothing visible) and {@link
 * io.stratus.CommitStateUnknownException} (perhaps partly applied). See {@code docs/protocols.md}.
 */
package io.stratus.protocols;
