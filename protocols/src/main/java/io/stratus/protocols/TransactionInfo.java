package io.stratus.protocols;

import java.time.Instant;
import java.util.Objects;

/**
 * Who a transaction is, as the protocol hooks see it: for protocols that act at begin, on reads or
 * at the end (generalized snapshot isolation takes a snapshot id at begin; two-phase locking locks
 * pages as they are read and releases them at the end).
 *
 * @param transactionId unique within the client
 * @param clientId the client running it
 * @param began when it began, on the database's clock
 * @param readOnly whether the transaction was begun as read-only ({@code Database.read}): it will
 *     not commit changes, so a protocol may serve it from a snapshot it already holds
 */
public record TransactionInfo(
    String transactionId, String clientId, Instant began, boolean readOnly) {

  /** A transaction that may write. */
  public TransactionInfo(String transactionId, String clientId, Instant began) {
    this(transactionId, clientId, began, false);
  }

  public TransactionInfo {
    Objects.requireNonNull(transactionId, "transactionId");
    Objects.requireNonNull(clientId, "clientId");
    Objects.requireNonNull(began, "began");
  }
}
