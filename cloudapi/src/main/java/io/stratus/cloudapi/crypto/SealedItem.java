package io.stratus.cloudapi.crypto;

import io.stratus.cloudapi.StoredItem;
import java.time.Instant;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * An item as encrypted storage holds it, not yet opened ({@link
 * SupportsSealInspection#getSealed}): its version and metadata, the id of the key that sealed it
 * (read from the header, nothing decrypted), and {@link #open()} to decrypt and authenticate it.
 *
 * <p>Immutable and thread-safe. Neither it nor its {@code toString()} hands out the sealed bytes;
 * {@link #open()} hands out the plaintext only after it has been authenticated.
 */
public final class SealedItem {
  private final StoredItem sealed;
  private final Optional<String> keyId;
  private final Envelope envelope;

  SealedItem(StoredItem sealed, Envelope envelope) {
    this.sealed = Objects.requireNonNull(sealed, "sealed");
    this.envelope = Objects.requireNonNull(envelope, "envelope");
    this.keyId = Envelope.keyIdOf(sealed.payload());
  }

  /** The item's URI. */
  public String uri() {
    return sealed.uri();
  }

  /** The storage version of the sealed bytes: what a conditional rewrite must name. */
  public String version() {
    return sealed.version();
  }

  /** The item's metadata, stored as given (neither encrypted nor authenticated). */
  public Map<String, String> metadata() {
    return sealed.metadata();
  }

  public Instant lastModified() {
    return sealed.lastModified();
  }

  /** The stored size: the plaintext's plus {@link Encryption#OVERHEAD} for a sealed payload. */
  public long storedSize() {
    return sealed.size();
  }

  /**
   * The id of the key named in the header; empty when the bytes are no sealed payload of a format
   * this code reads (too short, another format, a malformed key id field). The header is not
   * authenticated until {@link #open()}: bytes changed in storage may name any key.
   */
  public Optional<String> keyId() {
    return keyId;
  }

  /**
   * The item opened: its plaintext, with this version and metadata.
   *
   * @throws io.stratus.cloudapi.UnreadablePayloadException when it is no sealed payload, its key is
   *     not among the keys, or it fails authentication
   */
  public StoredItem open() {
    byte[] plain = envelope.open(Envelope.Kind.ITEM, sealed.uri(), 0, sealed.payload(), "the item");
    return new StoredItem(
        sealed.uri(), plain, sealed.metadata(), sealed.version(), sealed.lastModified());
  }

  @Override
  public String toString() {
    return "SealedItem{"
        + sealed.uri()
        + ", version="
        + sealed.version()
        + ", key="
        + keyId.orElse("(none)")
        + ", "
        + sealed.size()
        + " bytes}";
  }
}
