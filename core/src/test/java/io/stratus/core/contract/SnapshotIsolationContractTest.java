package io.stratus.core.contract;

import io.stratus.protocols.ProtocolKind;

/** The protocol contract run against {@link ProtocolKind#SNAPSHOT_ISOLATION}. */
class SnapshotIsolationContractTest extends ProtocolContract {
  @Override
  protected ProtocolKind kind() {
    return ProtocolKind.SNAPSHOT_ISOLATION;
  }
}
