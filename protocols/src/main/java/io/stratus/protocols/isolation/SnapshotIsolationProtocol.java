package io.stratus.protocols.isolation;

import io.stratus.protocols.CommitProtocol;
import io.stratus.protocols.ProtocolContext;
import io.stratus.protocols.ProtocolKind;

/**
 * Generalized snapshot isolation (paper 000, section 5.4, Algorithms 7 to 9) as an assembly of
 * the isolating engine: transactions read a snapshot through the archive ({@link SnapshotReads})
 * and lock what they write at commit; a commit aborts when a commit after its snapshot changed a
 * record it changes ({@link Validation#firstCommitterWins()}).
 *
 * <p><b>Guarantees</b>: those of the advanced atomic protocol, plus snapshot isolation: every
 * transaction reads one committed state (its own latest commit included) and two transactions that
 * change one record never both commit. Write skew is possible; {@link
 * SerializableSnapshotProtocol} rules it out.
 */
public final class SnapshotIsolationProtocol {
  /** The assembly. */
  static final IsolationEngine.Assembly ASSEMBLY =
      new IsolationEngine.Assembly(
          ProtocolKind.SNAPSHOT_ISOLATION, SnapshotReads::new, Validation.firstCommitterWins());

  private SnapshotIsolationProtocol() {}

  /** Opens snapshot isolation over {@code ctx}. */
  public static CommitProtocol open(ProtocolContext ctx) {
    return new IsolationEngine(ctx, ASSEMBLY);
  }
}
