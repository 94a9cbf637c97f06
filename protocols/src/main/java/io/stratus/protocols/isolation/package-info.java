/**
 * The isolating protocols (paper 000, sections 5.3 to 5.5) as assemblies of one engine ({@code
 * IsolationEngine}): {@link io.stratus.protocols.isolation.SnapshotIsolationProtocol}, {@link
 * io.stratus.protocols.isolation.SerializableSnapshotProtocol} and {@link
 * io.stratus.protocols.isolation.LockingProtocol}, each a read strategy ({@code SnapshotReads},
 * {@code LockedReads}) with a validation ({@code Validation}), over the shared parts: the commit
 * ids ({@code CommitIds}), the record locks ({@code RecordLocks}), the per-tree archive of
 * committed log records keyed by commit id ({@code SnapshotArchive}), pages as of a snapshot
 * ({@code SnapshotView}), the durable half of a commit ({@code DurableCommit}, through {@link
 * io.stratus.protocols.advanced.KeyedAtomicQueues}) and the checkpoints that apply the archive and
 * collect it ({@code ArchiveCheckpoints}, {@code SnapshotCheckpointer}).
 */
package io.stratus.protocols.isolation;
