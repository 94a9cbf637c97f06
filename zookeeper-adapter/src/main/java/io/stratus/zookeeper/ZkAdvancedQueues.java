package io.stratus.zookeeper;

import io.stratus.cloudapi.AdvancedMessage;
import io.stratus.cloudapi.AdvancedQueueService;
import io.stratus.cloudapi.BadRequestException;
import io.stratus.cloudapi.CloudFutures;
import io.stratus.cloudapi.CloudLimits;
import io.stratus.cloudapi.ConflictException;
import io.stratus.cloudapi.LimitExceededException;
import io.stratus.cloudapi.NotFoundException;
import java.time.Clock;
import java.time.DateTimeException;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.function.Predicate;
import java.util.function.Supplier;
import org.apache.zookeeper.CreateMode;
import org.apache.zookeeper.KeeperException.Code;
import org.jspecify.annotations.Nullable;

/**
 * Advanced queues (paper 000, sections 2.3.4 and 6.4) on ZooKeeper: a queue is a persistent znode,
 * each message a persistent sequential child named {@code {key}_{enqueue millis, base 36}_{seq}}
 * whose data is the payload (see {@link ZkPaths}).
 *
 * <p>Why this shape:
 *
 * <ul>
 *   <li><b>Ids ordered by arrival.</b> ZooKeeper's leader numbers sequential children in commit
 *       order, so of two sends where one completed before the other started, the later has the
 *       larger sequence; the id is the sequence plus one (positive, as the protocols assume).
 *       Sequences are never reused under one parent; a queue deleted and created again is a new
 *       parent whose ids start at 1 again, as in the in-process queues.
 *   <li><b>Key and age in the name.</b> Every receive lists the children, which carries the id,
 *       key and enqueue instant of every message, filters and sorts them locally, and fetches only
 *       the payloads it returns (pipelined {@code getData}s). A message deleted between the list
 *       and the fetch is skipped and the next match fetched instead, so a receive still returns
 *       the first {@code max} matches that exist.
 *   <li><b>Complete receives.</b> A ZooKeeper server may lag the leader; each listing first
 *       {@code sync}s, so it sees every send completed before the receive started, by any client.
 *   <li><b>Bounded listings.</b> A children list longer than the client's buffer makes ZooKeeper
 *       drop the connection (and with it every request in flight and every lock of the client),
 *       so a listing first reads the queue's child count and refuses a queue longer than
 *       {@link #MAX_LISTED_MESSAGES} with {@link LimitExceededException}.
 *   <li><b>Sends are not retried.</b> A send whose reply is lost fails with {@code
 *       OutcomeUnknownException}: a retry could add the message twice.
 * </ul>
 *
 * <p>Thread-safe; all state is in ZooKeeper.
 */
final class ZkAdvancedQueues implements AdvancedQueueService {
  /**
   * The longest queue a receive lists: the client's 8 MiB reply buffer ({@code
   * ZooKeeperCloud.CLIENT_MAX_REPLY_BYTES}) over 54 bytes, the longest name plus its length field.
   */
  static final int MAX_LISTED_MESSAGES = 150_000;

  /** Attempts of a queue deletion racing with sends before it gives up. */
  private static final int DELETE_QUEUE_ATTEMPTS = 20;

  /** The data of a queue node: the format of its messages. */
  private static final byte[] QUEUE_FORMAT = {1};

  private final Zk zk;
  private final ZkPaths paths;
  private final CloudLimits limits;
  private final Clock clock;

  ZkAdvancedQueues(Zk zk, ZkPaths paths, ZooKeeperConfig config) {
    this.zk = zk;
    this.paths = paths;
    this.limits = config.limits();
    this.clock = config.clock();
  }

  @Override
  public CompletableFuture<Void> createQueue(String uri) {
    return zk.call(
        () -> {
          limits.checkUri(uri);
          return zk.create(paths.queue(uri), QUEUE_FORMAT, CreateMode.PERSISTENT)
              .handle(
                  (name, e) -> {
                    if (e != null && !Zk.isCode(CloudFutures.unwrap(e), Code.NODEEXISTS)) {
                      throw Zk.toCloud(e);
                    }
                    return null;
                  });
        });
  }

  @Override
  public CompletableFuture<Void> deleteQueue(String uri) {
    return zk.call(
        () -> {
          limits.checkUri(uri);
          return deleteQueue(uri, paths.queue(uri), 1);
        });
  }

  @Override
  public CompletableFuture<List<String>> listQueues(String prefix) {
    return zk.call(
        () -> {
          limits.checkPrefix(prefix);
          return zk.children(paths.queuesDir())
              .thenApply(
                  names -> {
                    List<String> out = new ArrayList<>();
                    for (String name : names) {
                      String uri;
                      try {
                        uri = ZkPaths.decode(name);
                      } catch (IllegalArgumentException e) {
                        continue; // not a node of this adapter
                      }
                      if (uri.startsWith(prefix)) {
                        out.add(uri);
                      }
                    }
                    Collections.sort(out);
                    return Collections.unmodifiableList(out);
                  });
        });
  }

