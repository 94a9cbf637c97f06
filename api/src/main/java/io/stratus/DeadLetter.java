package io.stratus;

import java.time.Instant;
import java.util.Objects;
import java.util.OptionalLong;

/**
 * One damaged message in a database's dead-letter area ({@code <database>/dead/}): set aside
 * from its queue because it could not be applied, until an operator replays, skips or discards
 * it.
 *
 * @param item the storage item that holds it
 * @param queue the queue it was taken from (and is replayed into)
 * @param messageId its id in that queue
 * @param reason why it could not be applied
 * @param setAsideAt when it was moved
 * @param payload its bytes as received
 * @param key the key of a message of an advanced queue (it is replayed with it); empty for a
 *     message of a simple queue
 */
public record DeadLetter(
    String item,
    String queue,
    String messageId,
    String reason,
    Instant setAsideAt,
    byte[] payload,
    OptionalLong key) {
  public DeadLetter {
    Objects.requireNonNull(item, "item");
    Objects.requireNonNull(queue, "queue");
    Objects.requireNonNull(messageId, "messageId");
    Objects.requireNonNull(reason, "reason");
    Objects.requireNonNull(setAsideAt, "setAsideAt");
    Objects.requireNonNull(key, "key");
    payload = payload.clone();
  }

  /** A message of a simple queue (no key). */
  public DeadLetter(
      String item,
      String queue,
      String messageId,
      String reason,
      Instant setAsideAt,
      byte[] payload) {
    this(item, queue, messageId, reason, setAsideAt, payload, OptionalLong.empty());
  }

  /** This entry with other bytes: a message repaired by hand, to replay. */
  public DeadLetter withPayload(byte[] repaired) {
    return new DeadLetter(item, queue, messageId, reason, setAsideAt, repaired, key);
  }

  @Override
  public byte[] payload() {
    return payload.clone();
  }

  @Override
  public String toString() {
    return "DeadLetter{"
        + item
        + ", queue="
        + queue
        + ", message="
        + messageId
        + (key.isPresent() ? ", key=" + key.getAsLong() : "")
        + ", "
        + payload.length
        + " bytes, set aside "
        + setAsideAt
        + ": "
        + reason
        + "}";
  }
}
