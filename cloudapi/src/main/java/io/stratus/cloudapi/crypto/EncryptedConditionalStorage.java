package io.stratus.cloudapi.crypto;

import io.stratus.cloudapi.ItemVersion;
import io.stratus.cloudapi.SupportsConditionalPut;
import java.util.Map;
import java.util.concurrent.CompletableFuture;

/**
 * {@link EncryptedStorage} for storage that has conditional puts: used exactly when the wrapped
 * storage implements {@link SupportsConditionalPut}, so the ability stays detectable by {@code
 * instanceof}. The condition is on the stored version, which the sealed payload determines, so it
 * means what it means without encryption.
 */
final class EncryptedConditionalStorage extends EncryptedStorage implements SupportsConditionalPut {
  private final SupportsConditionalPut conditional;

  EncryptedConditionalStorage(
      SupportsConditionalPut delegate, Envelope envelope, boolean closesDelegate) {
    super(delegate, envelope, closesDelegate);
    this.conditional = delegate;
  }

  @Override
  public CompletableFuture<ItemVersion> putIfAbsent(
      String uri, byte[] payload, Map<String, String> md) {
    return Guard.call(() -> conditional.putIfAbsent(uri, seal(uri, payload, md), md));
  }

  @Override
  public CompletableFuture<ItemVersion> putIfVersionMatches(
      String uri, byte[] payload, Map<String, String> md, String expectedVersion) {
    return Guard.call(
        () -> conditional.putIfVersionMatches(uri, seal(uri, payload, md), md, expectedVersion));
  }
}