  @Override
  public CompletableFuture<Long> send(String uri, byte[] payload, long key) {
    return zk.call(
        () -> {
          limits.checkUri(uri);
          limits.checkAdvancedMessage(payload);
          byte[] copy = payload.clone(); // the caller may reuse its array before the send goes out
          String prefix = ZkPaths.messagePrefix(paths.queue(uri), key, clock.millis());
          return zk.create(prefix, copy, CreateMode.PERSISTENT_SEQUENTIAL)
              .handle(
                  (path, e) -> {
                    if (e != null) {
                      throw notFoundOr(uri, e);
                    }
                    Message sent = Message.parse(path.substring(path.lastIndexOf('/') + 1));
                    if (sent == null) {
                      // ZooKeeper names a sequential node by the prefix given plus its counter.
                      throw new IllegalStateException("unexpected message node name: " + path);
                    }
                    return sent.id;
                  });
        });
  }

  @Override
  public CompletableFuture<List<AdvancedMessage>> receiveAfterId(
      String uri, int max, long idGreaterThan) {
    return receive(uri, max, () -> m -> m.id > idGreaterThan);
  }

  @Override
  public CompletableFuture<List<AdvancedMessage>> receiveByKey(
      String uri, int max, long keyGreaterThan, long keyLessThan) {
    return receive(uri, max, () -> m -> m.key > keyGreaterThan && m.key < keyLessThan);
  }

  @Override
  public CompletableFuture<List<AdvancedMessage>> receiveOlderThan(
      String uri, int max, Duration age) {
    if (age == null || age.isNegative()) {
      return zk.call(
          () -> {
            throw new BadRequestException("an age must be zero or positive: " + age);
          });
    }
    // Older than age: enqueuedAt + age < now, i.e. enqueuedAt < now - age, judged once listed.
    return receive(
        uri,
        max,
        () -> {
          Instant threshold;
          try {
            threshold = clock.instant().minus(age);
          } catch (DateTimeException | ArithmeticException e) {
            return m -> false; // an age beyond the clock's range: nothing is that old
          }
          return m -> m.enqueuedAt().isBefore(threshold);
        });
  }

  @Override
  public CompletableFuture<Void> delete(String uri, long messageId) {
    return zk.call(
        () -> {
          limits.checkUri(uri);
          String q = paths.queue(uri);
          return list(uri, q)
              .thenCompose(
                  messages -> {
                    for (Message m : messages) {
                      if (m.id == messageId) {
                        return deleteMessage(q, m).thenApply(deleted -> (Void) null);
                      }
                    }
                    return CompletableFuture.completedFuture(null); // already gone
                  });
        });
  }

  @Override
  public CompletableFuture<Integer> deleteByKey(String uri, long keyGreaterThan, long keyLessThan) {
    return zk.call(
        () -> {
          limits.checkUri(uri);
          String q = paths.queue(uri);
          return list(uri, q)
              .thenCompose(
                  messages -> {
                    List<CompletableFuture<Boolean>> deletes = new ArrayList<>();
                    for (Message m : messages) {
                      if (m.key > keyGreaterThan && m.key < keyLessThan) {
                        deletes.add(deleteMessage(q, m));
                      }
                    }
                    return CompletableFuture.allOf(deletes.toArray(new CompletableFuture<?>[0]))
                        .thenApply(
                            v -> (int) deletes.stream().filter(CompletableFuture::join).count());
                  });
        });
  }

  @Override
  public CloudLimits limits() {
    return limits;
  }

  // ---- internals ----

  /** A message as its name describes it. */
  private record Message(long id, long key, long enqueuedMillis, String name) {
    Instant enqueuedAt() {
      return Instant.ofEpochMilli(enqueuedMillis);
    }

    /** Parses {@code {key}_{millis base 36}_{sequence}}; null for a name of another shape. */
    static @Nullable Message parse(String name) {
      int a = name.indexOf('_');
      int b = a < 0 ? -1 : name.indexOf('_', a + 1);
      if (b < 0) {
        return null;
      }
      try {
        return new Message(
            Long.parseLong(name.substring(b + 1)) + 1,
            Long.parseLong(name.substring(0, a)),
            Long.parseLong(name.substring(a + 1, b), 36),
            name);
      } catch (NumberFormatException e) {
        return null;
      }
    }
  }

  private CompletableFuture<List<AdvancedMessage>> receive(
      String uri, int max, Supplier<Predicate<Message>> filterAfterListing) {
    return zk.call(
        () -> {
          limits.checkUri(uri);
          if (max < 1) {
            throw new BadRequestException("a receive needs max >= 1, got " + max);
          }
          String q = paths.queue(uri);
          return list(uri, q)
              .thenCompose(
                  messages -> {
                    Predicate<Message> filter = filterAfterListing.get();
                    List<Message> matching = new ArrayList<>();
                    for (Message m : messages) {
                      if (filter.test(m)) {
                        matching.add(m);
                      }
                    }
                    return fetch(q, matching, 0, max, new ArrayList<>());
                  });
        });
  }

