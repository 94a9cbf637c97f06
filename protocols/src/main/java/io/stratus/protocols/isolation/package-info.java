/**
 * Generalized snapshot isolation (paper 000, section 5.4) and its serializable mode: {@link
 * io.stratus.protocols.isolation.SnapshotIsolationProtocol} (begin, commit), the per-tree archive
 * of committed log records keyed by commit id ({@code SnapshotArchive}), pages as of a snapshot
 * ({@code SnapshotView}), and the checkpoints that apply the archive and collect it ({@code
 * SnapshotCheckpointer}). Commits go through {@link io.stratus.protocols.advanced.KeyedAtomicQueues}.
 */
package io.stratus.protocols.isolation;
