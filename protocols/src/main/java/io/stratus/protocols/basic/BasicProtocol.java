package io.stratus.protocols.basic;

import io.stratus.protocols.CommitProtocol;
import io.stratus.protocols.ProtocolContext;
import io.stratus.protocols.ProtocolKind;
import io.stratus.protocols.engine.PuQueueLog;
import io.stratus.protocols.engine.QueueEngine;
import io.stratus.protocols.engine.ReadYourWrites;
import io.stratus.protocols.engine.Sequencing;

/**
 * The basic protocol (paper 000, section 4) as an assembly of the queue-commit engine: commits
 * send unnumbered log records straight to the pending-update queues ({@link PuQueueLog}), no order
 * among a handle's commits ({@link Sequencing#none()}), no read-your-writes ({@link
 * ReadYourWrites#none()}).
 *
 * <p><b>Guarantees</b>: a record whose commit returned is durable and eventually applied (even
 * when checkpointers crash); eventual consistency; no atomicity (a commit that fails part-way may
 * be applied in part); no read-your-writes: this client sees its writes once they are
 * checkpointed. Updates of one key are applied in commit order within one checkpoint; across
 * checkpoints, a reordered or duplicated message can apply an older update after a newer one
 * (paper 000, section 4.3: the indeterminism the monotonic protocol's counters remove).
 */
public final class BasicProtocol {
  /** The assembly. */
  public static final QueueEngine.Assembly ASSEMBLY =
      new QueueEngine.Assembly(
          ProtocolKind.BASIC,
          (ctx, leases, stamps) -> Sequencing.none(),
          ReadYourWrites::none,
          PuQueueLog::new);

  private BasicProtocol() {}

  /** Opens the basic protocol over {@code ctx}. */
  public static CommitProtocol open(ProtocolContext ctx) {
    return new QueueEngine(ctx, ASSEMBLY);
  }
}
