package io.stratus.protocols.advanced;

import io.stratus.protocols.CommitProtocol;
import io.stratus.protocols.ProtocolContext;
import io.stratus.protocols.ProtocolKind;
import io.stratus.protocols.engine.OwnWrites;
import io.stratus.protocols.engine.QueueEngine;
import io.stratus.protocols.engine.WriterLanes;

/**
 * Advanced atomicity (paper 000, section 5.3) as an assembly of the queue-commit engine: the
 * monotonic protocol's writer lanes ({@link WriterLanes}) and overlay ({@link OwnWrites}), with
 * commits going to the shared, keyed ATOMIC and ATOMIC COMMIT advanced queues first and to the PU
 * queues by propagation ({@link KeyedQueueLog}).
 *
 * <p><b>Guarantees</b>: those of the atomic protocol; in addition, any client finishes a crashed
 * client's committed transaction once it is older than the atomic timeout, and commits are
 * refused ({@link io.stratus.DatabaseInRecoveryException}) while another client does so. Needs
 * advanced queues and locks besides the simple queues.
 */
public final class AdvancedAtomicProtocol {
  /** The assembly. */
  public static final QueueEngine.Assembly ASSEMBLY =
      new QueueEngine.Assembly(
          ProtocolKind.ADVANCED_ATOMIC, WriterLanes::open, OwnWrites::new, KeyedQueueLog::new);

  private AdvancedAtomicProtocol() {}

  /** Opens the advanced atomic protocol over {@code ctx}. */
  public static CommitProtocol open(ProtocolContext ctx) {
    return new QueueEngine(ctx, ASSEMBLY);
  }
}
