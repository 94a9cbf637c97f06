package io.stratus.cloudapi;

import java.util.Objects;

/**
 * A message received from a simple queue.
 *
 * @param messageId the id {@link SimpleQueueService#send} returned; stable across redeliveries
 * @param receiptHandle what {@link SimpleQueueService#delete} needs: since SQS version 2008-01-01 a
 *     message can only be deleted through a handle from a receive (paper 000, section 6.3)
 * @param payload the message body (copied; the record never exposes its own array)
 * @param deliveryCount how many times the message has been handed out, this time included, as far
 *     as the service knows (at least 1)
 */
public record QueueMessage(String messageId, String receiptHandle, byte[] payload, int deliveryCount) {
  public QueueMessage {
    Objects.requireNonNull(messageId, "messageId");
    Objects.requireNonNull(receiptHandle, "receiptHandle");
    payload = payload.clone();
  }

  /** A fresh copy of the payload. */
  @Override
  public byte[] payload() {
    return payload.clone();
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof QueueMessage
        && ((QueueMessage) o).messageId.equals(messageId)
        && ((QueueMessage) o).receiptHandle.equals(receiptHandle);
  }

  @Override
  public int hashCode() {
    return messageId.hashCode() * 31 + receiptHandle.hashCode();
  }

  @Override
  public String toString() {
    return "QueueMessage{" + messageId + ", " + payload.length + " bytes, delivery "
        + deliveryCount + '}';
  }
}
