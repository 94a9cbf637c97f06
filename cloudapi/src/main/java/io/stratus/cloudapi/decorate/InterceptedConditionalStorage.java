package io.stratus.cloudapi.decorate;

import static io.stratus.cloudapi.Operation.STORAGE_PUT_IF_ABSENT;
import static io.stratus.cloudapi.Operation.STORAGE_PUT_IF_VERSION;

import io.stratus.cloudapi.ItemVersion;
import io.stratus.cloudapi.SupportsConditionalPut;
import java.util.Map;
import java.util.concurrent.CompletableFuture;

/**
 * {@link InterceptedStorage} for storage that has conditional puts: used exactly when the wrapped
 * storage implements {@link SupportsConditionalPut}, so that the ability stays detectable by {@code
 * instanceof} through any number of decorators.
 */
final class InterceptedConditionalStorage extends InterceptedStorage
    implements SupportsConditionalPut {
  private final SupportsConditionalPut conditional;

  InterceptedConditionalStorage(
      SupportsConditionalPut delegate, InterceptorChain chain, boolean closesDelegate) {
    super(delegate, chain, closesDelegate);
    this.conditional = delegate;
  }

  @Override
  public CompletableFuture<ItemVersion> putIfAbsent(
      String uri, byte[] payload, Map<String, String> md) {
    return route(
        Call.of(STORAGE_PUT_IF_ABSENT, uri, Sizes.bytes(payload) + Sizes.metadata(md)),
        () -> conditional.putIfAbsent(uri, payload, md));
  }

  @Override
  public CompletableFuture<ItemVersion> putIfVersionMatches(
      String uri, byte[] payload, Map<String, String> md, String expectedVersion) {
    return route(
        Call.of(STORAGE_PUT_IF_VERSION, uri, Sizes.bytes(payload) + Sizes.metadata(md)),
        () -> conditional.putIfVersionMatches(uri, payload, md, expectedVersion));
  }
}
