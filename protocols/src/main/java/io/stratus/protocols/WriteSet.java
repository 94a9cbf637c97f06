package io.stratus.protocols;

import io.stratus.pagemanager.PageWrite;
import java.util.List;
import java.util.Objects;

/**
 * Everything a transaction asks a protocol to commit, in both forms the protocols need: the
 * logical changes (the redo log records that the queue-based protocols send, paper 000 section
 * 3.5) and the physical pages the transaction's page transaction changed or created (what the
 * naive protocol writes). Immutable.
 *
 * @param transaction the committing transaction
 * @param changes the logical changes in the order they were made
 * @param pages the modified and new pages, each once
 */
public record WriteSet(
    TransactionInfo transaction, List<LogicalChange> changes, List<PageWrite> pages) {

  public WriteSet {
    Objects.requireNonNull(transaction, "transaction");
    changes = List.copyOf(changes);
    pages = List.copyOf(pages);
  }

  /** The committing client's id. */
  public String clientId() {
    return transaction.clientId();
  }

  /** Whether there is nothing to commit (a read-only transaction). */
  public boolean isEmpty() {
    return changes.isEmpty() && pages.isEmpty();
  }
}
