package io.stratus.core.contract;

import io.stratus.protocols.ProtocolKind;

/** The protocol contract run against {@link ProtocolKind#SERIALIZABLE_SNAPSHOT}. */
class SerializableSnapshotContractTest extends ProtocolContract {
  @Override
  protected ProtocolKind kind() {
    return ProtocolKind.SERIALIZABLE_SNAPSHOT;
  }
}
