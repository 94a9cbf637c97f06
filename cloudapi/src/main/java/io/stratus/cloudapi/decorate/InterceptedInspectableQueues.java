package io.stratus.cloudapi.decorate;

import static io.stratus.cloudapi.Operation.QUEUE_INSPECT;

import io.stratus.cloudapi.QueueBacklog;
import io.stratus.cloudapi.SupportsQueueInspection;
import java.util.concurrent.CompletableFuture;

/**
 * {@link InterceptedSimpleQueues} for queues that can be inspected: used exactly when the wrapped
 * queues implement {@link SupportsQueueInspection}, so that the ability stays detectable by {@code
 * instanceof} through any number of decorators, and inspections are metered like every call.
 */
final class InterceptedInspectableQueues extends InterceptedSimpleQueues
    implements SupportsQueueInspection {
  private final SupportsQueueInspection inspectable;

  InterceptedInspectableQueues(
      SupportsQueueInspection delegate, InterceptorChain chain, boolean closesDelegate) {
    super(delegate, chain, closesDelegate);
    this.inspectable = delegate;
  }

  @Override
  public CompletableFuture<QueueBacklog> inspect(String uri, int maxPeeked) {
    return route(
        Call.of(QUEUE_INSPECT, uri, 0, Sizes::backlog), () -> inspectable.inspect(uri, maxPeeked));
  }
}
