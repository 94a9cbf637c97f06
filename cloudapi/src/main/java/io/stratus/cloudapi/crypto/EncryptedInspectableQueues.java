package io.stratus.cloudapi.crypto;

import io.stratus.cloudapi.QueueBacklog;
import io.stratus.cloudapi.SupportsQueueInspection;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;

/**
 * {@link EncryptedSimpleQueues} for queues that can be inspected: used exactly when the wrapped
 * queues implement {@link SupportsQueueInspection}, so an operator's verifier still sees the
 * backlog of an encrypted database. Counts and send times pass through (they reveal nothing the
 * service does not already know); peeked payloads are opened like received ones, and a payload
 * that cannot be opened is handed on sealed, so whoever decodes it reports it as damaged.
 */
final class EncryptedInspectableQueues extends EncryptedSimpleQueues
    implements SupportsQueueInspection {
  private final SupportsQueueInspection inspectable;

  EncryptedInspectableQueues(
      SupportsQueueInspection delegate, Envelope envelope, boolean closesDelegate) {
    super(delegate, envelope, closesDelegate);
    this.inspectable = delegate;
  }

  @Override
  public CompletableFuture<QueueBacklog> inspect(String uri, int maxPeeked) {
    return Guard.call(() -> inspectable.inspect(uri, maxPeeked))
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
}
