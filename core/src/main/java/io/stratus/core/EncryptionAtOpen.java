package io.stratus.core;

import io.stratus.CorruptPageException;
import io.stratus.InvalidConfigurationException;
import io.stratus.cloudapi.CloudFutures;
import io.stratus.cloudapi.StoredItem;
import io.stratus.cloudapi.crypto.Encryption;
import io.stratus.cloudapi.crypto.SealedItem;
import io.stratus.cloudapi.crypto.SupportsSealInspection;
import java.util.Optional;

/**
 * Tells a configuration whose encryption does not fit the stored database from damage, when the
 * catalog cannot be read at open: a database sealed with keys opened without a keyring, or with a
 * keyring that lacks the key that sealed the catalog, or a database written without encryption
 * opened with a keyring. Each of these read as "the catalog is corrupt", which sends an operator
 * looking for damage that is not there; the configuration is what needs changing.
 *
 * <p>How it tells: the catalog's stored bytes are inspected without opening them. A sealed
 * payload names its key id in a header of its own ({@link Encryption#keyIdOf}), which a page
 * envelope never matches. Stateless.
 */
final class EncryptionAtOpen {
  private EncryptionAtOpen() {}

  /**
   * The failure to report for {@code failure}, which reading the catalog {@code catalogUri} at
   * open raised: an {@link InvalidConfigurationException} when the configuration's encryption
   * does not fit what is stored, else {@code failure} itself.
   */
  static RuntimeException explain(
      DatabaseConfig config, String catalogUri, CorruptPageException failure) {
    if (!catalogUri.equals(failure.uri())) {
      return failure;
    }
    Optional<InvalidConfigurationException> mismatch =
        config.encryption().isPresent()
            ? withKeyring(config, catalogUri)
            : withoutKeyring(config, catalogUri);
    return mismatch
        .<RuntimeException>map(
            m -> {
              m.initCause(failure);
              return m;
            })
        .orElse(failure);
  }

  private static Optional<InvalidConfigurationException> withoutKeyring(
      DatabaseConfig config, String catalogUri) {
    Optional<StoredItem> stored = CloudFutures.await(config.services().storage().get(catalogUri));
    Optional<String> keyId = stored.flatMap(i -> Encryption.keyIdOf(i.payload()));
    return keyId.map(
        id ->
            new InvalidConfigurationException(
                "database "
                    + config.databaseUri()
                    + " is encrypted (its catalog is sealed with key "
                    + quote(id)
                    + "), and this configuration has no keyring: open it with"
                    + " DatabaseConfig.Builder.encryption(keyring), the keyring holding key "
                    + quote(id)
                    + " and every other key that sealed its pages and messages"));
  }

  private static Optional<InvalidConfigurationException> withKeyring(
      DatabaseConfig config, String catalogUri) {
    SupportsSealInspection sealed = SupportsSealInspection.of(config.services().storage());
    if (sealed == null) {
      return Optional.empty();
    }
    Optional<SealedItem> item = CloudFutures.await(sealed.getSealed(catalogUri));
    if (item.isEmpty()) {
      return Optional.empty();
    }
    Keyring keyring = config.encryption().orElseThrow();
    Optional<String> keyId = item.get().keyId();
    if (keyId.isEmpty()) {
      return Optional.of(
          new InvalidConfigurationException(
              "database "
                  + config.databaseUri()
                  + " is not encrypted (its catalog was written without encryption), and this"
                  + " configuration has a keyring: open it without"
                  + " DatabaseConfig.Builder.encryption; every client of a database must"
                  + " encrypt, or none"));
    }
    if (keyring.keyIds().contains(keyId.get())) {
      return Optional.empty(); // the key is there: the catalog is damaged (or was tampered with)
    }
    return Optional.of(
        new InvalidConfigurationException(
            "database "
                + config.databaseUri()
                + " is encrypted with key "
                + quote(keyId.get())
                + " (it sealed the catalog), which this configuration's keyring lacks (it holds "
                + keyring.keyIds()
                + "): add that key to the keyring given to DatabaseConfig.Builder.encryption;"
                + " a key rotated out stays in every client's keyring until DatabaseAdmin.reseal"
                + " reports that nothing it sealed is left"));
  }

  private static String quote(String keyId) {
    return "\"" + keyId + "\"";
  }
}
