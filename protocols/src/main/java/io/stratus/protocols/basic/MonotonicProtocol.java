package io.stratus.protocols.basic;

import io.stratus.protocols.CommitProtocol;
import io.stratus.protocols.ProtocolContext;
import io.stratus.protocols.ProtocolKind;
import io.stratus.protocols.engine.OwnWrites;
import io.stratus.protocols.engine.PuQueueLog;
import io.stratus.protocols.engine.QueueEngine;
import io.stratus.protocols.engine.WriterLanes;

/**
 * The monotonic protocol (paper 001, section 5.2) as an assembly of the queue-commit engine: the
 * basic protocol's direct log ({@link PuQueueLog}) with records numbered per writer lane and queue
 * ({@link WriterLanes}), so that checkpoints apply each writer's records exactly once and in
 * order, and the handle's pending records overlaid on its reads ({@link OwnWrites}).
 *
 * <p><b>Guarantees</b>: those of the basic protocol, plus monotonic writes (a handle's commits are
 * applied in the order they completed; overlapping commits in some order), read-your-writes, and
 * monotonic reads (the buffer pool never accepts a page older than one it has seen). A commit
 * whose outcome is unknown is sent again until it arrives, so it never leaves a gap.
 */
public final class MonotonicProtocol {
  /** The assembly. */
  public static final QueueEngine.Assembly ASSEMBLY =
      new QueueEngine.Assembly(
          ProtocolKind.MONOTONIC, WriterLanes::open, OwnWrites::new, PuQueueLog::new);

  private MonotonicProtocol() {}

  /** Opens the monotonic protocol over {@code ctx}. */
  public static CommitProtocol open(ProtocolContext ctx) {
    return new QueueEngine(ctx, ASSEMBLY);
  }
}
