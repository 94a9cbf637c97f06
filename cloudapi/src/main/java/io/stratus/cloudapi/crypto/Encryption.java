package io.stratus.cloudapi.crypto;

import io.stratus.cloudapi.AdvancedQueueService;
import io.stratus.cloudapi.CloudLimits;
import io.stratus.cloudapi.CloudServices;
import io.stratus.cloudapi.SimpleQueueService;
import io.stratus.cloudapi.StorageService;
import io.stratus.cloudapi.SupportsConditionalPut;
import io.stratus.cloudapi.SupportsQueueInspection;
import io.stratus.cloudapi.SupportsVisibilityChange;
import java.security.SecureRandom;
import java.util.Objects;
import java.util.Optional;
import java.util.Random;
import org.jspecify.annotations.Nullable;

/**
 * Client-side encryption of everything stored in the cloud (paper 001, section 3.6): wraps the
 * storage and the simple- and advanced-queue services so that every payload is sealed with
 * AES-GCM before it leaves the process and opened, and authenticated, when it comes back.
 *
 * <p>What each payload gets: a fresh random 96-bit nonce, a 128-bit tag, and a small header with a
 * format byte and the id of the key that sealed it (so reads find the key even after rotation).
 * The payload's URI — the item's, or the queue's for a message — is bound as associated data: bytes
 * copied to another item or a message moved to another queue fail to open. A payload that fails
 * (changed, truncated, another URI, an unknown key id) is never handed out: a read of an item
 * fails with {@link io.stratus.cloudapi.UnreadablePayloadException}, and a received message is
 * marked {@linkplain io.stratus.cloudapi.QueueMessage#isReadable() unreadable} while the rest of
 * the receive goes through.
 *
 * <p>What the wrappers keep: conditional puts (the wrapped storage implements {@link
 * SupportsConditionalPut} exactly when the original does), versions, metadata (stored as given:
 * neither encrypted nor authenticated), message ids, keys and receipt handles. Sizes reported
 * without a payload (metadata, listings) are those of the plaintext. The wrappers' {@link
 * StorageService#limits()} are the original's less {@link #OVERHEAD} for objects and messages, so a
 * layer that sizes its payloads by the limits never produces a sealed payload over the service's
 * limit. Locks, counters and machines carry no payloads and pass through unchanged.
 *
 * <p>What it does not hide or detect: URIs, sizes, timing and access patterns are visible to the
 * provider, and so is metadata; an older version of the same item put back at the same URI (a
 * replay) opens fine, as does a message sent twice to the same queue. The layers above detect
 * older pages by their version stamps where they promise monotonic reads.
 *
 * <p>Which key sealed what: the storage wrappers implement {@link SupportsSealInspection}, which
 * reads an item's key id without opening it and tells the key a put would seal with now, so that
 * a tool can re-seal what an old key sealed before that key is retired.
 *
 * <p>Immutable and thread-safe. {@code toString()} names the keys' {@code toString()} only, which
 * never shows key material.
 */
public final class Encryption {
  /** The cipher: AES in Galois/Counter Mode, no padding. */
  public static final String TRANSFORMATION = "AES/GCM/NoPadding";

  /** The sealed-payload format this code writes and reads: 1. */
  public static final int FORMAT_VERSION = Envelope.FORMAT;

  /** The longest key id, in ASCII characters: 32. */
  public static final int MAX_KEY_ID_LENGTH = 32;

  /** The nonce length: 12 bytes (96 bits), fresh and random per payload. */
  public static final int NONCE_BYTES = 12;

  /** The authentication tag length: 128 bits. */
  public static final int TAG_BITS = 128;

  /**
   * Bytes a sealed payload has beyond its plaintext: 62 (header 34, nonce 12, tag 16). Constant,
   * whatever the key id's length.
   */
  public static final int OVERHEAD = Envelope.OVERHEAD;

  private final EncryptionKeys keys;
  private final Envelope envelope;

  private Encryption(EncryptionKeys keys, Random nonces) {
    this.keys = keys;
    this.envelope = new Envelope(keys, nonces);
  }

  /** Encryption with {@code keys} and nonces from a {@link SecureRandom}. */
  public static Encryption of(EncryptionKeys keys) {
    return builder(keys).build();
  }

  /** A builder for encryption with {@code keys}. */
  public static Builder builder(EncryptionKeys keys) {
    return new Builder(keys);
  }

  /**
   * Whether {@code id} can name a key: 1 to {@link #MAX_KEY_ID_LENGTH} ASCII letters, digits, '.',
   * '_' or '-' (it is stored in the clear in every header and shown in messages).
   */
  public static boolean isValidKeyId(String id) {
    if (id == null || id.isEmpty() || id.length() > MAX_KEY_ID_LENGTH) {
      return false;
    }
    for (int i = 0; i < id.length(); i++) {
      char c = id.charAt(i);
      boolean ok =
          (c >= 'a' && c <= 'z')
              || (c >= 'A' && c <= 'Z')
              || (c >= '0' && c <= '9')
              || c == '.'
              || c == '_'
              || c == '-';
      if (!ok) {
        return false;
      }
    }
    return true;
  }

