package io.stratus.protocols.isolation;

import io.stratus.protocols.CommitProtocol;
import io.stratus.protocols.ProtocolContext;
import io.stratus.protocols.ProtocolKind;

/**
 * Serializable snapshot isolation (beyond the papers) as an assembly of the isolating engine:
 * snapshot reads ({@link SnapshotReads}) as in {@link SnapshotIsolationProtocol}, and a commit
 * that also aborts when a commit between its snapshot and its own changed a key in a range it
 * read — every point read, scan and index probe, as the record manager reports them ({@link
 * Validation#readRanges()}).
 *
 * <p><b>Guarantees</b>: those of snapshot isolation, plus serializability: commit-id order is a
 * serialization order of the committed transactions.
 */
public final class SerializableSnapshotProtocol {
  /** The assembly. */
  static final IsolationEngine.Assembly ASSEMBLY =
      new IsolationEngine.Assembly(
          ProtocolKind.SERIALIZABLE_SNAPSHOT, SnapshotReads::new, Validation.readRanges());

  private SerializableSnapshotProtocol() {}

  /** Opens serializable snapshot isolation over {@code ctx}. */
  public static CommitProtocol open(ProtocolContext ctx) {
    return new IsolationEngine(ctx, ASSEMBLY);
  }
}
