package io.stratus.cloudapi.inprocess;

import io.stratus.cloudapi.AdvancedMessage;
import io.stratus.cloudapi.AdvancedQueueService;
import io.stratus.cloudapi.BadRequestException;
import io.stratus.cloudapi.CloudException;
import io.stratus.cloudapi.CloudLimits;
import io.stratus.cloudapi.NotFoundException;
import java.time.Clock;
import java.time.DateTimeException;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Iterator;
import java.util.List;
import java.util.NavigableMap;
import java.util.NavigableSet;
import java.util.Objects;
import java.util.PriorityQueue;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentSkipListMap;
import java.util.function.Function;
import java.util.function.Supplier;
import org.jspecify.annotations.Nullable;

/**
 * Advanced queues held in memory (paper 000, sections 2.3.4 and 6.4, without the replication): the
 * strong queue the atomicity and GSI protocols need, i.e. complete and FIFO receives with filters
 * on id, key range and age.
 *
 * <p>Why it looks the way it does:
 *
 * <ul>
 *   <li>Each queue is guarded by its own monitor, and a send assigns the id and inserts the message
 *       under it. So ids follow completion order (a send that completed before another started has
 *       the smaller id), and a receive, taken under the same monitor, sees a gap-free prefix of
 *       every completed send: the completeness the paper asks for.
 *   <li>Messages sit in a {@link TreeMap} by id, so {@code receiveAfterId} is a tail view. A second
 *       index by key (key to the ids with that key) serves the key-range receive and delete that
 *       GSI issues per page with a narrow range ({@code SnapshotId < key < CommitId + 1}) without
 *       scanning the whole queue.
 *   <li>{@code enqueuedAt} never decreases along the ids of one queue (the clock's reading, or the
 *       previous message's when the clock stepped back), so "older than" is a prefix of the queue
 *       and its receive stops at the first message that is too young.
 *   <li>A receive hides nothing and the stored {@link AdvancedMessage} records are immutable (their
 *       payload accessor copies), so they are handed out as they are.
 *   <li>Ids restart at 1 when a queue is deleted and created again: it is a new queue (as a new
 *       ZooKeeper parent node restarts its sequence numbers).
 * </ul>
 *
 * <p>Thread-safe. Every call completes its future before it returns; bad input fails the future.
 */
final class InProcessAdvancedQueues implements AdvancedQueueService {
  private final Clock clock;
  private final CloudLimits limits;

  /** Sorted, so that {@link #listQueues} is a range of the map. */
  private final ConcurrentSkipListMap<String, Queue> queues = new ConcurrentSkipListMap<>();

  InProcessAdvancedQueues(Clock clock, CloudLimits limits) {
    this.clock = Objects.requireNonNull(clock, "clock");
    this.limits = Objects.requireNonNull(limits, "limits");
  }

  @Override
  public CompletableFuture<Void> createQueue(String uri) {
    return call(
        () -> {
          limits.checkUri(uri);
          queues.computeIfAbsent(uri, u -> new Queue());
          return null;
        });
  }

  @Override
  public CompletableFuture<Void> deleteQueue(String uri) {
    return call(
        () -> {
          limits.checkUri(uri);
          Queue q = queues.remove(uri);
          if (q != null) {
            // A send that looked the queue up before the removal must not report success for a
            // message that nobody can ever receive.
            synchronized (q) {
              q.deleted = true;
              q.byId.clear();
              q.byKey.clear();
            }
          }
          return null;
        });
  }

  @Override
  public CompletableFuture<List<String>> listQueues(String prefix) {
    return call(
        () -> {
          limits.checkPrefix(prefix);
          List<String> out = new ArrayList<>();
          for (String uri : queues.tailMap(prefix, true).keySet()) {
            if (!uri.startsWith(prefix)) {
              break;
            }
            out.add(uri);
          }
          return Collections.unmodifiableList(out);
        });
  }

  @Override
  public CompletableFuture<Long> send(String uri, byte[] payload, long key) {
    return call(
        () -> {
          limits.checkUri(uri);
          limits.checkAdvancedMessage(payload);
          return withQueue(
              uri,
              q -> {
                long id = q.nextId++;
                Instant now = clock.instant();
                // Keep enqueuedAt monotonic along the ids even if the clock steps back (see
                // header).
                if (q.lastEnqueuedAt != null && now.isBefore(q.lastEnqueuedAt)) {
                  now = q.lastEnqueuedAt;
                }
                q.lastEnqueuedAt = now;
                q.byId.put(id, new AdvancedMessage(id, key, payload, now));
                q.byKey.computeIfAbsent(key, k -> new TreeSet<>()).add(id);
                return id;
              });
        });
  }

  @Override
  public CompletableFuture<List<AdvancedMessage>> receiveAfterId(
      String uri, int max, long idGreaterThan) {
    return call(
        () -> {
          limits.checkUri(uri);
          checkMax(max);
          return withQueue(
              uri,
              q -> {
                List<AdvancedMessage> out = new ArrayList<>(Math.min(max, q.byId.size()));
                for (AdvancedMessage m : q.byId.tailMap(idGreaterThan, false).values()) {
                  if (out.size() >= max) {
                    break;
                  }
                  out.add(m);
                }
                return Collections.unmodifiableList(out);
              });
        });
  }

