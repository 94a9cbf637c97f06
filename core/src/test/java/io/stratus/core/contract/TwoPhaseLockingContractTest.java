package io.stratus.core.contract;

import io.stratus.protocols.ProtocolKind;

/** The protocol contract run against {@link ProtocolKind#TWO_PHASE_LOCKING}. */
class TwoPhaseLockingContractTest extends ProtocolContract {
  @Override
  protected ProtocolKind kind() {
    return ProtocolKind.TWO_PHASE_LOCKING;
  }
}
