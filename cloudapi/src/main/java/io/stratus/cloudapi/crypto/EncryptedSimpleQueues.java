package io.stratus.cloudapi.crypto;

import io.stratus.cloudapi.CloudLimits;
import io.stratus.cloudapi.QueueMessage;
import io.stratus.cloudapi.SimpleQueueService;
import io.stratus.cloudapi.UnreadablePayloadException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;

/**
 * Simple queues whose messages are sealed on send (bound to the queue's URI) and opened on
 * receive. A message that fails to open is handed out {@linkplain QueueMessage#unreadable
 * unreadable}, with its id and receipt handle, so one damaged message neither hides nor blocks
 * the others of a receive.
 */
class EncryptedSimpleQueues implements SimpleQueueService {
  private final SimpleQueueService delegate;
  private final Envelope envelope;
  private final CloudLimits limits;
  private final boolean closesDelegate;

  EncryptedSimpleQueues(SimpleQueueService delegate, Envelope envelope, boolean closesDelegate) {
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
  public CompletableFuture<String> send(String uri, byte[] payload) {
    return Guard.call(
        () -> {
          limits.checkUri(uri);
          limits.checkMessage(payload);
          return delegate.send(uri, seal(uri, payload));
        });
  }

  @Override
  public CompletableFuture<List<String>> sendBatch(String uri, List<byte[]> payloads) {
    return Guard.call(
        () -> {
          limits.checkUri(uri);
          limits.checkMessageBatch(payloads);
          List<byte[]> sealed = new ArrayList<>(payloads.size());
          for (byte[] p : payloads) {
            sealed.add(seal(uri, p));
          }
          return delegate.sendBatch(uri, sealed);
        });
  }

  @Override
  public CompletableFuture<List<QueueMessage>> receive(
      String uri, int maxMessages, Duration visibilityTimeout) {
    return Guard.call(() -> delegate.receive(uri, maxMessages, visibilityTimeout))
        .thenApply(got -> got.stream().map(m -> open(uri, m)).toList());
  }

  @Override
  public CompletableFuture<Void> delete(String uri, String receiptHandle) {
    return Guard.call(() -> delegate.delete(uri, receiptHandle));
  }

  @Override
  public CompletableFuture<Void> deleteBatch(String uri, List<String> receiptHandles) {
    return Guard.call(() -> delegate.deleteBatch(uri, receiptHandles));
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

  /**
   * The payload of a sealed message opened, or empty when it cannot be (a damaged message, or a
   * key this process lacks).
   */
  final java.util.Optional<byte[]> openPayload(String uri, String messageId, byte[] sealed) {
    try {
      return java.util.Optional.of(
          envelope.open(Envelope.Kind.SIMPLE_MESSAGE, uri, 0, sealed, "message " + messageId));
    } catch (UnreadablePayloadException e) {
      return java.util.Optional.empty();
    }
  }

  private byte[] seal(String uri, byte[] payload) {
    return envelope.seal(Envelope.Kind.SIMPLE_MESSAGE, uri, 0, payload);
  }

  private QueueMessage open(String uri, QueueMessage m) {
    if (!m.isReadable()) {
      return m;
    }
    try {
      byte[] plain =
          envelope.open(
              Envelope.Kind.SIMPLE_MESSAGE, uri, 0, m.payload(), "message " + m.messageId());
      return new QueueMessage(m.messageId(), m.receiptHandle(), plain, m.deliveryCount());
    } catch (UnreadablePayloadException e) {
      return QueueMessage.unreadable(m.messageId(), m.receiptHandle(), m.deliveryCount(), e);
    }
  }

  @Override
  public String toString() {
    return "EncryptedSimpleQueues{" + delegate + '}';
  }
}
