package io.stratus.cloudapi;

import java.time.Instant;
import java.util.Objects;

/**
 * A message of an advanced queue.
 *
 * @param id ordered by arrival: a message that arrived later has a larger id
 * @param key the user key given at send (paper 000, section 2.3.4)
 * @param payload the body (copied; never exposes the record's own array)
 * @param enqueuedAt when the queue accepted the message, by the service's clock
 */
public record AdvancedMessage(long id, long key, byte[] payload, Instant enqueuedAt) {
  public AdvancedMessage {
    payload = payload.clone();
    Objects.requireNonNull(enqueuedAt, "enqueuedAt");
  }

  /** A fresh copy of the payload. */
  @Override
  public byte[] payload() {
    return payload.clone();
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof AdvancedMessage && ((AdvancedMessage) o).id == id
        && ((AdvancedMessage) o).key == key
        && java.util.Arrays.equals(((AdvancedMessage) o).payload, payload);
  }

  @Override
  public int hashCode() {
    return Long.hashCode(id) * 31 + Long.hashCode(key);
  }

  @Override
  public String toString() {
    return "AdvancedMessage{id=" + id + ", key=" + key + ", " + payload.length + " bytes}";
  }
}
