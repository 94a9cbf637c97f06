package io.stratus.core.contract;

import io.stratus.protocols.ProtocolKind;

/** The protocol contract for monotonic. */
class MonotonicContractTest extends ProtocolContract {
  @Override
  protected ProtocolKind kind() {
    return ProtocolKind.MONOTONIC;
  }
}
