package io.stratus.cloudapi.crypto;

import io.stratus.cloudapi.CloudLimits;
import io.stratus.cloudapi.ConditionalRead;
import io.stratus.cloudapi.ItemMetadata;
import io.stratus.cloudapi.ItemSummary;
import io.stratus.cloudapi.ItemVersion;
import io.stratus.cloudapi.ListPage;
import io.stratus.cloudapi.StorageService;
import io.stratus.cloudapi.StoredItem;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;

/**
 * Storage whose payloads are sealed on put and opened on every read. A put is checked against the
 * reduced limits ({@link Encryption#reduce}) before it is sealed, so an oversized payload is
 * refused with the limit the caller sees. Sizes reported without a payload are the stored size
 * less the constant overhead: the plaintext's. {@link #getSealed} hands items out unopened, with
 * the key id of their header.
 */
class EncryptedStorage implements SupportsSealInspection {
  final StorageService delegate;
  final Envelope envelope;
  final CloudLimits limits;
  private final boolean closesDelegate;

  EncryptedStorage(StorageService delegate, Envelope envelope, boolean closesDelegate) {
    this.delegate = delegate;
    this.envelope = envelope;
    this.limits = Encryption.reduce(delegate.limits());
    this.closesDelegate = closesDelegate;
  }

  /** The sealed form of a put's payload, after the checks the caller's limits imply. */
  byte[] seal(String uri, byte[] payload, Map<String, String> metadata) {
    limits.checkUri(uri);
    limits.checkObject(payload);
    limits.checkMetadata(metadata);
    return envelope.seal(Envelope.Kind.ITEM, uri, 0, payload);
  }

  @Override
  public CompletableFuture<ItemVersion> put(String uri, byte[] payload, Map<String, String> md) {
    return Guard.call(() -> delegate.put(uri, seal(uri, payload, md), md));
  }

  @Override
  public CompletableFuture<Optional<StoredItem>> get(String uri) {
    return Guard.call(() -> delegate.get(uri)).thenApply(item -> item.map(this::open));
  }

  @Override
  public CompletableFuture<Optional<SealedItem>> getSealed(String uri) {
    return Guard.call(() -> delegate.get(uri))
        .thenApply(item -> item.map(i -> new SealedItem(i, envelope)));
  }

  @Override
  public String activeKeyId(String uri) {
    return envelope.activeKeyId(uri);
  }

  @Override
  public CompletableFuture<Optional<ItemMetadata>> getMetadata(String uri) {
    return Guard.call(() -> delegate.getMetadata(uri))
        .thenApply(
            md ->
                md.map(
                    m ->
                        new ItemMetadata(
                            m.uri(),
                            m.metadata(),
                            m.version(),
                            m.lastModified(),
                            plain(m.size()))));
  }

  @Override
  public CompletableFuture<ConditionalRead> getIfChanged(String uri, String knownVersion) {
    return Guard.call(() -> delegate.getIfChanged(uri, knownVersion)).thenApply(this::open);
  }

  @Override
  public CompletableFuture<ConditionalRead> getIfModifiedSince(String uri, Instant since) {
    return Guard.call(() -> delegate.getIfModifiedSince(uri, since)).thenApply(this::open);
  }

  @Override
  public CompletableFuture<ListPage> list(
      String prefix, Optional<String> continuationToken, int maxItems) {
    return Guard.call(() -> delegate.list(prefix, continuationToken, maxItems))
        .thenApply(
            page -> {
              List<ItemSummary> items =
                  page.items().stream()
                      .map(
                          s ->
                              new ItemSummary(
                                  s.uri(), plain(s.size()), s.version(), s.lastModified()))
                      .toList();
              return new ListPage(items, page.nextToken());
            });
  }

  @Override
  public CompletableFuture<Void> delete(String uri) {
    return Guard.call(() -> delegate.delete(uri));
  }

  @Override
  public boolean isStronglyConsistent() {
    return delegate.isStronglyConsistent();
  }

  @Override
  public CloudLimits limits() {
    return limits;
  }

  @Override
  public void close() {
    if (closesDelegate) {
      delegate.close();
    }
  }

  private StoredItem open(StoredItem item) {
    byte[] plain = envelope.open(Envelope.Kind.ITEM, item.uri(), 0, item.payload(), "the item");
    return new StoredItem(item.uri(), plain, item.metadata(), item.version(), item.lastModified());
  }

  private ConditionalRead open(ConditionalRead read) {
    return read.item().isPresent() ? ConditionalRead.modified(open(read.item().get())) : read;
  }

  /** An item that is too short to be sealed reports 0 bytes; reading it fails. */
  private static long plain(long stored) {
    return Math.max(0, stored - Envelope.OVERHEAD);
  }

  @Override
  public String toString() {
    return "EncryptedStorage{" + delegate + '}';
  }
}