  @Override
  public CompletableFuture<List<AdvancedMessage>> receiveByKey(
      String uri, int max, long keyGreaterThan, long keyLessThan) {
    return call(
        () -> {
          limits.checkUri(uri);
          checkMax(max);
          return withQueue(
              uri,
              q -> {
                List<Long> ids = firstIdsInKeyRange(q, max, keyGreaterThan, keyLessThan);
                List<AdvancedMessage> out = new ArrayList<>(ids.size());
                for (long id : ids) {
                  out.add(q.byId.get(id));
                }
                return Collections.unmodifiableList(out);
              });
        });
  }

  @Override
  public CompletableFuture<List<AdvancedMessage>> receiveOlderThan(
      String uri, int max, Duration age) {
    return call(
        () -> {
          limits.checkUri(uri);
          checkMax(max);
          if (age == null || age.isNegative()) {
            throw new BadRequestException("an age must be zero or positive: " + age);
          }
          return withQueue(
              uri,
              q -> {
                Instant threshold;
                try {
                  // Older than age: enqueuedAt + age < now, i.e. enqueuedAt < now - age.
                  threshold = clock.instant().minus(age);
                } catch (DateTimeException | ArithmeticException e) {
                  return List
                      .<AdvancedMessage>
                          of(); // an age beyond the clock's range: nothing is that old
                }
                List<AdvancedMessage> out = new ArrayList<>();
                for (AdvancedMessage m : q.byId.values()) {
                  // enqueuedAt is monotonic along the ids, so the first young message ends the
                  // scan.
                  if (out.size() >= max || !m.enqueuedAt().isBefore(threshold)) {
                    break;
                  }
                  out.add(m);
                }
                return Collections.unmodifiableList(out);
              });
        });
  }

  @Override
  public CompletableFuture<Void> delete(String uri, long messageId) {
    return call(
        () -> {
          limits.checkUri(uri);
          return withQueue(
              uri,
              q -> {
                AdvancedMessage m = q.byId.remove(messageId);
                if (m != null) {
                  unindex(q, m.key(), messageId);
                }
                return null;
              });
        });
  }

  @Override
  public CompletableFuture<Integer> deleteByKey(String uri, long keyGreaterThan, long keyLessThan) {
    return call(
        () -> {
          limits.checkUri(uri);
          return withQueue(
              uri,
              q -> {
                if (keyGreaterThan >= keyLessThan) {
                  return 0;
                }
                int count = 0;
                Iterator<NavigableSet<Long>> it =
                    q.byKey.subMap(keyGreaterThan, false, keyLessThan, false).values().iterator();
                while (it.hasNext()) {
                  for (long id : it.next()) {
                    q.byId.remove(id);
                    count++;
                  }
                  it.remove();
                }
                return count;
              });
        });
  }

  @Override
  public CloudLimits limits() {
    return limits;
  }

  // ---- internals ----

  /**
   * The smallest {@code max} ids whose key lies strictly between the bounds, ascending. Merges the
   * per-key id sets through a bounded max-heap: each set is ascending, so its scan stops as soon as
   * its ids cannot beat the heap's largest; cost is about the number of keys in the range plus
   * {@code max log max}, not the length of the queue.
   */
  private static List<Long> firstIdsInKeyRange(Queue q, int max, long keyGt, long keyLt) {
    if (keyGt >= keyLt) {
      return List.of();
    }
    PriorityQueue<Long> largestFirst = new PriorityQueue<>(Collections.reverseOrder());
    for (NavigableSet<Long> ids : q.byKey.subMap(keyGt, false, keyLt, false).values()) {
      for (long id : ids) {
        if (largestFirst.size() < max) {
          largestFirst.add(id);
        } else if (id < largestFirst.peek()) {
          largestFirst.poll();
          largestFirst.add(id);
        } else {
          break;
        }
      }
    }
    List<Long> out = new ArrayList<>(largestFirst);
    Collections.sort(out);
    return out;
  }

  private static void unindex(Queue q, long key, long id) {
    NavigableSet<Long> ids = q.byKey.get(key);
    if (ids != null) {
      ids.remove(id);
      if (ids.isEmpty()) {
        q.byKey.remove(key);
      }
    }
  }

  /**
   * Runs {@code body} under the monitor of the live queue named {@code uri}. A queue object found
   * deleted was replaced or removed meanwhile, so the lookup is repeated rather than failing
   * against a stale object.
   */
  private <T> T withQueue(String uri, Function<Queue, T> body) {
    while (true) {
      Queue q = queues.get(uri);
      if (q == null) {
        throw new NotFoundException("no advanced queue " + uri);
      }
      synchronized (q) {
        if (!q.deleted) {
          return body.apply(q);
        }
      }
    }
  }

  private static void checkMax(int max) {
    if (max < 1) {
      throw new BadRequestException("a receive needs max >= 1, got " + max);
    }
  }

  /** Runs a call on the caller's thread; a rejected request becomes a failed future. */
  private static <T> CompletableFuture<T> call(Supplier<T> body) {
    try {
      return CompletableFuture.completedFuture(body.get());
    } catch (CloudException e) {
      return CompletableFuture.failedFuture(e);
    }
  }

  /** One queue; every field is guarded by the queue's monitor. */
  private static final class Queue {
    final NavigableMap<Long, AdvancedMessage> byId = new TreeMap<>();

    /** key to the ids of the messages with that key; holds exactly the messages of byId. */
    final NavigableMap<Long, NavigableSet<Long>> byKey = new TreeMap<>();

    long nextId = 1;
    @Nullable Instant lastEnqueuedAt;
    boolean deleted;

    @Override
    public String toString() {
      return "Queue{" + byId.size() + " messages, next id " + nextId + '}';
    }
  }
}
