package io.stratus.cloudapi.inprocess;

import io.stratus.cloudapi.*;
import java.time.*;
import java.util.*;
import java.util.concurrent.CompletableFuture;

// STUB: replaced by the real implementation.
final class InProcessAdvancedQueues implements AdvancedQueueService {
  InProcessAdvancedQueues(Clock clock, CloudLimits limits) {}


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
  public CompletableFuture<Long> send(String uri, byte[] payload, long key) {
    throw new UnsupportedOperationException("not implemented yet");
  }

  @Override
  public CompletableFuture<List<AdvancedMessage>> receiveAfterId(String uri, int max, long idGreaterThan) {
    throw new UnsupportedOperationException("not implemented yet");
  }

  @Override
  public CompletableFuture<List<AdvancedMessage>> receiveByKey( String uri, int max, long keyGreaterThan, long keyLessThan) {
    throw new UnsupportedOperationException("not implemented yet");
  }

  @Override
  public CompletableFuture<List<AdvancedMessage>> receiveOlderThan(String uri, int max, Duration age) {
    throw new UnsupportedOperationException("not implemented yet");
  }

  @Override
  public CompletableFuture<Void> delete(String uri, long messageId) {
    throw new UnsupportedOperationException("not implemented yet");
  }

  @Override
  public CompletableFuture<Integer> deleteByKey(String uri, long keyGreaterThan, long keyLessThan) {
    throw new UnsupportedOperationException("not implemented yet");
  }

  @Override
  public CloudLimits limits() {
    throw new UnsupportedOperationException("not implemented yet");
  }

}
