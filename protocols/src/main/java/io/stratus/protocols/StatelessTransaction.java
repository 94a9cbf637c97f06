package io.stratus.protocols;

import io.stratus.pagemanager.PageStore;

/**
 * The {@link ProtocolTransaction} of a protocol that keeps no state per transaction: every hook
 * goes to the protocol's handle-wide method.
 */
record StatelessTransaction(CommitProtocol protocol, TransactionInfo info)
    implements ProtocolTransaction {

  @Override
  public PageStore readView(PageStore pages) {
    return protocol.readView(info, pages);
  }

  @Override
  public CommitResult commit(WriteSet ws) {
    return protocol.commit(ws);
  }

  @Override
  public void finish(boolean committed) {
    protocol.onFinish(info, committed);
  }
}
