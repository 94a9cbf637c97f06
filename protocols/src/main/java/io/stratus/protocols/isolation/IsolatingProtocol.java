package io.stratus.protocols.isolation;

import io.stratus.protocols.CheckpointSummary;
import io.stratus.protocols.CommitProtocol;
import io.stratus.protocols.CommitResult;
import io.stratus.protocols.ProtocolKind;
import io.stratus.protocols.RecoverySummary;
import io.stratus.protocols.WriteSet;

/**
 * What the isolating protocols do alike as {@link CommitProtocol}s: their maintenance and
 * lifecycle are their {@link IsolationCore}'s, and they commit only through the transactions
 * {@link #begin} returns, which each protocol makes its own way.
 */
abstract class IsolatingProtocol implements CommitProtocol {
  final IsolationCore core;

  IsolatingProtocol(IsolationCore core) {
    this.core = core;
  }

  @Override
  public final ProtocolKind kind() {
    return core.kind();
  }

  /**
   * {@inheritDoc} Recovers the stale commit records first, then checkpoints every tree with an
   * archive up to the validated commit id.
   */
  @Override
  public final CheckpointSummary checkpointAll() {
    return core.checkpointAll();
  }

  @Override
  public final RecoverySummary recoverAbandonedClients() {
    return core.recoverAbandonedClients();
  }

  @Override
  public final long backgroundCheckpointsRun() {
    return core.backgroundCheckpointsRun();
  }

  @Override
  public final long backgroundCheckpointsFailed() {
    return core.backgroundCheckpointsFailed();
  }

  @Override
  public final long backgroundFailures() {
    return core.backgroundFailures();
  }

  /** Not used: every commit goes through the transaction {@link #begin} returned. */
  @Override
  public final CommitResult commit(WriteSet ws) {
    throw new IllegalStateException(
        kind().name().toLowerCase(java.util.Locale.ROOT)
            + " commits through its transactions (begin)");
  }

  @Override
  public final void close() {
    core.close();
  }
}
