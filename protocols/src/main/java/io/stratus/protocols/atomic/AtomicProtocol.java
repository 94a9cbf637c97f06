package io.stratus.protocols.atomic;

import io.stratus.protocols.CommitProtocol;
import io.stratus.protocols.ProtocolContext;
import io.stratus.protocols.ProtocolKind;
import io.stratus.protocols.engine.OwnWrites;
import io.stratus.protocols.engine.QueueEngine;
import io.stratus.protocols.engine.WriterLanes;

/**
 * The atomic protocol (paper 000, section 5.1; paper 001, section 5.1) as an assembly of the
 * queue-commit engine: the monotonic protocol's writer lanes ({@link WriterLanes}) and overlay
 * ({@link OwnWrites}), with commits going to a per-client ATOMIC queue first and to the PU
 * queues by propagation ({@link AtomicQueueLog}, recovery in {@link AtomicQueueSweeper}).
 *
 * <p><b>Guarantees</b>: those of the monotonic protocol, plus atomicity: all or none of a
 * committed transaction's records are applied, even when the client dies half-way through a
 * commit or a propagation.
 */
public final class AtomicProtocol {
  /** The assembly. */
  public static final QueueEngine.Assembly ASSEMBLY =
      new QueueEngine.Assembly(
          ProtocolKind.ATOMIC, WriterLanes::open, OwnWrites::new, AtomicQueueLog::new);

  private AtomicProtocol() {}

  /** Opens the atomic protocol over {@code ctx}. */
  public static CommitProtocol open(ProtocolContext ctx) {
    return new QueueEngine(ctx, ASSEMBLY);
  }
}
