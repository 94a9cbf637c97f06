package io.stratus.cloudapi.decorate;

import static io.stratus.cloudapi.Operation.QUEUE_CHANGE_VISIBILITY;
import static io.stratus.cloudapi.Operation.QUEUE_CHANGE_VISIBILITY_BATCH;
import static io.stratus.cloudapi.Operation.QUEUE_CREATE;
import static io.stratus.cloudapi.Operation.QUEUE_DELETE;
import static io.stratus.cloudapi.Operation.QUEUE_DELETE_BATCH;
import static io.stratus.cloudapi.Operation.QUEUE_DELETE_MESSAGE;
import static io.stratus.cloudapi.Operation.QUEUE_INSPECT;
import static io.stratus.cloudapi.Operation.QUEUE_LIST;
import static io.stratus.cloudapi.Operation.QUEUE_RECEIVE;
import static io.stratus.cloudapi.Operation.QUEUE_SEND;
import static io.stratus.cloudapi.Operation.QUEUE_SEND_BATCH;

import io.stratus.cloudapi.CloudLimits;
import io.stratus.cloudapi.QueueBacklog;
import io.stratus.cloudapi.QueueMessage;
import io.stratus.cloudapi.SimpleQueueService;
import io.stratus.cloudapi.SupportsQueueInspection;
import io.stratus.cloudapi.SupportsVisibilityChange;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;

/**
 * Simple queues whose every call goes through an {@link InterceptorChain}.
 *
 * <p>Optional abilities: {@link #of} picks the subclass that implements exactly the abilities of
 * the wrapped queues ({@link SupportsQueueInspection}, {@link SupportsVisibilityChange}, both or
 * neither), so that they stay detectable by {@code instanceof} through any number of decorators.
 * The methods of both abilities are written once, here, and routed like every call; a subclass
 * only declares the interfaces whose methods it thereby has. They are called only through those
 * interfaces, so the casts to the wrapped queues' abilities hold.
 */
class InterceptedSimpleQueues extends InterceptedService<SimpleQueueService>
    implements SimpleQueueService {
  InterceptedSimpleQueues(
      SimpleQueueService delegate, InterceptorChain chain, boolean closesDelegate) {
    super(delegate, chain, closesDelegate ? delegate::close : null);
  }

  /** {@code queues} intercepted, with exactly their optional abilities. */
  static SimpleQueueService of(
      SimpleQueueService queues, InterceptorChain chain, boolean closesDelegate) {
    boolean inspects = queues instanceof SupportsQueueInspection;
    boolean changes = queues instanceof SupportsVisibilityChange;
    if (inspects && changes) {
      return new Full(queues, chain, closesDelegate);
    }
    if (inspects) {
      return new Inspectable(queues, chain, closesDelegate);
    }
    if (changes) {
      return new VisibilityChanging(queues, chain, closesDelegate);
    }
    return new InterceptedSimpleQueues(queues, chain, closesDelegate);
  }

  @Override
  public CompletableFuture<Void> createQueue(String uri) {
    return route(Call.of(QUEUE_CREATE, uri, 0), () -> delegate.createQueue(uri));
  }

  @Override
  public CompletableFuture<Void> deleteQueue(String uri) {
    return route(Call.of(QUEUE_DELETE, uri, 0), () -> delegate.deleteQueue(uri));
  }

  @Override
  public CompletableFuture<List<String>> listQueues(String prefix) {
    return route(Call.of(QUEUE_LIST, prefix, 0), () -> delegate.listQueues(prefix));
  }

  @Override
  public CompletableFuture<String> send(String uri, byte[] payload) {
    return route(Call.of(QUEUE_SEND, uri, Sizes.bytes(payload)), () -> delegate.send(uri, payload));
  }

  @Override
  public CompletableFuture<List<String>> sendBatch(String uri, List<byte[]> payloads) {
    return route(
        Call.of(QUEUE_SEND_BATCH, uri, Sizes.payloads(payloads)),
        () -> delegate.sendBatch(uri, payloads));
  }

  @Override
  public CompletableFuture<List<QueueMessage>> receive(
      String uri, int maxMessages, Duration visibilityTimeout) {
    return route(
        Call.of(QUEUE_RECEIVE, uri, 0, Sizes::queueMessages),
        () -> delegate.receive(uri, maxMessages, visibilityTimeout));
  }

  @Override
  public CompletableFuture<Void> delete(String uri, String receiptHandle) {
    return route(Call.of(QUEUE_DELETE_MESSAGE, uri, 0), () -> delegate.delete(uri, receiptHandle));
  }

  @Override
  public CompletableFuture<Void> deleteBatch(String uri, List<String> receiptHandles) {
    return route(
        Call.of(QUEUE_DELETE_BATCH, uri, 0), () -> delegate.deleteBatch(uri, receiptHandles));
  }

  @Override
  public CloudLimits limits() {
    return delegate.limits();
  }

  /** {@link SupportsQueueInspection#inspect}, for the subclasses that have the ability. */
  public CompletableFuture<QueueBacklog> inspect(String uri, int maxPeeked) {
    return route(
        Call.of(QUEUE_INSPECT, uri, 0, Sizes::backlog),
        () -> ((SupportsQueueInspection) delegate).inspect(uri, maxPeeked));
  }

  /** {@link SupportsVisibilityChange#changeVisibility}, for the subclasses with the ability. */
  public CompletableFuture<Void> changeVisibility(
      String uri, String receiptHandle, Duration visibilityTimeout) {
    return route(
        Call.of(QUEUE_CHANGE_VISIBILITY, uri, 0),
        () ->
            ((SupportsVisibilityChange) delegate)
                .changeVisibility(uri, receiptHandle, visibilityTimeout));
  }

  /** {@link SupportsVisibilityChange#changeVisibilityBatch}, for the subclasses with it. */
  public CompletableFuture<Void> changeVisibilityBatch(
      String uri, List<String> receiptHandles, Duration visibilityTimeout) {
    return route(
        Call.of(QUEUE_CHANGE_VISIBILITY_BATCH, uri, 0),
        () ->
            ((SupportsVisibilityChange) delegate)
                .changeVisibilityBatch(uri, receiptHandles, visibilityTimeout));
  }

  /** Queues that can be inspected (and not change visibility). */
  private static final class Inspectable extends InterceptedSimpleQueues
      implements SupportsQueueInspection {
    Inspectable(SimpleQueueService delegate, InterceptorChain chain, boolean closesDelegate) {
      super(delegate, chain, closesDelegate);
    }
  }

  /** Queues that can change visibility (and not be inspected). */
  private static final class VisibilityChanging extends InterceptedSimpleQueues
      implements SupportsVisibilityChange {
    VisibilityChanging(
        SimpleQueueService delegate, InterceptorChain chain, boolean closesDelegate) {
      super(delegate, chain, closesDelegate);
    }
  }

  /** Queues with both abilities. */
  private static final class Full extends InterceptedSimpleQueues
      implements SupportsQueueInspection, SupportsVisibilityChange {
    Full(SimpleQueueService delegate, InterceptorChain chain, boolean closesDelegate) {
      super(delegate, chain, closesDelegate);
    }
  }
}
