package io.stratus.cloudapi.crypto;

import io.stratus.cloudapi.AdvancedMessage;
import io.stratus.cloudapi.AdvancedQueueService;
import io.stratus.cloudapi.CloudLimits;
import io.stratus.cloudapi.UnreadablePayloadException;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;

/**
 * Advanced queues whose messages are sealed on send, bound to the queue's URI and the message's
 * key (a message whose key was changed fails to open), and opened on receive. Keys and ids stay
 * in the clear: the service filters and orders by them. A message that fails to open is handed
 * out {@linkplain AdvancedMessage#unreadable unreadable} in its place, so receives stay complete
 * and in order.
 */
final class EncryptedAdvancedQueues implements AdvancedQueueService {
  private final AdvancedQueueService delegate;
  private final Envelope envelope;
  private final CloudLimits limits;
  private final boolean closesDelegate;

  EncryptedAdvancedQueues(
      AdvancedQueueService delegate, Envelope envelope, boolean closesDelegate) {
    this.delegate = delegate;
    this.envelope = envelope;
    this.limits = Encryption.reduce(delegate.limits());
    this.closesDelegate = closesDelegate;
  }

  @Override
  public CompletableFuture<Void> createQueue(String uri) {
    return Guard.call(() -> delegate.createQueue(uri));
  }

  @Override
  public CompletableFuture<Void> deleteQueue(String uri) {
    return Guard.call(() -> delegate.deleteQueue(uri));
  }

  @Override
  public CompletableFuture<List<String>> listQueues(String prefix) {
    return Guard.call(() -> delegate.listQueues(prefix));
  }

  @Override
  public CompletableFuture<Long> send(String uri, byte[] payload, long key) {
    return Guard.call(
        () -> {
          limits.checkUri(uri);
          limits.checkAdvancedMessage(payload);
          return delegate.send(
              uri, envelope.seal(Envelope.Kind.ADVANCED_MESSAGE, uri, key, payload), key);
        });
  }

  @Override
  public CompletableFuture<List<AdvancedMessage>> receiveAfterId(
      String uri, int max, long idGreaterThan) {
    return opened(uri, Guard.call(() -> delegate.receiveAfterId(uri, max, idGreaterThan)));
  }

  @Override
  public CompletableFuture<List<AdvancedMessage>> receiveByKey(
      String uri, int max, long keyGreaterThan, long keyLessThan) {
    return opened(
        uri, Guard.call(() -> delegate.receiveByKey(uri, max, keyGreaterThan, keyLessThan)));
  }

  @Override
  public CompletableFuture<List<AdvancedMessage>> receiveOlderThan(
      String uri, int max, Duration age) {
    return opened(uri, Guard.call(() -> delegate.receiveOlderThan(uri, max, age)));
  }

  @Override
  public CompletableFuture<Void> delete(String uri, long messageId) {
    return Guard.call(() -> delegate.delete(uri, messageId));
  }

  @Override
  public CompletableFuture<Integer> deleteByKey(String uri, long keyGreaterThan, long keyLessThan) {
    return Guard.call(() -> delegate.deleteByKey(uri, keyGreaterThan, keyLessThan));
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

  private CompletableFuture<List<AdvancedMessage>> opened(
      String uri, CompletableFuture<List<AdvancedMessage>> received) {
    return received.thenApply(got -> got.stream().map(m -> open(uri, m)).toList());
  }

  private AdvancedMessage open(String uri, AdvancedMessage m) {
    if (!m.isReadable()) {
      return m;
    }
    try {
      byte[] plain =
          envelope.open(
              Envelope.Kind.ADVANCED_MESSAGE, uri, m.key(), m.payload(), "message " + m.id());
      return new AdvancedMessage(m.id(), m.key(), plain, m.enqueuedAt());
    } catch (UnreadablePayloadException e) {
      return AdvancedMessage.unreadable(m.id(), m.key(), m.enqueuedAt(), e);
    }
  }

  @Override
  public String toString() {
    return "EncryptedAdvancedQueues{" + delegate + '}';
  }
}