  /**
   * The id of the key named in the header of {@code sealed}, bytes as a wrapper stored them, read
   * without decrypting; empty when they are no sealed payload of format {@link #FORMAT_VERSION}.
   * The header is authenticated only when the payload is opened: bytes changed in storage may name
   * any key. For tools and tests that look at what the provider holds; see also {@link
   * SupportsSealInspection}.
   */
  public static Optional<String> keyIdOf(byte[] sealed) {
    return Envelope.keyIdOf(Objects.requireNonNull(sealed, "sealed"));
  }

  /**
   * The limits a layer above sees through the wrappers: {@code limits} with the object, message
   * and advanced-message sizes reduced by {@link #OVERHEAD}.
   *
   * @throws IllegalArgumentException when a size limit leaves no room for the overhead
   */
  public static CloudLimits reduce(CloudLimits limits) {
    Objects.requireNonNull(limits, "limits");
    return limits.toBuilder()
        .maxObjectSize(room("maxObjectSize", limits.maxObjectSize()))
        .maxMessageSize((int) room("maxMessageSize", limits.maxMessageSize()))
        .maxAdvancedMessageSize(
            (int) room("maxAdvancedMessageSize", limits.maxAdvancedMessageSize()))
        .build();
  }

  private static long room(String name, long limit) {
    if (limit <= OVERHEAD) {
      throw new IllegalArgumentException(
          name
              + " of "
              + limit
              + " bytes leaves no room for the "
              + OVERHEAD
              + " bytes of encryption overhead");
    }
    return limit - OVERHEAD;
  }

  /**
   * A bundle whose storage, simple queues and advanced queues are encrypted; its other services
   * are {@code services}' own. A service missing from {@code services} stays missing. Closing the
   * new bundle closes {@code services}.
   */
  public CloudServices wrap(CloudServices services) {
    Objects.requireNonNull(services, "services");
    CloudServices.Builder b = CloudServices.builder();
    if (services.hasStorage()) {
      b.storage(storage(services.storage(), false));
    }
    if (services.hasSimpleQueues()) {
      b.simpleQueues(simpleQueues(services.simpleQueues(), false));
    }
    if (services.hasAdvancedQueues()) {
      b.advancedQueues(new EncryptedAdvancedQueues(services.advancedQueues(), envelope, false));
    }
    if (services.hasLocks()) {
      b.locks(services.locks());
    }
    if (services.hasCounters()) {
      b.counters(services.counters());
    }
    if (services.hasMachines()) {
      b.machines(services.machines());
    }
    return b.closeWith(services).build();
  }

  /**
   * {@code storage} encrypted; the result implements {@link SupportsConditionalPut} exactly when
   * {@code storage} does, and {@link SupportsSealInspection} always. Closing it closes {@code
   * storage}.
   */
  public StorageService wrap(StorageService storage) {
    return storage(Objects.requireNonNull(storage, "storage"), true);
  }

  /**
   * {@code queues} with encrypted messages; the result implements {@link SupportsQueueInspection}
   * and {@link SupportsVisibilityChange} each exactly when {@code queues} does. Closing it closes
   * {@code queues}.
   */
  public SimpleQueueService wrap(SimpleQueueService queues) {
    return simpleQueues(Objects.requireNonNull(queues, "queues"), true);
  }

  private SimpleQueueService simpleQueues(SimpleQueueService queues, boolean closesDelegate) {
    return EncryptedSimpleQueues.of(queues, envelope, closesDelegate);
  }

  /** {@code queues} with encrypted messages; closing the result closes {@code queues}. */
  public AdvancedQueueService wrap(AdvancedQueueService queues) {
    return new EncryptedAdvancedQueues(Objects.requireNonNull(queues, "queues"), envelope, true);
  }

  private StorageService storage(StorageService storage, boolean closesDelegate) {
    if (storage instanceof SupportsConditionalPut) {
      return new EncryptedConditionalStorage(
          (SupportsConditionalPut) storage, envelope, closesDelegate);
    }
    return new EncryptedStorage(storage, envelope, closesDelegate);
  }

  @Override
  public String toString() {
    return "Encryption{" + TRANSFORMATION + ", keys=" + keys + '}';
  }

  /** Collects the settings; {@link #build} checks them once. Not thread-safe. */
  public static final class Builder {
    private final EncryptionKeys keys;
    private @Nullable Random nonces;

    private Builder(EncryptionKeys keys) {
      this.keys = Objects.requireNonNull(keys, "keys");
    }

    /**
     * Where nonces come from. Default: a new {@link SecureRandom}. Tests may pass a seeded source
     * to make ciphertexts reproducible; anything else must be a cryptographically strong source,
     * as a repeated nonce under one key breaks AES-GCM.
     */
    public Builder nonceSource(Random random) {
      this.nonces = Objects.requireNonNull(random, "random");
      return this;
    }

    public Encryption build() {
      return new Encryption(keys, nonces == null ? new SecureRandom() : nonces);
    }
  }
}
