package io.stratus.cloudapi.crypto;

import io.stratus.cloudapi.CloudLimits;
import io.stratus.cloudapi.QueueBacklog;
import io.stratus.cloudapi.QueueMessage;
import io.stratus.cloudapi.SimpleQueueService;
import io.stratus.cloudapi.SupportsQueueInspection;
import io.stratus.cloudapi.SupportsVisibilityChange;
import io.stratus.cloudapi.UnreadablePayloadException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;

/**
 * Simple queues whose messages are sealed on send (bound to the queue's URI) and opened on
 * receive. A message that fails to open is handed out {@linkplain QueueMessage#unreadable
 * unreadable}, with its id and receipt handle, so one damaged message neither hides nor blocks
 * the others of a receive.
 *
 * <p>Optional abilities: {@link #of} picks the subclass that implements exactly the abilities of
 * the wrapped queues, so an operator's verifier still sees the backlog of an encrypted database
 * and the protocols can still hand messages back. Both abilities' methods are written once, here;
 * a subclass only declares the interfaces, and they are called only through them, so the casts to
 * the wrapped queues' abilities hold.
 *
 * <ul>
 *   <li>{@link SupportsQueueInspection}: counts and send times pass through (they reveal nothing
 *       the service does not already know); peeked payloads are opened like received ones, and a
 *       payload that cannot be opened is handed on sealed, so whoever decodes it reports it as
 *       damaged.
 *   <li>{@link SupportsVisibilityChange}: receipt handles pass through unchanged, so a change
 *       passes through too.
 * </ul>
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

  /** {@link SupportsQueueInspection#inspect}, for the subclasses that have the ability. */
  public CompletableFuture<QueueBacklog> inspect(String uri, int maxPeeked) {
    return Guard.call(() -> ((SupportsQueueInspection) delegate).inspect(uri, maxPeeked))
        .thenApply(
            b -> {
              List<QueueBacklog.PeekedMessage> opened = new ArrayList<>(b.peeked().size());
              for (QueueBacklog.PeekedMessage m : b.peeked()) {
                byte[] plain = openPayload(uri, m.messageId(), m.payload()).orElse(m.payload());
                opened.add(
                    new QueueBacklog.PeekedMessage(
                        m.messageId(), m.sentAt(), m.deliveries(), plain));
              }
              return new QueueBacklog(
                  b.uri(), b.visible(), b.inFlight(), b.oldestSentAt(), b.retention(), opened);
            });
  }

  /** {@link SupportsVisibilityChange#changeVisibility}, for the subclasses with the ability. */
  public CompletableFuture<Void> changeVisibility(
      String uri, String receiptHandle, Duration visibilityTimeout) {
    return Guard.call(
        () ->
            ((SupportsVisibilityChange) delegate)
                .changeVisibility(uri, receiptHandle, visibilityTimeout));
  }

  /** {@link SupportsVisibilityChange#changeVisibilityBatch}, for the subclasses with it. */
  public CompletableFuture<Void> changeVisibilityBatch(
      String uri, List<String> receiptHandles, Duration visibilityTimeout) {
    return Guard.call(
        () ->
            ((SupportsVisibilityChange) delegate)
                .changeVisibilityBatch(uri, receiptHandles, visibilityTimeout));
  }

  /** {@code queues} with encrypted messages, with exactly their optional abilities. */
  static SimpleQueueService of(
      SimpleQueueService queues, Envelope envelope, boolean closesDelegate) {
    boolean inspects = queues instanceof SupportsQueueInspection;
    boolean changes = queues instanceof SupportsVisibilityChange;
    if (inspects && changes) {
      return new Full(queues, envelope, closesDelegate);
    }
    if (inspects) {
      return new Inspectable(queues, envelope, closesDelegate);
    }
    if (changes) {
      return new VisibilityChanging(queues, envelope, closesDelegate);
    }
    return new EncryptedSimpleQueues(queues, envelope, closesDelegate);
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
  private Optional<byte[]> openPayload(String uri, String messageId, byte[] sealed) {
    try {
      return Optional.of(
          envelope.open(Envelope.Kind.SIMPLE_MESSAGE, uri, 0, sealed, "message " + messageId));
    } catch (UnreadablePayloadException e) {
      return Optional.empty();
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

  /** Encrypted queues that can be inspected (and not change visibility). */
  private static final class Inspectable extends EncryptedSimpleQueues
      implements SupportsQueueInspection {
    Inspectable(SimpleQueueService delegate, Envelope envelope, boolean closesDelegate) {
      super(delegate, envelope, closesDelegate);
    }
  }

  /** Encrypted queues that can change visibility (and not be inspected). */
  private static final class VisibilityChanging extends EncryptedSimpleQueues
      implements SupportsVisibilityChange {
    VisibilityChanging(SimpleQueueService delegate, Envelope envelope, boolean closesDelegate) {
      super(delegate, envelope, closesDelegate);
    }
  }

  /** Encrypted queues with both abilities. */
  private static final class Full extends EncryptedSimpleQueues
      implements SupportsQueueInspection, SupportsVisibilityChange {
    Full(SimpleQueueService delegate, Envelope envelope, boolean closesDelegate) {
      super(delegate, envelope, closesDelegate);
    }
  }
}
