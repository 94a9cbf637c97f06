package io.stratus.protocols;

import io.stratus.InvalidRequestException;
import io.stratus.protocols.advanced.AdvancedAtomicProtocol;
import io.stratus.protocols.atomic.AtomicProtocol;
import io.stratus.protocols.basic.BasicProtocol;
import io.stratus.protocols.basic.MonotonicProtocol;
import io.stratus.protocols.isolation.LockingProtocol;
import io.stratus.protocols.isolation.SerializableSnapshotProtocol;
import io.stratus.protocols.isolation.SnapshotIsolationProtocol;
import io.stratus.protocols.naive.NaiveProtocol;
import java.util.Objects;

/** Makes the {@link CommitProtocol} of a {@link ProtocolKind}. */
public final class CommitProtocols {
  private CommitProtocols() {}

  /**
   * The protocol of {@code context}'s settings, over {@code context}.
   *
   * @throws InvalidRequestException when this build does not implement the protocol
   */
  public static CommitProtocol create(ProtocolContext context) {
    Objects.requireNonNull(context, "context");
    ProtocolKind kind = context.kind();
    switch (kind) {
      case NAIVE:
        return new NaiveProtocol(context);
      case BASIC:
        return BasicProtocol.open(context);
      case MONOTONIC:
        return MonotonicProtocol.open(context);
      case ATOMIC:
        return AtomicProtocol.open(context);
      case ADVANCED_ATOMIC:
        return AdvancedAtomicProtocol.open(context);
      case SNAPSHOT_ISOLATION:
        return SnapshotIsolationProtocol.open(context);
      case SERIALIZABLE_SNAPSHOT:
        return SerializableSnapshotProtocol.open(context);
      case TWO_PHASE_LOCKING:
        return LockingProtocol.open(context);
      default:
        throw new InvalidRequestException(
            "protocol "
                + kind
                + " is not available yet; this build implements "
                + ProtocolKind.NAIVE
                + ", "
                + ProtocolKind.BASIC
                + ", "
                + ProtocolKind.MONOTONIC
                + ", "
                + ProtocolKind.ATOMIC
                + " and "
                + ProtocolKind.ADVANCED_ATOMIC);
    }
  }
}
