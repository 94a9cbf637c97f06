package io.stratus.core.contract;

import io.stratus.protocols.ProtocolKind;

/** The protocol contract run against {@link ProtocolKind#ADVANCED_ATOMIC}. */
class AdvancedAtomicContractTest extends ProtocolContract {
  @Override
  protected ProtocolKind kind() {
    return ProtocolKind.ADVANCED_ATOMIC;
  }
}
