package io.stratus.cloudapi.crypto;

import java.util.Optional;
import javax.crypto.SecretKey;

/**
 * Where {@link Encryption} gets its keys: which key encrypts what is written at a URI, and the key
 * behind a key id for reading.
 *
 * <p>Why two questions: writing always uses the key chosen for the URI now (the active one), while
 * reading must open whatever an earlier writer stored, so it looks the key up by the id recorded
 * in the payload's header. Rotating a key therefore means making a new key active while the old
 * one stays available for reading.
 *
 * <p>The Cloud API knows nothing about what a URI means; an implementation that chooses keys per
 * part of a database (the record manager's {@code Keyring}) maps URIs to those parts itself.
 * Implementations MUST be thread-safe, MUST answer {@link #key} for every id {@link #activeKeyId}
 * returns, and MUST NOT show key material in {@code toString()}.
 */
public interface EncryptionKeys {

  /**
   * The id of the key that encrypts a payload written at {@code uri} (an item's URI, or a queue's
   * URI for its messages). A valid key id ({@link Encryption#isValidKeyId}).
   */
  String activeKeyId(String uri);

  /** The AES key (128, 192 or 256 bits) with id {@code keyId}, or empty when it is unknown. */
  Optional<SecretKey> key(String keyId);
}
