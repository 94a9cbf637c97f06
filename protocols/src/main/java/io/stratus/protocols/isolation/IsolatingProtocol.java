package io.stratus.protocols.isolation;

import io.stratus.CheckpointSummary;
import io.stratus.RecoverySummary;
import io.stratus.protocols.CommitProtocol;
import io.stratus.protocols.ProtocolKind;
import io.stratus.protocols.ProtocolStats;

/**
 * What the isolating protocols do alike as {@link CommitProtocol}s: their maintenance, counters
 * and lifecycle are their {@link IsolationCore}'s; the transactions {@link #begin} returns are
 * each protocol's own.
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
  public final ProtocolStats stats() {
    return core.stats();
  }

  @Override
  public final void close() {
    core.close();
  }
}
