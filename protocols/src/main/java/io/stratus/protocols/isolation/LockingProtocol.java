package io.stratus.protocols.isolation;

import io.stratus.protocols.CommitProtocol;
import io.stratus.protocols.ProtocolContext;
import io.stratus.protocols.ProtocolKind;

/**
 * Strict two-phase locking (paper 000, section 5.5) as an assembly of the isolating engine:
 * transactions lock what they read and write ({@link LockedReads}: shared locks as they read,
 * next-key locks against phantoms, exclusive locks and insert intentions at commit) and hold every
 * lock until their commit is durable, so a commit needs no look back ({@link Validation#none()}).
 * Read-only transactions take no locks: they read the snapshot of the highest validated commit id,
 * a prefix of the serialization order.
 *
 * <p><b>Guarantees</b>: those of the advanced atomic protocol, plus serializability: commit-id
 * order is a serialization order of the committed transactions.
 */
public final class LockingProtocol {
  /** The assembly. */
  static final IsolationEngine.Assembly ASSEMBLY =
      new IsolationEngine.Assembly(
          ProtocolKind.TWO_PHASE_LOCKING, LockedReads::new, Validation.none());

  private LockingProtocol() {}

  /** Opens two-phase locking over {@code ctx}. */
  public static CommitProtocol open(ProtocolContext ctx) {
    return new IsolationEngine(ctx, ASSEMBLY);
  }
}
