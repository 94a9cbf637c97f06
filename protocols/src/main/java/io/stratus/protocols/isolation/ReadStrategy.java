package io.stratus.protocols.isolation;

import io.stratus.protocols.ProtocolTransaction;
import io.stratus.protocols.TransactionInfo;

/**
 * How the transactions of an isolating protocol read, and so what their commits lock: the read
 * strategy of an {@link IsolationEngine.Assembly}.
 *
 * <p>Why a strategy: reading a snapshot ({@link SnapshotReads}: the archive as of the base, no
 * locks until the commit, which locks what it writes) and reading the latest committed state
 * under locks ({@link LockedReads}: shared locks as the record manager reports each read, next-key
 * locks against phantoms) are the two ways the papers read; either commits through the same
 * durable half ({@link DurableCommit}) once it holds its locks, after its {@link Validation}.
 */
interface ReadStrategy {
  /** A new transaction of the handle. */
  ProtocolTransaction begin(TransactionInfo tx);
}
