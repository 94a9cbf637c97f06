package io.stratus.cloudapi;

import java.time.Instant;
import java.util.Arrays;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * A message of an advanced queue: its id (ordered by arrival: a message that arrived later has a
 * larger id), the user key given at send (paper 000, section 2.3.4), the payload, and when the
 * queue accepted it, by the service's clock.
 *
 * <p>A message is either readable, or {@linkplain #unreadable unreadable}: a decorator that
 * encodes payloads (encryption) could not open it. An unreadable message keeps its id, key and
 * time, so a consumer can report it and go on with the others; its {@link #payload()} throws.
 * Immutable: the payload is copied on the way in and out.
 */
public final class AdvancedMessage {
  /** The payload an unreadable message holds: none, which {@link #payload()} never returns. */
  private static final byte[] NO_PAYLOAD = new byte[0];

  private final long id;
  private final long key;
  private final byte[] payload;
  private final Instant enqueuedAt;
  private final @Nullable UnreadablePayloadException unreadable;

  public AdvancedMessage(long id, long key, byte[] payload, Instant enqueuedAt) {
    this(id, key, payload.clone(), enqueuedAt, null);
  }

  private AdvancedMessage(
      long id,
      long key,
      byte[] payload,
      Instant enqueuedAt,
      @Nullable UnreadablePayloadException unreadable) {
    this.id = id;
    this.key = key;
    this.payload = payload;
    this.enqueuedAt = Objects.requireNonNull(enqueuedAt, "enqueuedAt");
    this.unreadable = unreadable;
  }

  /** A message whose payload could not be opened; {@link #payload()} throws {@code why}. */
  public static AdvancedMessage unreadable(
      long id, long key, Instant enqueuedAt, UnreadablePayloadException why) {
    return new AdvancedMessage(id, key, NO_PAYLOAD, enqueuedAt, Objects.requireNonNull(why, "why"));
  }

  public long id() {
    return id;
  }

  public long key() {
    return key;
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

  public Instant enqueuedAt() {
    return enqueuedAt;
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof AdvancedMessage
        && ((AdvancedMessage) o).id == id
        && ((AdvancedMessage) o).key == key
        && ((AdvancedMessage) o).isReadable() == isReadable()
        && Arrays.equals(((AdvancedMessage) o).payload, payload);
  }

  @Override
  public int hashCode() {
    return Long.hashCode(id) * 31 + Long.hashCode(key);
  }

  @Override
  public String toString() {
    return "AdvancedMessage{id="
        + id
        + ", key="
        + key
        + ", "
        + (unreadable == null ? payload.length + " bytes" : "unreadable")
        + '}';
  }
}
