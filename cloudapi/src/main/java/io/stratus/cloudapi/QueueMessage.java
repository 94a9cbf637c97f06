package io.stratus.cloudapi;

import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * A message received from a simple queue: its id, the receipt handle, the payload and how often it
 * was delivered.
 *
 * <p>The receipt handle is what {@link SimpleQueueService#delete} needs: since SQS version
 * 2008-01-01 a message can only be deleted through a handle from a receive (paper 000, section
 * 6.3). The message id is the one {@link SimpleQueueService#send} returned, stable across
 * redeliveries. The delivery count says how many times the message has been handed out, this time
 * included, as far as the service knows (at least 1).
 *
 * <p>A message is either readable, or {@linkplain #unreadable unreadable}: a decorator that
 * encodes payloads (encryption) could not open it. An unreadable message still has its id and
 * handle, so a consumer can report it and leave or delete it one by one without losing the rest
 * of the receive; its {@link #payload()} throws. Immutable: the payload is copied on the way in and
 * out.
 */
public final class QueueMessage {
  /** The payload an unreadable message holds: none, which {@link #payload()} never returns. */
  private static final byte[] NO_PAYLOAD = new byte[0];

  private final String messageId;
  private final String receiptHandle;
  private final byte[] payload;
  private final int deliveryCount;
  private final @Nullable UnreadablePayloadException unreadable;

  public QueueMessage(String messageId, String receiptHandle, byte[] payload, int deliveryCount) {
    this(messageId, receiptHandle, payload.clone(), deliveryCount, null);
  }

  private QueueMessage(
      String messageId,
      String receiptHandle,
      byte[] payload,
      int deliveryCount,
      @Nullable UnreadablePayloadException unreadable) {
    this.messageId = Objects.requireNonNull(messageId, "messageId");
    this.receiptHandle = Objects.requireNonNull(receiptHandle, "receiptHandle");
    this.payload = payload;
    this.deliveryCount = deliveryCount;
    this.unreadable = unreadable;
  }

  /** A message whose payload could not be opened; {@link #payload()} throws {@code why}. */
  public static QueueMessage unreadable(
      String messageId, String receiptHandle, int deliveryCount, UnreadablePayloadException why) {
    return new QueueMessage(
        messageId, receiptHandle, NO_PAYLOAD, deliveryCount, Objects.requireNonNull(why, "why"));
  }

  public String messageId() {
    return messageId;
  }

  public String receiptHandle() {
    return receiptHandle;
  }

  /**
   * A fresh copy of the payload.
   *
   * @throws UnreadablePayloadException when the message is {@linkplain #isReadable() unreadable}
   */
  public byte[] payload() {
    if (unreadable != null) {
      throw new UnreadablePayloadException(unreadable.uri(), unreadable.problem(), unreadable);
    }
    return payload.clone();
  }

  /** Whether {@link #payload()} returns the payload (rather than throwing). */
  public boolean isReadable() {
    return unreadable == null;
  }

  public int deliveryCount() {
    return deliveryCount;
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
    return "QueueMessage{"
        + messageId
        + ", "
        + (unreadable == null ? payload.length + " bytes" : "unreadable")
        + ", delivery "
        + deliveryCount
        + '}';
  }
}
