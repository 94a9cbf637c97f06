package io.stratus.cloudapi.decorate;

import static io.stratus.cloudapi.Operation.ADVANCED_QUEUE_CREATE;
import static io.stratus.cloudapi.Operation.ADVANCED_QUEUE_DELETE;
import static io.stratus.cloudapi.Operation.ADVANCED_QUEUE_DELETE_BY_KEY;
import static io.stratus.cloudapi.Operation.ADVANCED_QUEUE_DELETE_MESSAGE;
import static io.stratus.cloudapi.Operation.ADVANCED_QUEUE_LIST;
import static io.stratus.cloudapi.Operation.ADVANCED_QUEUE_RECEIVE;
import static io.stratus.cloudapi.Operation.ADVANCED_QUEUE_SEND;

import io.stratus.cloudapi.AdvancedMessage;
import io.stratus.cloudapi.AdvancedQueueService;
import io.stratus.cloudapi.CloudLimits;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;

/**
 * Advanced queues whose every call goes through an {@link InterceptorChain}. The three filtered
 * receives are one operation, {@code ADVANCED_QUEUE_RECEIVE}: they cost and take the same.
 */
final class InterceptedAdvancedQueues extends InterceptedService<AdvancedQueueService>
    implements AdvancedQueueService {
  InterceptedAdvancedQueues(
      AdvancedQueueService delegate, InterceptorChain chain, boolean closesDelegate) {
    super(delegate, chain, closesDelegate ? delegate::close : null);
  }

  @Override
  public CompletableFuture<Void> createQueue(String uri) {
    return route(Call.of(ADVANCED_QUEUE_CREATE, uri, 0), () -> delegate.createQueue(uri));
  }

  @Override
  public CompletableFuture<Void> deleteQueue(String uri) {
    return route(Call.of(ADVANCED_QUEUE_DELETE, uri, 0), () -> delegate.deleteQueue(uri));
  }

  @Override
  public CompletableFuture<List<String>> listQueues(String prefix) {
    return route(Call.of(ADVANCED_QUEUE_LIST, prefix, 0), () -> delegate.listQueues(prefix));
  }

  @Override
  public CompletableFuture<Long> send(String uri, byte[] payload, long key) {
    return route(
        Call.of(ADVANCED_QUEUE_SEND, uri, Sizes.bytes(payload)),
        () -> delegate.send(uri, payload, key));
  }

  @Override
  public CompletableFuture<List<AdvancedMessage>> receiveAfterId(
      String uri, int max, long idGreaterThan) {
    return route(
        Call.of(ADVANCED_QUEUE_RECEIVE, uri, 0, Sizes::advancedMessages),
        () -> delegate.receiveAfterId(uri, max, idGreaterThan));
  }

  @Override
  public CompletableFuture<List<AdvancedMessage>> receiveByKey(
      String uri, int max, long keyGreaterThan, long keyLessThan) {
    return route(
        Call.of(ADVANCED_QUEUE_RECEIVE, uri, 0, Sizes::advancedMessages),
        () -> delegate.receiveByKey(uri, max, keyGreaterThan, keyLessThan));
  }

  @Override
  public CompletableFuture<List<AdvancedMessage>> receiveOlderThan(
      String uri, int max, Duration age) {
    return route(
        Call.of(ADVANCED_QUEUE_RECEIVE, uri, 0, Sizes::advancedMessages),
        () -> delegate.receiveOlderThan(uri, max, age));
  }

  @Override
  public CompletableFuture<Void> delete(String uri, long messageId) {
    return route(
        Call.of(ADVANCED_QUEUE_DELETE_MESSAGE, uri, 0), () -> delegate.delete(uri, messageId));
  }

  @Override
  public CompletableFuture<Integer> deleteByKey(String uri, long keyGreaterThan, long keyLessThan) {
    return route(
        Call.of(ADVANCED_QUEUE_DELETE_BY_KEY, uri, 0),
        () -> delegate.deleteByKey(uri, keyGreaterThan, keyLessThan));
  }

  @Override
  public CloudLimits limits() {
    return delegate.limits();
  }
}
