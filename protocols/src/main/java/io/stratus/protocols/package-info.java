/**
 * Commit protocols and checkpoints: naive, basic, monotonic, atomic; later advanced atomic, GSI
 * and 2PL (paper 000, sections 4 and 5).
 *
 * <p>The seam is {@link io.stratus.protocols.CommitProtocol}: the record manager hands it a
 * {@link io.stratus.protocols.WriteSet} (the transaction's logical changes, shaped like the
 * papers' redo log records, and its modified and new pages) and installs the {@link
 * io.stratus.protocols.CommitResult}'s page versions into the buffer pool. {@link
 * io.stratus.protocols.CommitProtocols#create} makes the protocol of a {@link
 * io.stratus.protocols.ProtocolKind} from a {@link io.stratus.protocols.ProtocolContext}. Only the
 * naive protocol exists so far (package-private; see its class comment for the write order and
 * the failure mapping onto {@link io.stratus.CommitFailedException} and {@link
 * io.stratus.CommitStateUnknownException}).
 */
package io.stratus.protocols;
