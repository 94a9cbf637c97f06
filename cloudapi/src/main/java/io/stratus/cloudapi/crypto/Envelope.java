package io.stratus.cloudapi.crypto;

import io.stratus.cloudapi.BadRequestException;
import io.stratus.cloudapi.UnreadablePayloadException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.util.Optional;
import java.util.Random;
import javax.crypto.AEADBadTagException;
import javax.crypto.Cipher;
import javax.crypto.SecretKey;
import javax.crypto.spec.GCMParameterSpec;
import org.jspecify.annotations.Nullable;

/**
 * Seals payloads with AES-GCM and opens them again. A sealed payload is
 *
 * <pre>
 *   format (1 byte) | key id length (1) | key id, ASCII, zero-padded to 32 bytes
 *   | nonce (12) | ciphertext (as long as the plaintext) | tag (16)
 * </pre>
 *
 * <p>The header has one fixed length so that the overhead is a constant: sizes reported without
 * reading a payload (metadata, listings) and the limits handed to the layers above are exact.
 *
 * <p>Associated data (authenticated, not stored): the header, the kind of payload (item, simple
 * message, advanced message), an advanced message's key, and the URI (the item's, or the queue's
 * for a message). So bytes copied to another item, a message moved to another queue, a storage
 * payload offered as a message, or a message whose key was changed fail authentication.
 *
 * <p>Thread-safe: a {@link Cipher} is made per call (they are not thread-safe, and making one costs
 * little next to a cloud request), and the nonce source is used under its own synchronization.
 */
final class Envelope {
  static final byte FORMAT = 1;
  static final int KEY_ID_FIELD = Encryption.MAX_KEY_ID_LENGTH;
  static final int HEADER = 2 + KEY_ID_FIELD;
  static final int NONCE = Encryption.NONCE_BYTES;
  static final int TAG = Encryption.TAG_BITS / 8;
  static final int OVERHEAD = HEADER + NONCE + TAG;

  /** What a payload is, so one kind can never be accepted as another. */
  enum Kind {
    ITEM(1),
    SIMPLE_MESSAGE(2),
    ADVANCED_MESSAGE(3);

    final byte tag;

    Kind(int tag) {
      this.tag = (byte) tag;
    }
  }

  private final EncryptionKeys keys;
  private final Random nonces;

  Envelope(EncryptionKeys keys, Random nonces) {
    this.keys = keys;
    this.nonces = nonces;
  }

  /** {@code plain} sealed under the key active for {@code uri}. */
  byte[] seal(Kind kind, String uri, long messageKey, byte[] plain) {
    String keyId = keys.activeKeyId(uri);
    if (!Encryption.isValidKeyId(keyId)) {
      throw new BadRequestException("the active key id for " + uri + " is not a valid key id");
    }
    SecretKey key =
        keys.key(keyId)
            .orElseThrow(
                () ->
                    new BadRequestException(
                        "the active key "
                            + quote(keyId)
                            + " for "
                            + uri
                            + " is not among the keys"));
    byte[] out = new byte[plain.length + OVERHEAD];
    out[0] = FORMAT;
    byte[] id = keyId.getBytes(StandardCharsets.US_ASCII);
    out[1] = (byte) id.length;
    System.arraycopy(id, 0, out, 2, id.length);
    byte[] nonce = new byte[NONCE];
    nonces.nextBytes(nonce);
    System.arraycopy(nonce, 0, out, HEADER, NONCE);
    try {
      Cipher c = Cipher.getInstance(Encryption.TRANSFORMATION);
      c.init(Cipher.ENCRYPT_MODE, key, new GCMParameterSpec(Encryption.TAG_BITS, nonce));
      c.updateAAD(associatedData(out, kind, messageKey, uri));
      int n = c.doFinal(plain, 0, plain.length, out, HEADER + NONCE);
      if (n != plain.length + TAG) {
        throw new IllegalStateException("AES-GCM produced " + n + " bytes for " + plain.length);
      }
    } catch (GeneralSecurityException e) {
      // The message of a key exception may describe the key; only its type is kept.
      throw new BadRequestException(
          "cannot encrypt for "
              + uri
              + " with key "
              + quote(keyId)
              + " ("
              + e.getClass().getSimpleName()
              + ")");
    }
    return out;
  }

