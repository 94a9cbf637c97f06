package io.stratus.cloudapi.crypto;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.SplittableRandom;
import java.util.concurrent.ConcurrentHashMap;
import javax.crypto.SecretKey;
import javax.crypto.spec.SecretKeySpec;

/**
 * Keys for the cloudapi tests: named AES-256 keys made from a seed, one active id for every URI
 * unless a prefix has its own. Thread-safe; {@link #activate} switches the active key.
 */
final class TestKeys implements EncryptionKeys {
  private final Map<String, SecretKey> keys = new ConcurrentHashMap<>();
  private final Map<String, String> byPrefix = new LinkedHashMap<>();
  private volatile String active;

  TestKeys(String activeId, long seed) {
    add(activeId, seed);
    this.active = activeId;
  }

  TestKeys add(String id, long seed) {
    byte[] material = new byte[32];
    new SplittableRandom(seed).nextBytes(material);
    keys.put(id, new SecretKeySpec(material, "AES"));
    return this;
  }

  TestKeys activate(String id) {
    this.active = id;
    return this;
  }

  synchronized TestKeys activateFor(String prefix, String id) {
    byPrefix.put(prefix, id);
    return this;
  }

  TestKeys forget(String id) {
    keys.remove(id);
    return this;
  }

  @Override
  public synchronized String activeKeyId(String uri) {
    for (Map.Entry<String, String> e : byPrefix.entrySet()) {
      if (uri.startsWith(e.getKey())) {
        return e.getValue();
      }
    }
    return active;
  }

  @Override
  public Optional<SecretKey> key(String keyId) {
    return Optional.ofNullable(keys.get(keyId));
  }

  @Override
  public String toString() {
    return "TestKeys" + keys.keySet();
  }
}
