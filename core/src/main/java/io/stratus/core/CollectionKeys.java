package io.stratus.core;

import io.stratus.cloudapi.crypto.EncryptionKeys;
import io.stratus.protocols.StorageLayout;
import java.util.Objects;
import java.util.Optional;
import javax.crypto.SecretKey;

/**
 * A {@link Keyring} as the encryption wrappers ask for keys: the collection a URI belongs to comes
 * from the database's {@link StorageLayout}, and what belongs to none gets the default key.
 */
final class CollectionKeys implements EncryptionKeys {
  private final Keyring keyring;
  private final StorageLayout layout;

  CollectionKeys(Keyring keyring, StorageLayout layout) {
    this.keyring = Objects.requireNonNull(keyring, "keyring");
    this.layout = Objects.requireNonNull(layout, "layout");
  }

  @Override
  public String activeKeyId(String uri) {
    return layout.collectionOf(uri).map(keyring::activeKeyId).orElse(keyring.defaultKeyId());
  }

  @Override
  public Optional<SecretKey> key(String keyId) {
    return keyring.key(keyId);
  }

  @Override
  public String toString() {
    return keyring.toString();
  }
}
