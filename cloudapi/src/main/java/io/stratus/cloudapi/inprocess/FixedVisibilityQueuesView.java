package io.stratus.cloudapi.inprocess;

import io.stratus.cloudapi.CloudLimits;
import io.stratus.cloudapi.QueueBacklog;
import io.stratus.cloudapi.QueueMessage;
import io.stratus.cloudapi.SupportsQueueInspection;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;

/**
 * The in-process simple queues with their visibility-change ability hidden (inspection kept), to
 * reproduce SQS as the papers had it and so exercise the protocols' path where a received message
 * stays hidden until its visibility timeout ends.
 */
final class FixedVisibilityQueuesView implements SupportsQueueInspection {
  private final SupportsQueueInspection delegate;

  FixedVisibilityQueuesView(SupportsQueueInspection delegate) {
    this.delegate = delegate;
  }

  @Override
  public CompletableFuture<Void> createQueue(String uri) {
    return delegate.createQueue(uri);
  }

  @Override
  public CompletableFuture<Void> deleteQueue(String uri) {
    return delegate.deleteQueue(uri);
  }

  @Override
  public CompletableFuture<List<String>> listQueues(String prefix) {
    return delegate.listQueues(prefix);
  }

  @Override
  public CompletableFuture<String> send(String uri, byte[] payload) {
    return delegate.send(uri, payload);
  }

  @Override
  public CompletableFuture<List<String>> sendBatch(String uri, List<byte[]> payloads) {
    return delegate.sendBatch(uri, payloads);
  }

  @Override
  public CompletableFuture<List<QueueMessage>> receive(
      String uri, int maxMessages, Duration visibilityTimeout) {
    return delegate.receive(uri, maxMessages, visibilityTimeout);
  }

  @Override
  public CompletableFuture<Void> delete(String uri, String receiptHandle) {
    return delegate.delete(uri, receiptHandle);
  }

  @Override
  public CompletableFuture<Void> deleteBatch(String uri, List<String> receiptHandles) {
    return delegate.deleteBatch(uri, receiptHandles);
  }

  @Override
  public CompletableFuture<QueueBacklog> inspect(String uri, int maxPeeked) {
    return delegate.inspect(uri, maxPeeked);
  }

  @Override
  public CloudLimits limits() {
    return delegate.limits();
  }

  @Override
  public String toString() {
    return "FixedVisibility(" + delegate + ")";
  }
}
