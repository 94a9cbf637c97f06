package io.stratus.core;

import io.stratus.InvalidConfigurationException;
import io.stratus.cloudapi.crypto.Encryption;
import java.util.Arrays;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import javax.crypto.SecretKey;
import javax.crypto.spec.SecretKeySpec;
import org.jspecify.annotations.Nullable;

/**
 * The keys of client-side encryption ({@link DatabaseConfig.Builder#encryption}): named AES keys,
 * one active key for the database (the default) and optionally one per collection; every other
 * key is kept for reading what was written with it.
 *
 * <p>Why named keys: every encrypted payload records the id of the key that sealed it, so a
 * reader finds the right key however often the active key changed. Rotating is therefore adding a
 * new key and making it active ({@link #toBuilder()}); the old key stays in the keyring as long as
 * anything written with it may still be stored (pages are rewritten only when they change, unless
 * {@link DatabaseAdmin#reseal} rewrites them). Why
 * per collection: collections of different sensitivity can use different keys, and a key can be
 * rotated, or withheld from a client, for one collection only. What is shared by all collections
 * (the catalog, ATOMIC queues with records of any collection, the commit queues of the isolating
 * protocols) uses the default key.
 *
 * <p>Immutable and thread-safe. Key material is copied in and never shown: {@link #toString()}
 * and every message name key ids only.
 */
public final class Keyring {
  private final Map<String, SecretKey> keys;
  private final String defaultKeyId;
  private final Map<String, String> collectionKeyIds;

  private Keyring(Builder b, String defaultKeyId) {
    this.keys = Collections.unmodifiableMap(new TreeMap<>(b.keys));
    this.defaultKeyId = defaultKeyId;
    this.collectionKeyIds = Collections.unmodifiableMap(new TreeMap<>(b.collectionKeyIds));
  }

  public static Builder builder() {
    return new Builder();
  }

  /** A builder with this keyring's keys and choices, e.g. to add a key and make it active. */
  public Builder toBuilder() {
    Builder b = new Builder();
    b.keys.putAll(keys);
    b.defaultKeyId = defaultKeyId;
    b.collectionKeyIds.putAll(collectionKeyIds);
    return b;
  }

  /** The ids of all keys, in ascending order. */
  public Set<String> keyIds() {
    return keys.keySet();
  }

  /** The id of the key that encrypts what belongs to no collection with a key of its own. */
  public String defaultKeyId() {
    return defaultKeyId;
  }

  /** The collections with a key of their own, and that key's id. */
  public Map<String, String> collectionKeyIds() {
    return collectionKeyIds;
  }

  /** The id of the key that encrypts what is written for {@code collection} now. */
  public String activeKeyId(String collection) {
    return collectionKeyIds.getOrDefault(collection, defaultKeyId);
  }

  /** The key with id {@code keyId}, for the encryption wrappers only. */
  Optional<SecretKey> key(String keyId) {
    return Optional.ofNullable(keys.get(keyId));
  }

  @Override
  public String toString() {
    return "Keyring{keys="
        + keys.keySet()
        + ", default="
        + defaultKeyId
        + ", collections="
        + collectionKeyIds
        + '}';
  }

  /** Collects keys and choices; each setting is checked as it is made, the whole at build. */
  public static final class Builder {
    private final Map<String, SecretKey> keys = new LinkedHashMap<>();
    private final Map<String, String> collectionKeyIds = new LinkedHashMap<>();
    private @Nullable String defaultKeyId; // null until defaultKey is called

    private Builder() {}

    /**
     * Adds the AES key {@code id} with {@code material} (16, 24 or 32 bytes; copied, so the caller
     * may wipe its array afterwards). A key id names one key for good: it is stored with every
     * payload, so adding another key under an existing id is refused.
     */
    public Builder key(String id, byte[] material) {
      Args.notNull(material, "material");
      if (material.length != 16 && material.length != 24 && material.length != 32) {
        throw new InvalidConfigurationException(
            "key "
                + checkId(id)
                + " must have 16, 24 or 32"
                + " bytes (AES-128, -192 or -256), got "
                + material.length);
      }
      return add(id, new SecretKeySpec(material, "AES"));
    }

    /** Adds the AES key {@code id} (see {@link #key(String, byte[])}). */
    public Builder key(String id, SecretKey key) {
      Args.notNull(key, "key");
      byte[] material = key.getEncoded();
      if (!"AES".equalsIgnoreCase(key.getAlgorithm()) || material == null) {
        throw new InvalidConfigurationException(
            "key " + checkId(id) + " must be an AES key" + " with extractable material");
      }
      try {
        return key(id, material);
      } finally {
        Arrays.fill(material, (byte) 0);
      }
    }

    private Builder add(String id, SecretKey key) {
      checkId(id);
      if (keys.containsKey(id)) {
        throw new InvalidConfigurationException(
            "the keyring already has a key " + id + ": a key id names one key for good");
      }
      keys.put(id, key);
      return this;
    }

    /** Makes key {@code id} the active key of everything without a collection key of its own. */
    public Builder defaultKey(String id) {
      this.defaultKeyId = checkId(id);
      return this;
    }

    /** Makes key {@code id} the active key of collection {@code collection}. */
    public Builder collectionKey(String collection, String id) {
      Names.check("collection", collection);
      collectionKeyIds.put(collection, checkId(id));
      return this;
    }

    /** Ends the collection's own key: it uses the default key again (old keys stay readable). */
    public Builder withoutCollectionKey(String collection) {
      collectionKeyIds.remove(Names.check("collection", collection));
      return this;
    }

    /**
     * The keyring.
     *
     * @throws InvalidConfigurationException when there is no key or no default key, or an active
     *     key id names no key of the keyring
     */
    public Keyring build() {
      if (keys.isEmpty()) {
        throw new InvalidConfigurationException("a keyring needs at least one key");
      }
      String defaultId = defaultKeyId;
      if (defaultId == null) {
        throw new InvalidConfigurationException("a keyring needs a default key (defaultKey)");
      }
      requireKey("the default key", defaultId);
      collectionKeyIds.forEach((c, id) -> requireKey("the key of collection " + c, id));
      return new Keyring(this, defaultId);
    }

    private void requireKey(String what, String id) {
      if (!keys.containsKey(id)) {
        throw new InvalidConfigurationException(
            what + " is " + id + ", which is not in the keyring " + new TreeMap<>(keys).keySet());
      }
    }

    private static String checkId(String id) {
      Args.notNull(id, "key id");
      if (!Encryption.isValidKeyId(id)) {
        throw new InvalidConfigurationException(
            "invalid key id "
                + Names.quote(id)
                + ": use 1"
                + " to "
                + Encryption.MAX_KEY_ID_LENGTH
                + " letters, digits, '_', '-' or '.'");
      }
      return id;
    }
  }
}
