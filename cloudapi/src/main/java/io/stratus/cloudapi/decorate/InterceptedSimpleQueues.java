package io.stratus.cloudapi.decorate;

import static io.stratus.cloudapi.Operation.QUEUE_CREATE;
import static io.stratus.cloudapi.Operation.QUEUE_DELETE;
import static io.stratus.cloudapi.Operation.QUEUE_DELETE_BATCH;
import static io.stratus.cloudapi.Operation.QUEUE_DELETE_MESSAGE;
import static io.stratus.cloudapi.Operation.QUEUE_LIST;
import static io.stratus.cloudapi.Operation.QUEUE_RECEIVE;
import static io.stratus.cloudapi.Operation.QUEUE_SEND;
import static io.stratus.cloudapi.Operation.QUEUE_SEND_BATCH;

import io.stratus.cloudapi.CloudLimits;
import io.stratus.cloudapi.QueueMessage;
import io.stratus.cloudapi.SimpleQueueService;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;

/** Simple queues whose every call goes through an {@link InterceptorChain}. */
class InterceptedSimpleQueues extends InterceptedService<SimpleQueueService>
    implements SimpleQueueService {
  InterceptedSimpleQueues(
      SimpleQueueService delegate, InterceptorChain chain, boolean closesDelegate) {
    super(delegate, chain, closesDelegate ? delegate::close : null);
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
}
