package io.stratus.cloudapi.inprocess;

import io.stratus.cloudapi.*;
import java.time.*;
import java.util.*;
import java.util.concurrent.CompletableFuture;

// STUB: replaced by the real implementation.
final class InProcessSimpleQueues implements SimpleQueueService {
  InProcessSimpleQueues(Clock clock, CloudLimits limits, QueueBehavior behavior, long seed) {}


  @Override
  public CompletableFuture<Void> createQueue(String uri) {
    throw new UnsupportedOperationException("not implemented yet");
  }

  @Override
  public CompletableFuture<Void> deleteQueue(String uri) {
    throw new UnsupportedOperationException("not implemented yet");
  }

  @Override
  public CompletableFuture<List<String>> listQueues(String prefix) {
    throw new UnsupportedOperationException("not implemented yet");
  }

  @Override
  public CompletableFuture<String> send(String uri, byte[] payload) {
    throw new UnsupportedOperationException("not implemented yet");
  }

  @Override
  public CompletableFuture<List<String>> sendBatch(String uri, List<byte[]> payloads) {
    throw new UnsupportedOperationException("not implemented yet");
  }

  @Override
  public CompletableFuture<List<QueueMessage>> receive( String uri, int maxMessages, Duration visibilityTimeout) {
    throw new UnsupportedOperationException("not implemented yet");
  }

  @Override
  public CompletableFuture<Void> delete(String uri, String receiptHandle) {
    throw new UnsupportedOperationException("not implemented yet");
  }

  @Override
  public CompletableFuture<Void> deleteBatch(String uri, List<String> receiptHandles) {
    throw new UnsupportedOperationException("not implemented yet");
  }

  @Override
  public CloudLimits limits() {
    throw new UnsupportedOperationException("not implemented yet");
  }

}