  /**
   * The plaintext of {@code sealed}, stored at {@code uri}.
   *
   * @throws UnreadablePayloadException when it is no sealed payload of a known format, its key is
   *     unknown, or it fails authentication
   */
  byte[] open(Kind kind, String uri, long messageKey, byte[] sealed, String what) {
    if (sealed.length < OVERHEAD) {
      throw new UnreadablePayloadException(
          uri,
          what
              + " is "
              + sealed.length
              + " bytes, shorter than an encrypted payload (at least "
              + OVERHEAD
              + "): truncated,"
              + " or written without encryption");
    }
    if (sealed[0] != FORMAT) {
      throw new UnreadablePayloadException(
          uri,
          what
              + " has unknown encryption format "
              + (sealed[0] & 0xff)
              + " (this code reads format "
              + FORMAT
              + ")");
    }
    String keyId = keyId(sealed);
    if (keyId == null) {
      throw new UnreadablePayloadException(uri, what + " has a malformed key id field");
    }
    Optional<SecretKey> key = keys.key(keyId);
    if (key.isEmpty()) {
      throw new UnreadablePayloadException(
          uri, what + " is encrypted with key " + quote(keyId) + ", which is not in the keyring");
    }
    try {
      Cipher c = Cipher.getInstance(Encryption.TRANSFORMATION);
      c.init(
          Cipher.DECRYPT_MODE,
          key.get(),
          new GCMParameterSpec(Encryption.TAG_BITS, sealed, HEADER, NONCE));
      c.updateAAD(associatedData(sealed, kind, messageKey, uri));
      return c.doFinal(sealed, HEADER + NONCE, sealed.length - HEADER - NONCE);
    } catch (AEADBadTagException e) {
      throw new UnreadablePayloadException(
          uri,
          what
              + " failed authentication under key "
              + quote(keyId)
              + ": its bytes were changed or truncated, or they were written for"
              + " another URI");
    } catch (GeneralSecurityException e) {
      throw new UnreadablePayloadException(
          uri,
          what
              + " cannot be decrypted with key "
              + quote(keyId)
              + " ("
              + e.getClass().getSimpleName()
              + ")");
    }
  }

  /** The id of the key that would seal a payload written at {@code uri} now. */
  String activeKeyId(String uri) {
    return keys.activeKeyId(uri);
  }

  /**
   * The key id in the header of {@code sealed}, without opening it; empty when it is too short,
   * of another format, or its key id field is malformed.
   */
  static Optional<String> keyIdOf(byte[] sealed) {
    if (sealed.length < OVERHEAD || sealed[0] != FORMAT) {
      return Optional.empty();
    }
    return Optional.ofNullable(keyId(sealed));
  }

  /** The key id in a header, or null when the field is malformed. */
  private static @Nullable String keyId(byte[] sealed) {
    int n = sealed[1] & 0xff;
    if (n < 1 || n > KEY_ID_FIELD) {
      return null;
    }
    for (int i = 2 + n; i < HEADER; i++) {
      if (sealed[i] != 0) {
        return null;
      }
    }
    String id = new String(sealed, 2, n, StandardCharsets.US_ASCII);
    return Encryption.isValidKeyId(id) ? id : null;
  }

  private static byte[] associatedData(byte[] header, Kind kind, long messageKey, String uri) {
    byte[] u = uri.getBytes(StandardCharsets.UTF_8);
    return ByteBuffer.allocate(HEADER + 1 + Long.BYTES + u.length)
        .put(header, 0, HEADER)
        .put(kind.tag)
        .putLong(messageKey)
        .put(u)
        .array();
  }

  private static String quote(String keyId) {
    return '"' + keyId + '"';
  }
}