  /**
   * The messages of the queue in id order, as the connected server knows them after catching up
   * with the leader (see the class comment).
   */
  private CompletableFuture<List<Message>> list(String uri, String q) {
    return children(uri, q)
        .thenApply(
            names -> {
              List<Message> out = new ArrayList<>(names.size());
              for (String name : names) {
                Message m = Message.parse(name);
                if (m != null) {
                  out.add(m);
                }
              }
              out.sort(Comparator.comparingLong(Message::id));
              return out;
            });
  }

  /** The names of the queue's children, after a sync and a check of their number. */
  private CompletableFuture<List<String>> children(String uri, String q) {
    CompletableFuture<Void> synced = zk.sync(q);
    return zk.exists(q)
        .thenCombine(synced, (stat, v) -> stat)
        .thenCompose(
            stat -> {
              if (stat == null) {
                throw new NotFoundException("no advanced queue " + uri);
              }
              if (stat.getNumChildren() > MAX_LISTED_MESSAGES) {
                throw new LimitExceededException(
                    "advanced queue length", stat.getNumChildren(), MAX_LISTED_MESSAGES);
              }
              return zk.children(q);
            })
        .handle(
            (names, e) -> {
              if (e != null) {
                throw notFoundOr(uri, e);
              }
              return names;
            });
  }

  /**
   * Fetches the payloads of {@code candidates} from index {@code from} until {@code max} were
   * found, a batch of the missing number at a time; vanished messages are skipped.
   */
  private CompletableFuture<List<AdvancedMessage>> fetch(
      String q, List<Message> candidates, int from, int max, List<AdvancedMessage> found) {
    int want = Math.min(max - found.size(), candidates.size() - from);
    if (want <= 0) {
      return CompletableFuture.completedFuture(Collections.unmodifiableList(found));
    }
    List<Message> batch = candidates.subList(from, from + want);
    List<CompletableFuture<byte[]>> reads = new ArrayList<>(want);
    for (Message m : batch) {
      reads.add(zk.data(q + "/" + m.name));
    }
    return CompletableFuture.allOf(reads.toArray(new CompletableFuture<?>[0]))
        .thenCompose(
            v -> {
              for (int i = 0; i < want; i++) {
                byte[] payload = reads.get(i).join();
                if (payload != null) {
                  Message m = batch.get(i);
                  found.add(new AdvancedMessage(m.id, m.key, payload, m.enqueuedAt()));
                }
              }
              return fetch(q, candidates, from + want, max, found);
            });
  }

  /** Deletes one message; true if this call deleted it, false if it was gone already. */
  private CompletableFuture<Boolean> deleteMessage(String q, Message m) {
    return zk.delete(q + "/" + m.name, -1)
        .handle(
            (v, e) -> {
              if (e == null) {
                return true;
              }
              if (Zk.isCode(CloudFutures.unwrap(e), Code.NONODE)) {
                return false;
              }
              throw Zk.toCloud(e);
            });
  }

  private CompletableFuture<Void> deleteQueue(String uri, String q, int attempt) {
    return children(uri, q)
        .thenCompose(
            names -> {
              List<CompletableFuture<Boolean>> deletes = new ArrayList<>(names.size());
              for (String name : names) {
                deletes.add(
                    zk.delete(q + "/" + name, -1)
                        .handle(
                            (v, e) -> {
                              if (e != null && !Zk.isCode(CloudFutures.unwrap(e), Code.NONODE)) {
                                throw Zk.toCloud(e);
                              }
                              return true;
                            }));
              }
              return CompletableFuture.allOf(deletes.toArray(new CompletableFuture<?>[0]));
            })
        .thenCompose(v -> zk.delete(q, -1))
        .handle(
            (v, e) -> {
              Throwable t = e == null ? null : CloudFutures.unwrap(e);
              if (t == null || t instanceof NotFoundException || Zk.isCode(t, Code.NONODE)) {
                return CompletableFuture.<Void>completedFuture(
                    null); // gone, by this call or another
              }
              if (Zk.isCode(t, Code.NOTEMPTY)) { // a send raced with the deletion
                if (attempt < DELETE_QUEUE_ATTEMPTS) {
                  return deleteQueue(uri, q, attempt + 1);
                }
                throw new ConflictException(
                    "sends kept racing with the deletion of queue " + uri, t);
              }
              throw Zk.toCloud(t);
            })
        .thenCompose(f -> f);
  }

  /** NoNode means the queue is missing; any other failure as the hierarchy's. */
  private static RuntimeException notFoundOr(String uri, Throwable e) {
    Throwable t = CloudFutures.unwrap(e);
    if (Zk.isCode(t, Code.NONODE)) {
      return new NotFoundException("no advanced queue " + uri);
    }
    return Zk.toCloud(t);
  }
}
