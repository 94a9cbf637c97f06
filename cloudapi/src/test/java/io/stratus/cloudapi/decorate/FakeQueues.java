package io.stratus.cloudapi.decorate;

import io.stratus.cloudapi.CloudLimits;
import io.stratus.cloudapi.QueueMessage;
import io.stratus.cloudapi.SimpleQueueService;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A small thread-safe FIFO queue service for the decorator tests: a receive hands out (and
 * removes) up to the requested number of messages; deletes are accepted and ignored.
 */
class FakeQueues implements SimpleQueueService {
  private final ConcurrentHashMap<String, ConcurrentLinkedQueue<QueueMessage>> queues =
      new ConcurrentHashMap<>();
  private final AtomicLong ids = new AtomicLong();

  private ConcurrentLinkedQueue<QueueMessage> queue(String uri) {
    return queues.computeIfAbsent(uri, u -> new ConcurrentLinkedQueue<>());
  }

  @Override
  public CompletableFuture<Void> createQueue(String uri) {
    queue(uri);
    return CompletableFuture.completedFuture(null);
  }

  @Override
  public CompletableFuture<Void> deleteQueue(String uri) {
    queues.remove(uri);
    return CompletableFuture.completedFuture(null);
  }

  @Override
  public CompletableFuture<List<String>> listQueues(String prefix) {
    List<String> names = new ArrayList<>();
    queues.keySet().stream().filter(q -> q.startsWith(prefix)).sorted().forEach(names::add);
    return CompletableFuture.completedFuture(names);
  }

  @Override
  public CompletableFuture<String> send(String uri, byte[] payload) {
    String id = "m" + ids.incrementAndGet();
    queue(uri).add(new QueueMessage(id, "r-" + id, payload, 1));
    return CompletableFuture.completedFuture(id);
  }

  @Override
  public CompletableFuture<List<String>> sendBatch(String uri, List<byte[]> payloads) {
    List<String> sent = new ArrayList<>();
    for (byte[] p : payloads) {
      sent.add(send(uri, p).join());
    }
    return CompletableFuture.completedFuture(sent);
  }

  @Override
  public CompletableFuture<List<QueueMessage>> receive(String uri, int max, Duration visibility) {
    List<QueueMessage> out = new ArrayList<>();
    ConcurrentLinkedQueue<QueueMessage> q = queue(uri);
    QueueMessage m;
    while (out.size() < max && (m = q.poll()) != null) {
      out.add(m);
    }
    return CompletableFuture.completedFuture(out);
  }

  @Override
  public CompletableFuture<Void> delete(String uri, String receiptHandle) {
    return CompletableFuture.completedFuture(null);
  }

  @Override
  public CompletableFuture<Void> deleteBatch(String uri, List<String> receiptHandles) {
    return CompletableFuture.completedFuture(null);
  }

  @Override
  public CloudLimits limits() {
    return CloudLimits.aws();
  }
}
