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
 */
public record TransactionInfo(String transactionId, String clientId, Instant began) {
  public TransactionInfo {
    Objects.requireNonNull(transactionId, "transactionId");
    Objects.requireNonNull(clientId, "clientId");
    Objects.requireNonNull(began, "began");
  }
}
