package io.stratus.cloudapi.inprocess;

import io.stratus.cloudapi.BadRequestException;
import io.stratus.cloudapi.CloudLimits;
import io.stratus.cloudapi.LimitExceededException;
import io.stratus.cloudapi.NotFoundException;
import io.stratus.cloudapi.QueueBacklog;
import io.stratus.cloudapi.QueueMessage;
import io.stratus.cloudapi.SupportsQueueInspection;
import io.stratus.cloudapi.SupportsVisibilityChange;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.PriorityQueue;
import java.util.SplittableRandom;
import java.util.TreeMap;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ConcurrentSkipListMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Supplier;
import org.jspecify.annotations.Nullable;

/**
 * The in-process simple queues: SQS standard queues as the protocols see them, held in this JVM.
 *
 * <p>Why it is built this way: by default the queues are as good as a queue can be (FIFO, complete
 * receives, one delivery per visibility period) so that protocol tests are readable; the {@link
 * QueueBehavior} knobs then switch on, one by one, what SQS is allowed to do and the protocols must
 * survive: random order, short receives, and duplicate deliveries of messages already deleted.
 *
 * <p>Model: a queue holds entries in a map ordered by an internal sequence number (send order);
 * a receive takes the first visible ones, or with reordering a random choice among the first 100
 * (at least ten times the receive's size) visible ones, a window that keeps receives cheap on
 * long queues.
 * An entry is hidden until {@code visibleAt}; a receive hides it for the visibility timeout and
 * hands out a fresh receipt handle. A <em>ghost</em> is how a duplicate is modelled: when a
 * delivery is chosen to be duplicated, a second entry with the same message id and payload is added
 * that becomes visible when the visibility timeout ends, independently of the original, so it comes
 * back even if the original is deleted; a message gets at most one ghost and ghosts get none.
 * Messages disappear {@link CloudLimits#messageRetention()} after they were sent (a ghost keeps its
 * original's send time).
 *
 * <p>Receipt handles are self-describing and authenticated: queue incarnation, entry sequence,
 * delivery number and a keyed hash of the three. So no table of handles is needed, a handle of a
 * message that is already gone is recognized (and its delete succeeds), and a forged or garbled
 * handle, or one of another queue, is rejected with {@link BadRequestException}. Any handle issued
 * for an entry deletes it, also a superseded one (the contract allows either).
 *
 * <p>Concurrency: the queue registry is a concurrent map; sends append to a queue's lock-free
 * inbox; every other operation takes the queue's monitor and moves the inbox in first; the seeded
 * random (order, short receives, duplicates) has its own monitor and is only taken inside a
 * queue's monitor, never the other way round. Message ids are keyed hashes of (queue, sequence),
 * reproducible without the random. A deleted queue is marked
 * so that a call that found it just before the deletion fails with {@link NotFoundException}.
 * Every call completes its future on the caller's thread; invalid input fails the future.
 *
 * <p>{@link #inspect} is exact (the queue's monitor is held while it counts) and changes nothing a
 * receive could notice: it hides nothing and counts no delivery. Ghosts (duplicates) count once
 * delivered; a ghost not delivered yet is not counted, as SQS would not count a copy it has not
 * made yet.
 *
 * <p>{@link #changeVisibility} acts on the delivery its handle names, and only while that delivery
 * holds the entry: a handle of an entry that is gone, of a delivery whose hold has ended, or of an
 * earlier delivery than the entry's latest (superseded) changes nothing and succeeds. A ghost is an
 * entry of its own: handing the original back leaves its ghost due when the original's first hold
 * would have ended, so a duplicate may still follow. As on SQS, a hold may not be extended beyond
 * {@link CloudLimits#maxVisibilityTimeout()} after the receive that issued the handle. A batch is
 * checked whole (handles, limits) before any change, so a refused batch changes nothing.
 */
