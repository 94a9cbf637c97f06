package io.stratus.cloudapi;

import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * What a simple queue holds at one moment, as {@link SupportsQueueInspection#inspect} reports it.
 *
 * @param uri the queue
 * @param visible messages a receive could return now (approximate)
 * @param inFlight messages received and hidden for their visibility timeout (approximate)
 * @param oldestSentAt when the oldest message still in the queue was sent, if the service knows;
 *     empty for an empty queue
 * @param retention how long the queue keeps a message before dropping it unapplied
 * @param peeked a few of the messages, oldest first when the service keeps an order
 */
public record QueueBacklog(
    String uri,
    long visible,
    long inFlight,
    Optional<Instant> oldestSentAt,
    Duration retention,
    List<PeekedMessage> peeked) {

  /**
   * The {@link #retention} of a queue that keeps every message until it is deleted (advanced
   * queues, {@link AdvancedQueueService}): longer than any age.
   */
  public static final Duration KEPT_UNTIL_DELETED = ChronoUnit.FOREVER.getDuration();

  /** Checks the values and copies the list. */
  public QueueBacklog {
    Objects.requireNonNull(uri, "uri");
    Objects.requireNonNull(oldestSentAt, "oldestSentAt");
    Objects.requireNonNull(retention, "retention");
    if (visible < 0 || inFlight < 0) {
      throw new IllegalArgumentException("message counts must not be negative");
    }
    peeked = List.copyOf(peeked);
  }

  /** Every message the queue holds, visible or in flight. */
  public long messages() {
    return visible + inFlight;
  }

  /** How old the oldest message is at {@code now}; empty when unknown or the queue is empty. */
  public Optional<Duration> oldestAge(Instant now) {
    return oldestSentAt.map(t -> t.isAfter(now) ? Duration.ZERO : Duration.between(t, now));
  }

  /**
   * A message seen by an inspection, left in its queue.
   *
   * @param messageId the id {@link SimpleQueueService#send} returned
   * @param sentAt when it was sent
   * @param deliveries how often it has been received so far (0 when never)
   * @param payload its body (copied; the record never exposes its own array)
   */
  public record PeekedMessage(String messageId, Instant sentAt, int deliveries, byte[] payload) {
    /** Checks and copies. */
    public PeekedMessage {
      Objects.requireNonNull(messageId, "messageId");
      Objects.requireNonNull(sentAt, "sentAt");
      payload = payload.clone();
    }

    /** A fresh copy of the payload. */
    @Override
    public byte[] payload() {
      return payload.clone();
    }

    /** The payload's size in bytes. */
    public int size() {
      return payload.length;
    }

    @Override
    public boolean equals(Object o) {
      return o instanceof PeekedMessage m
          && m.messageId.equals(messageId)
          && m.sentAt.equals(sentAt)
          && m.deliveries == deliveries
          && java.util.Arrays.equals(m.payload, payload);
    }

    @Override
    public int hashCode() {
      return messageId.hashCode() * 31 + sentAt.hashCode();
    }

    @Override
    public String toString() {
      return "PeekedMessage{"
          + messageId
          + ", sent "
          + sentAt
          + ", "
          + payload.length
          + " bytes, "
          + deliveries
          + " deliveries}";
    }
  }
}
