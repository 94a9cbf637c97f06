package io.stratus.core.contract;

import io.stratus.protocols.ProtocolKind;

/** The protocol contract run against {@link ProtocolKind#NAIVE}. */
class NaiveContractTest extends ProtocolContract {
  @Override
  protected ProtocolKind kind() {
    return ProtocolKind.NAIVE;
  }
}