final class InProcessSimpleQueues implements SupportsQueueInspection, SupportsVisibilityChange {
  private final Clock clock;
  private final CloudLimits limits;
  private final QueueBehavior behavior;
  private final SplittableRandom random;

  /** The key of the receipt-handle hashes, drawn from the seed. */
  private final long handleKey;

  private final AtomicLong incarnations = new AtomicLong();
  private final ConcurrentSkipListMap<String, Queue> queues =
      new ConcurrentSkipListMap<>(InProcessStorage.UTF8_ORDER);

  InProcessSimpleQueues(Clock clock, CloudLimits limits, QueueBehavior behavior, long seed) {
    this.clock = Objects.requireNonNull(clock, "clock");
    this.limits = Objects.requireNonNull(limits, "limits");
    this.behavior = Objects.requireNonNull(behavior, "behavior");
    this.random = new SplittableRandom(seed);
    this.handleKey = random.nextLong();
  }

  // ---- queues ----

  @Override
  public CompletableFuture<Void> createQueue(String uri) {
    return call(
        () -> {
          limits.checkUri(uri);
          if (!queues.containsKey(uri)) {
            queues.putIfAbsent(uri, new Queue(incarnations.incrementAndGet()));
          }
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
            synchronized (q) {
              q.deleted = true;
              q.clear();
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
          List<String> uris = new ArrayList<>();
          for (String uri : queues.tailMap(prefix, true).keySet()) {
            if (!uri.startsWith(prefix)) {
              break; // URIs with the prefix are contiguous in UTF-8 order
            }
            uris.add(uri);
          }
          return uris;
        });
  }

  // ---- messages ----

  @Override
  public CompletableFuture<String> send(String uri, byte[] payload) {
    return call(
        () -> {
          limits.checkUri(uri);
          limits.checkMessage(payload);
          Queue q = queue(uri);
          checkAlive(q, uri);
          return q.post(payload.clone(), clock.instant(), this::messageId);
        });
  }

  @Override
  public CompletableFuture<List<String>> sendBatch(String uri, List<byte[]> payloads) {
    return call(
        () -> {
          limits.checkUri(uri);
          limits.checkMessageBatch(payloads);
          Queue q = queue(uri);
          checkAlive(q, uri);
          Instant now = clock.instant();
          List<String> ids = new ArrayList<>(payloads.size());
          for (byte[] p : payloads) {
            ids.add(q.post(p.clone(), now, this::messageId));
          }
          return ids;
        });
  }

  @Override
  public CompletableFuture<List<QueueMessage>> receive(
      String uri, int maxMessages, Duration visibilityTimeout) {
    return call(
        () -> {
          limits.checkUri(uri);
          limits.checkBatch(maxMessages);
          limits.checkVisibilityTimeout(visibilityTimeout);
          Queue q = queue(uri);
          Instant now = clock.instant();
          synchronized (q) {
            checkAlive(q, uri);
            q.absorb();
            q.expire(now, limits.messageRetention());
            List<Entry> chosen = choose(q, maxMessages, now);
            List<QueueMessage> out = new ArrayList<>(chosen.size());
            Instant hiddenUntil = now.plus(visibilityTimeout);
            for (Entry e : chosen) {
              e.deliveries++;
              e.delivered = true;
              e.receivedAt = now;
              q.hide(e, hiddenUntil);
              out.add(
                  new QueueMessage(e.messageId, handle(q.incarnation, e), e.payload, e.deliveries));
              if (!e.ghost && !e.hasGhost && chance(behavior.duplicateProbability())) {
                e.hasGhost = true;
                q.addGhost(e, hiddenUntil);
              }
            }
            return out;
          }
        });
  }

  /** Picks the entries one receive returns, as the behaviour says (caller holds q's monitor). */
  private List<Entry> choose(Queue q, int maxMessages, Instant now) {
    // With reordering, draw from a window of visible entries rather than the whole queue, so a
    // receive stays cheap on a long queue; SQS, too, samples only some of its servers.
    int want = behavior.reorder() ? Math.max(100, 10 * maxMessages) : maxMessages;
    List<Entry> visible = new ArrayList<>(Math.min(want, 64));
    q.reveal(now);
    for (Entry e : q.visible.values()) {
      if (!e.visibleAt.isAfter(now)) {
        visible.add(e);
        if (visible.size() == want) {
          break;
        }
      }
    }
    int n = Math.min(maxMessages, visible.size());
    if (n > 0 && chance(behavior.shortReceiveProbability())) {
      synchronized (random) {
        n = random.nextInt(n + 1);
      }
    }
    if (!behavior.reorder()) {
      return visible.subList(0, n);
    }
    synchronized (random) {
      for (int i = 0; i < n; i++) { // a partial Fisher-Yates shuffle: n random distinct entries
        int j = i + random.nextInt(visible.size() - i);
        Entry t = visible.get(i);
        visible.set(i, visible.get(j));
        visible.set(j, t);
      }
    }
    return visible.subList(0, n);
  }

  @Override
  public CompletableFuture<Void> delete(String uri, String receiptHandle) {
    return call(
        () -> {
          limits.checkUri(uri);
          Queue q = queue(uri);
          long seq = parseHandle(q, receiptHandle);
          synchronized (q) {
            checkAlive(q, uri);
            q.absorb();
            q.remove(seq);
            return null;
          }
        });
  }

  @Override
  public CompletableFuture<Void> deleteBatch(String uri, List<String> receiptHandles) {
    return call(
        () -> {
          limits.checkUri(uri);
          limits.checkBatch(receiptHandles);
          Queue q = queue(uri);
          List<Long> seqs = new ArrayList<>(receiptHandles.size());
          for (String h : receiptHandles) {
            seqs.add(parseHandle(q, h)); // all parsed first: a bad handle fails the whole batch
          }
          synchronized (q) {
            checkAlive(q, uri);
            q.absorb();
            for (Long s : seqs) {
              q.remove(s);
            }
            return null;
          }
        });
  }

  @Override
  public CompletableFuture<Void> changeVisibility(
      String uri, String receiptHandle, Duration visibilityTimeout) {
    return call(
        () -> {
          limits.checkUri(uri);
          limits.checkVisibilityTimeout(visibilityTimeout);
          Queue q = queue(uri);
          Delivery d = parseDelivery(q, receiptHandle);
          changeAll(q, uri, List.of(d), visibilityTimeout);
          return null;
        });
  }

  @Override
  public CompletableFuture<Void> changeVisibilityBatch(
      String uri, List<String> receiptHandles, Duration visibilityTimeout) {
    return call(
        () -> {
          limits.checkUri(uri);
          limits.checkBatch(receiptHandles);
          limits.checkVisibilityTimeout(visibilityTimeout);
          Queue q = queue(uri);
          List<Delivery> deliveries = new ArrayList<>(receiptHandles.size());
          for (String h : receiptHandles) {
            deliveries.add(parseDelivery(q, h)); // all parsed first: a bad one fails the batch
          }
          changeAll(q, uri, deliveries, visibilityTimeout);
          return null;
        });
  }

  /**
   * Changes the hold of every delivery that still holds its entry: all or none, the limit checked
   * for every one before the first change.
   */
  private void changeAll(Queue q, String uri, List<Delivery> deliveries, Duration timeout) {
    Instant now = clock.instant();
    Instant until = now.plus(timeout);
    synchronized (q) {
      checkAlive(q, uri);
      q.absorb();
      q.expire(now, limits.messageRetention());
      List<Entry> held = new ArrayList<>(deliveries.size());
      for (Delivery d : deliveries) {
        Entry e = q.entries.get(d.seq());
        if (e == null
            || e.receivedAt == null
            || e.deliveries != d.number()
            || !e.visibleAt.isAfter(now)) {
          continue; // gone, superseded, or its hold over: nothing to change
        }
        Instant latest = e.receivedAt.plus(limits.maxVisibilityTimeout());
        if (until.isAfter(latest)) {
          throw new LimitExceededException(
              "visibility timeout in seconds left since the receive",
              timeout.toSeconds(),
              Math.max(0, Duration.between(now, latest).toSeconds()));
        }
        held.add(e);
      }
      for (Entry e : held) {
        q.rehide(e, until, now);
      }
    }
  }

  @Override
  public CompletableFuture<QueueBacklog> inspect(String uri, int maxPeeked) {
    return call(
        () -> {
          limits.checkUri(uri);
          if (maxPeeked < 0 || maxPeeked > limits.maxBatchSize()) {
            throw new BadRequestException(
                "maxPeeked must be 0 to " + limits.maxBatchSize() + ", got " + maxPeeked);
          }
          Queue q = queue(uri);
          Instant now = clock.instant();
          synchronized (q) {
            checkAlive(q, uri);
            q.absorb();
            q.expire(now, limits.messageRetention());
            q.reveal(now);
            long visible = 0;
            long inFlight = 0;
            Instant oldest = null;
            List<QueueBacklog.PeekedMessage> peeked = new ArrayList<>();
            for (Entry e : q.entries.values()) {
              if (e.ghost && !e.delivered) {
                continue; // a copy not made yet
              }
              if (e.visibleAt.isAfter(now)) {
                inFlight++;
              } else {
                visible++;
              }
              if (oldest == null || e.sentAt.isBefore(oldest)) {
                oldest = e.sentAt;
              }
              if (peeked.size() < maxPeeked) {
                peeked.add(
                    new QueueBacklog.PeekedMessage(e.messageId, e.sentAt, e.deliveries, e.payload));
              }
            }
            return new QueueBacklog(
                uri,
                visible,
                inFlight,
                Optional.ofNullable(oldest),
                limits.messageRetention(),
                peeked);
          }
        });
  }

  @Override
  public CloudLimits limits() {
    return limits;
  }

  @Override
  public String toString() {
    return "InProcessSimpleQueues{" + queues.size() + " queues, " + behavior + '}';
  }

  // ---- helpers ----

  private Queue queue(String uri) {
    Queue q = queues.get(uri);
    if (q == null) {
      throw new NotFoundException("no queue " + uri);
    }
    return q;
  }

  private static void checkAlive(Queue q, String uri) {
    if (q.deleted) {
      throw new NotFoundException("no queue " + uri);
    }
  }

  private boolean chance(double p) {
    if (p <= 0) {
      return false; // no draw, so the reliable default consumes no randomness
    }
    synchronized (random) {
      return random.nextDouble() < p;
    }
  }

  /**
   * A version 4 UUID that looks random but is a keyed hash of the queue incarnation and the
   * entry's sequence: reproducible from the seed, unordered, and made without a shared monitor
   * (every send in the process used to queue up on the random's).
   */
  private String messageId(long incarnation, long seq) {
    long hi = mix(mix(handleKey ^ incarnation) ^ seq);
    long lo = mix(hi ^ 0x9E3779B97F4A7C15L);
    hi = (hi & ~0xF000L) | 0x4000L;
    lo = (lo & 0x3FFFFFFFFFFFFFFFL) | 0x8000000000000000L;
    return new UUID(hi, lo).toString();
  }

  private String handle(long incarnation, Entry e) {
    return incarnation
        + "."
        + e.seq
        + "."
        + e.deliveries
        + "."
        + Long.toHexString(mac(incarnation, e.seq, e.deliveries));
  }

  /** The entry sequence a handle names; BadRequest unless this service issued it for q. */
  private long parseHandle(Queue q, String handle) {
    return parseDelivery(q, handle).seq();
  }

  /** The entry and delivery a handle names; BadRequest unless this service issued it for q. */
  private Delivery parseDelivery(Queue q, String handle) {
    if (handle == null) {
      throw new BadRequestException("a receipt handle must not be null");
    }
    String[] parts = handle.split("\\.", -1);
    if (parts.length == 4) {
      try {
        long incarnation = Long.parseLong(parts[0]);
        long seq = Long.parseLong(parts[1]);
        long delivery = Long.parseLong(parts[2]);
        long tag = Long.parseUnsignedLong(parts[3], 16);
        if (tag == mac(incarnation, seq, delivery)) {
          if (incarnation != q.incarnation) {
            throw new BadRequestException("the receipt handle belongs to another queue");
          }
          return new Delivery(seq, delivery);
        }
      } catch (NumberFormatException e) {
        // falls through to the rejection below
      }
    }
    throw new BadRequestException("not a receipt handle: " + handle);
  }

  /** A keyed hash (SplitMix64 finalizer rounds), enough to tell issued handles from others. */
  private long mac(long incarnation, long seq, long delivery) {
    long h = handleKey;
    h = mix(h ^ incarnation);
    h = mix(h ^ seq);
    return mix(h ^ delivery);
  }

  private static long mix(long z) {
    z = (z ^ (z >>> 30)) * 0xBF58476D1CE4E5B9L;
    z = (z ^ (z >>> 27)) * 0x94D049BB133111EBL;
    return z ^ (z >>> 31);
  }

  private static <T> CompletableFuture<T> call(Supplier<T> body) {
    try {
      return CompletableFuture.completedFuture(body.get());
    } catch (RuntimeException e) {
      // CloudExceptions (and any bug) reach the caller through the future, never as a throw.
      return CompletableFuture.failedFuture(e);
    }
  }

  /** Makes the message id of entry {@code seq} of the queue with {@code incarnation}. */
  @FunctionalInterface
  private interface MessageIds {
    String of(long incarnation, long seq);
  }

  /**
   * One queue. Sends never take its monitor: they number their entry from {@link #nextSeq} and
   * put it in the lock-free {@link #inbox}; every other operation takes the monitor and first
   * {@link #absorb}s the inbox. Under many concurrent senders (one client's ATOMIC queue, a hot
   * tree queue) a monitor on the send path formed a convoy that made the simulated service, not
   * the protocols, the bottleneck; SQS accepts sends to one queue in parallel. Every other field
   * is guarded by the queue's monitor.
   */
  private static final class Queue {
    final long incarnation;

    /** The next entry's sequence number: send order, ghosts included. */
    final AtomicLong nextSeq = new AtomicLong();

    /** Entries sent but not yet absorbed into {@link #entries}. */
    final ConcurrentLinkedQueue<Entry> inbox = new ConcurrentLinkedQueue<>();

    /** Entries by sequence number, i.e. in send order (ghosts after what was sent before them). */
    final TreeMap<Long, Entry> entries = new TreeMap<>();

    /**
     * The entries visible as of the last {@link #reveal}, in send order. A receive walks only
     * these: a queue whose front is hidden by earlier receives (a clean-up pass holding hundreds
     * of messages) would otherwise make every receive, and every send waiting for the monitor,
     * step over all of them.
     */
    final TreeMap<Long, Entry> visible = new TreeMap<>();

    /** When hidden entries become visible; stale wakes (entry gone or hidden again) are skipped. */
    final PriorityQueue<Wake> hidden =
        new PriorityQueue<>(Comparator.comparing(Wake::at).thenComparingLong(Wake::seq));

    /**
     * No entry was sent before this time (null: no entries), so most receives can skip the
     * retention sweep. It may be earlier than the oldest entry, never later.
     */
    @Nullable Instant oldestSent;

    volatile boolean deleted;

    Queue(long incarnation) {
      this.incarnation = incarnation;
    }

    /** A send: numbers the entry and leaves it in the inbox; its message id. */
    String post(byte[] payload, Instant now, MessageIds ids) {
      long seq = nextSeq.getAndIncrement();
      String id = ids.of(incarnation, seq);
      inbox.add(new Entry(seq, id, payload, now, now, 0, false));
      return id;
    }

    /** Moves what was sent into the queue (caller holds the monitor). */
    void absorb() {
      Entry e;
      while ((e = inbox.poll()) != null) {
        entries.put(e.seq, e);
        visible.put(e.seq, e);
        if (oldestSent == null || e.sentAt.isBefore(oldestSent)) {
          oldestSent = e.sentAt;
        }
      }
    }

    void addGhost(Entry original, Instant visibleAt) {
      Entry g =
          new Entry(
              nextSeq.getAndIncrement(),
              original.messageId,
              original.payload,
              original.sentAt,
              visibleAt,
              original.deliveries,
              true);
      entries.put(g.seq, g);
      hidden.add(new Wake(visibleAt, g.seq));
    }

    /** Hides {@code e} until {@code until} (a receive). */
    void hide(Entry e, Instant until) {
      e.visibleAt = until;
      visible.remove(e.seq);
      hidden.add(new Wake(until, e.seq));
    }

    /** Hides a held {@code e} until {@code until} instead (a change), or shows it if that is now. */
    void rehide(Entry e, Instant until, Instant now) {
      e.visibleAt = until;
      if (until.isAfter(now)) {
        hidden.add(new Wake(until, e.seq)); // the wake of the earlier hold is skipped as stale
      } else {
        visible.put(e.seq, e);
      }
    }

    /** Makes the entries whose visibility timeout ended by {@code now} visible again. */
    void reveal(Instant now) {
      Wake w;
      while ((w = hidden.peek()) != null && !w.at().isAfter(now)) {
        hidden.poll();
        Entry e = entries.get(w.seq());
        if (e != null && e.visibleAt.equals(w.at())) {
          visible.put(e.seq, e);
        }
      }
    }

    void remove(long seq) {
      entries.remove(seq);
      visible.remove(seq);
    }

    void clear() {
      inbox.clear();
      entries.clear();
      visible.clear();
      hidden.clear();
    }

    /** Drops the entries older than the retention. */
    void expire(Instant now, Duration retention) {
      if (oldestSent == null || now.isBefore(oldestSent.plus(retention))) {
        return;
      }
      Instant oldest = null;
      for (Iterator<Map.Entry<Long, Entry>> it = entries.entrySet().iterator(); it.hasNext(); ) {
        Entry e = it.next().getValue();
        if (!now.isBefore(e.sentAt.plus(retention))) {
          it.remove();
          visible.remove(e.seq);
        } else if (oldest == null || e.sentAt.isBefore(oldest)) {
          oldest = e.sentAt;
        }
      }
      oldestSent = oldest;
    }
  }

  /** The moment a hidden entry becomes visible again. */
  private record Wake(Instant at, long seq) {}

  /** What a receipt handle names: an entry, and which of its deliveries. */
  private record Delivery(long seq, long number) {}

  /** A message (or a ghost copy of one) in a queue; guarded by its queue's monitor. */
  private static final class Entry {
    final long seq;
    final String messageId;
    final byte[] payload;
    final Instant sentAt;
    final boolean ghost;
    Instant visibleAt;
    int deliveries;
    boolean hasGhost;

    /** When the latest delivery was received (null before the first). */
    @Nullable Instant receivedAt;

    /** For a ghost: whether a receive has returned it (a copy SQS has made). */
    boolean delivered;

    Entry(
        long seq,
        String messageId,
        byte[] payload,
        Instant sentAt,
        Instant visibleAt,
        int deliveries,
        boolean ghost) {
      this.seq = seq;
      this.messageId = messageId;
      this.payload = payload;
      this.sentAt = sentAt;
      this.visibleAt = visibleAt;
      this.deliveries = deliveries;
      this.ghost = ghost;
    }
  }
}
