package io.stratus.aws;

import io.stratus.cloudapi.BadRequestException;
import io.stratus.cloudapi.CloudException;
import io.stratus.cloudapi.CloudFutures;
import io.stratus.cloudapi.CloudLimits;
import io.stratus.cloudapi.ConflictException;
import io.stratus.cloudapi.ItemSummary;
import io.stratus.cloudapi.ListPage;
import io.stratus.cloudapi.NotFoundException;
import io.stratus.cloudapi.OutcomeUnknownException;
import io.stratus.cloudapi.PreconditionFailedException;
import io.stratus.cloudapi.QueueMessage;
import io.stratus.cloudapi.SimpleQueueService;
import io.stratus.cloudapi.StoredItem;
import io.stratus.cloudapi.SupportsConditionalPut;
import java.nio.charset.StandardCharsets;
import java.security.SecureRandom;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.regex.Pattern;
import org.jspecify.annotations.Nullable;

/**
 * {@link SimpleQueueService} on S3 objects (paper 000, section 6.3, second option): "every message
 * is written to S3 using the page URI, a timestamp and ClientId to guarantee a unique message id.
 * By doing a prefix scan per page URI, all messages can be retrieved."
 *
 * <p>It is written against {@link SupportsConditionalPut}, not against the S3 SDK, so that the
 * same code runs on S3 (an {@link S3Storage} whose key prefix is {@link
 * AwsConfig#s3QueueKeyPrefix()}) and, in tests, on the in-process storage under a manual clock.
 *
 * <p>Layout, for a queue whose {@link QueueNames name} is N:
 *
 * <ul>
 *   <li>{@code q/N}: the queue's marker; its payload is the queue URI. The queue exists while the
 *       marker does.
 *   <li>{@code m/N/<id>}: one message; the id is {@code <epoch millis, 13 digits>-<client id,
 *       8 hex>-<counter, 12 hex>}, so the keys of one client's messages sort in sending order and
 *       no two clients ever make the same id.
 *   <li>{@code l/N/<id>}: the message's lease, when it has been received: "v1 <delivery count>
 *       <invisible until, epoch millis> <token>".
 * </ul>
 *
 * <p><b>Visibility</b> is a lease taken by conditional put: a receiver creates the lease with
 * If-None-Match: * when there is none, or replaces an expired lease with If-Match on its version.
 * Of several receivers racing for a message exactly one wins, so a message is never handed out
 * twice while its lease runs. Lease times are on the receiving clients' clocks (S3 gives no "now"
 * to compare with); clocks that are off by d shift redelivery by d: early redelivery is a
 * duplicate, which the contract allows, and nothing is ever lost. The receipt handle is {@code
 * <id>/<token>}, fresh for each delivery. Deleting a message deletes the message object, then its
 * lease; a crash between the two leaves a lease without a message, which receivers ignore and
 * {@link #deleteQueue} removes.
 *
 * <p><b>Cost.</b> A receive lists the oldest {@link #PAGE} messages (up to {@link #MAX_PAGES} pages
 * when earlier ones are all leased) and the queue's leases (2 requests), then takes each message
 * with a conditional put and a get (2 requests; 1 more to read an existing lease). A send is one
 * put; a delete is two deletes (S3 deletes are free). Queue existence is checked once per client
 * and queue and then cached: a client that did not delete a queue itself may still send to it
 * until it restarts; such messages appear if the queue is created again.
 *
 * <p><b>Retention</b> is unbounded (S3 keeps objects until they are deleted), reported as 100 years.
 * Message size is limited by configuration only ({@link AwsConfig#s3QueueMaxMessageSize()}).
 */
final class S3Queues implements SimpleQueueService {
  /** Messages a receive lists per page. */
  static final int PAGE = 1000;

  /** Pages a receive looks at before it answers with what it has. */
  static final int MAX_PAGES = 3;

  /** What {@link #limits()} reports as retention: S3 keeps objects until they are deleted. */
  static final Duration RETENTION = Duration.ofDays(36_500);

  private static final Pattern ID = Pattern.compile("[0-9]{13}-[0-9a-f]{8}-[0-9a-f]{12}");
  private static final Pattern TOKEN = Pattern.compile("[0-9a-f]{16}");
  private static final SecureRandom RANDOM = new SecureRandom();

  private final SupportsConditionalPut storage;
  private final Clock clock;
  private final CloudLimits limits;
  private final QueueNames names = new QueueNames("");
  private final String clientId;
  private final AtomicLong counter = new AtomicLong();
  private final AtomicLong lastMillis = new AtomicLong();
  private final Set<String> knownQueues = ConcurrentHashMap.newKeySet();
  private final Map<String, String> uriByName = new ConcurrentHashMap<>();

  S3Queues(SupportsConditionalPut storage, Clock clock, int maxMessageSize) {
    this.storage = Objects.requireNonNull(storage, "storage");
    if (!storage.isStronglyConsistent()) {
      // Listing must show every sent message and conditions must see the latest lease.
      throw new IllegalArgumentException("S3 queues need strongly consistent storage");
    }
    this.clock = Objects.requireNonNull(clock, "clock");
    this.limits =
        CloudLimits.aws().toBuilder()
            .maxMessageSize(maxMessageSize)
            .messageRetention(RETENTION)
            .build();
    byte[] id = new byte[4];
    RANDOM.nextBytes(id);
    this.clientId = HexFormat.of().formatHex(id);
  }

  @Override
  public CloudLimits limits() {
    return limits;
  }

  // ---- queues ----

  @Override
  public CompletableFuture<Void> createQueue(String uri) {
    return AwsErrors.guard(
        "S3 queue create of " + uri,
        true,
        () -> {
          limits.checkUri(uri);
          String name = names.nameFor(uri);
          return storage
              .put(marker(name), uri.getBytes(StandardCharsets.UTF_8), Map.of())
              .thenAccept(
                  v -> {
                    knownQueues.add(uri);
                    uriByName.put(name, uri);
                  });
        });
  }

  @Override
  public CompletableFuture<Void> deleteQueue(String uri) {
    return AwsErrors.guard(
        "S3 queue delete of " + uri,
        true,
        () -> {
          limits.checkUri(uri);
          String name = names.nameFor(uri);
          knownQueues.remove(uri);
          // The marker first: from then on the queue is gone for everyone who checks.
          return storage
              .delete(marker(name))
              .thenCompose(v -> deleteAll(messages(name)))
              .thenCompose(v -> deleteAll(leases(name)));
        });
  }

  private CompletableFuture<Void> deleteAll(String prefix) {
    return storage
        .listAll(prefix)
        .thenCompose(
            items -> {
              List<CompletableFuture<Void>> deletes = new ArrayList<>();
              items.forEach(s -> deletes.add(storage.delete(s.uri())));
              return CompletableFuture.allOf(deletes.toArray(new CompletableFuture<?>[0]));
            });
  }

  @Override
  public CompletableFuture<List<String>> listQueues(String prefix) {
    return AwsErrors.guard(
        "S3 queue list of " + prefix,
        false,
        () -> {
          limits.checkPrefix(prefix);
          return storage
              .listAll(marker(names.namePrefixFor(prefix)))
              .thenCompose(
                  markers -> {
                    List<CompletableFuture<Optional<String>>> uris = new ArrayList<>();
                    for (ItemSummary s : markers) {
                      uris.add(uriOfMarker(s.uri().substring(2)));
                    }
                    return CompletableFuture.allOf(uris.toArray(new CompletableFuture<?>[0]))
                        .thenApply(
                            v -> {
                              List<String> out = new ArrayList<>();
                              uris.forEach(
                                  f ->
                                      f.join()
                                          .filter(u -> u.startsWith(prefix))
                                          .ifPresent(out::add));
                              out.sort(QueueNames.UTF8_ORDER);
                              return out;
                            });
                  });
        });
  }

  private CompletableFuture<Optional<String>> uriOfMarker(String name) {
    if (!names.isOurs(name)) {
      return CompletableFuture.completedFuture(Optional.empty());
    }
    String known = uriByName.get(name);
    Optional<String> readable = known != null ? Optional.of(known) : names.uriIfReadable(name);
    if (readable.isPresent()) {
      return CompletableFuture.completedFuture(readable);
    }
    return storage
        .get(marker(name))
        .thenApply(item -> item.map(i -> new String(i.payload(), StandardCharsets.UTF_8)));
  }

  /** Completes when the queue exists; fails with {@link NotFoundException} otherwise. */
  private CompletableFuture<String> existing(String uri) {
    String name = names.nameFor(uri);
    if (knownQueues.contains(uri)) {
      return CompletableFuture.completedFuture(name);
    }
    return storage
        .getMetadata(marker(name))
        .thenApply(
            m -> {
              if (m.isEmpty()) {
                throw new NotFoundException("there is no queue " + uri);
              }
              knownQueues.add(uri);
              uriByName.put(name, uri);
              return name;
            });
  }

  // ---- sending ----

  @Override
  public CompletableFuture<String> send(String uri, byte[] payload) {
    return AwsErrors.guard(
        "S3 queue send to " + uri,
        true,
        () -> {
          limits.checkUri(uri);
          limits.checkMessage(payload);
          byte[] copy = payload.clone();
          return existing(uri).thenCompose(name -> putMessage(name, copy));
        });
  }

  private CompletableFuture<String> putMessage(String name, byte[] payload) {
    String id = newId();
    return storage.put(messages(name) + id, payload, Map.of()).thenApply(v -> id);
  }

  /**
   * Puts every message at once. When some puts fail: the failure itself if none can have been
   * stored; otherwise {@link OutcomeUnknownException} naming how many were.
   */
  @Override
  public CompletableFuture<List<String>> sendBatch(String uri, List<byte[]> payloads) {
    String what = "S3 queue send batch to " + uri;
    return AwsErrors.guard(
        what,
        true,
        () -> {
          limits.checkUri(uri);
          limits.checkMessageBatch(payloads);
          List<byte[]> copies = new ArrayList<>();
          for (byte[] p : payloads) {
            copies.add(p.clone());
          }
          return existing(uri)
              .thenCompose(
                  name -> {
                    List<CompletableFuture<String>> puts = new ArrayList<>();
                    copies.forEach(p -> puts.add(putMessage(name, p)));
                    return CompletableFuture.allOf(puts.toArray(new CompletableFuture<?>[0]))
                        .handle((v, t) -> finishBatch(what, puts, t))
                        .thenCompose(x -> x);
                  });
        });
  }

  private static CompletableFuture<List<String>> finishBatch(
      String what, List<CompletableFuture<String>> puts, @Nullable Throwable failure) {
    List<String> ids = new ArrayList<>();
    if (failure == null) {
      puts.forEach(p -> ids.add(p.join()));
      return CompletableFuture.completedFuture(ids);
    }
    int stored = 0;
    boolean unknown = false;
    CloudException first = null;
    for (CompletableFuture<String> p : puts) {
      if (!p.isCompletedExceptionally()) {
        stored++;
        continue;
      }
      CloudException e = AwsErrors.map(p.handle((v, t) -> t).join(), what, true);
      first = first == null ? e : first;
      unknown |= e instanceof OutcomeUnknownException;
    }
    if (first == null) {
      // allOf failed, so a put did; this keeps the failure should none be found completed.
      first = AwsErrors.map(failure, what, true);
    }
    if (stored > 0 || unknown) {
      return CompletableFuture.failedFuture(
          new OutcomeUnknownException(
              what
                  + ": "
                  + stored
                  + " of "
                  + puts.size()
                  + " messages were stored, the rest failed: "
                  + first.getMessage(),
              first));
    }
    return CompletableFuture.failedFuture(first);
  }

  private String newId() {
    long now = lastMillis.accumulateAndGet(clock.millis(), Math::max);
    return String.format("%013d-%s-%012x", now, clientId, counter.getAndIncrement());
  }

  // ---- receiving ----

  @Override
  public CompletableFuture<List<QueueMessage>> receive(
      String uri, int maxMessages, Duration visibilityTimeout) {
    return AwsErrors.guard(
        "S3 queue receive from " + uri,
        true,
        () -> {
          limits.checkUri(uri);
          limits.checkBatch(maxMessages);
          limits.checkVisibilityTimeout(visibilityTimeout);
          return existing(uri)
              .thenCompose(
                  name ->
                      storage
                          .listAll(leases(name))
                          .thenCompose(
                              leased -> {
                                Set<String> leasedIds = ConcurrentHashMap.newKeySet();
                                leased.forEach(
                                    s -> leasedIds.add(s.uri().substring(leases(name).length())));
                                Receive r =
                                    new Receive(name, maxMessages, visibilityTimeout, leasedIds);
                                return r.fromPage(Optional.empty(), MAX_PAGES);
                              }));
        });
  }

  /** One receive: walks pages of messages and takes leases until it has enough. */
  private final class Receive {
    private final String name;
    private final int wanted;
    private final Duration visibility;
    private final Set<String> leasedIds;
    private final List<QueueMessage> got = new ArrayList<>();
    private @Nullable CloudException firstFailure;

    Receive(String name, int wanted, Duration visibility, Set<String> leasedIds) {
      this.name = name;
      this.wanted = wanted;
      this.visibility = visibility;
      this.leasedIds = leasedIds;
    }

    CompletableFuture<List<QueueMessage>> fromPage(Optional<String> token, int pagesLeft) {
      return storage
          .list(messages(name), token, PAGE)
          .thenCompose(
              page -> {
                // Messages nobody holds first, in id order; then the leased ones, which need a
                // read of their lease to see whether it has run out.
                List<String> free = new ArrayList<>();
                List<String> held = new ArrayList<>();
                for (ItemSummary s : page.items()) {
                  String id = s.uri().substring(messages(name).length());
                  (leasedIds.contains(id) ? held : free).add(id);
                }
                free.addAll(held);
                return inWaves(free, 0).thenCompose(v -> next(page, pagesLeft));
              });
    }

    private CompletableFuture<List<QueueMessage>> next(ListPage page, int pagesLeft) {
      if (got.size() < wanted && page.nextToken().isPresent() && pagesLeft > 1) {
        return fromPage(page.nextToken(), pagesLeft - 1);
      }
      if (got.isEmpty() && firstFailure != null) {
        return CompletableFuture.failedFuture(firstFailure);
      }
      got.sort((a, b) -> a.messageId().compareTo(b.messageId()));
      return CompletableFuture.completedFuture(List.copyOf(got));
    }

    /** Tries as many candidates at once as messages are still wanted, until done. */
    private CompletableFuture<Void> inWaves(List<String> candidates, int from) {
      int need = wanted - got.size();
      if (need <= 0 || from >= candidates.size()) {
        return CompletableFuture.completedFuture(null);
      }
      int to = Math.min(candidates.size(), from + need);
      List<CompletableFuture<Optional<QueueMessage>>> wave = new ArrayList<>();
      for (int i = from; i < to; i++) {
        String id = candidates.get(i);
        wave.add(take(id, leasedIds.contains(id)));
      }
      return CompletableFuture.allOf(wave.toArray(new CompletableFuture<?>[0]))
          .handle((v, t) -> null)
          .thenCompose(
              v -> {
                for (CompletableFuture<Optional<QueueMessage>> f : wave) {
                  if (f.isCompletedExceptionally()) {
                    Throwable t = f.handle((x, e) -> e).join();
                    firstFailure =
                        firstFailure != null
                            ? firstFailure
                            : AwsErrors.map(t, "S3 queue receive", true);
                  } else {
                    f.join().ifPresent(got::add);
                  }
                }
                return inWaves(candidates, to);
              });
    }

    /** Takes the message's lease and reads it; empty when someone else holds it or it is gone. */
    private CompletableFuture<Optional<QueueMessage>> take(String id, boolean leased) {
      String key = leases(name) + id;
      if (!leased) {
        Lease mine = newLease(1);
        return acquire(storage.putIfAbsent(key, mine.encode(), Map.of()), mine)
            .thenCompose(won -> won.isPresent() ? fetch(id, won.get()) : none());
      }
      return storage
          .get(key)
          .thenCompose(
              current -> {
                if (current.isEmpty()) {
                  return take(id, false); // released (its message was being deleted): try afresh
                }
                Lease l = Lease.parse(current.get());
                if (l.until > clock.millis()) {
                  return none();
                }
                Lease mine = newLease(l.deliveries + 1);
                return acquire(
                        storage.putIfVersionMatches(
                            key, mine.encode(), Map.of(), current.get().version()),
                        mine)
                    .thenCompose(won -> won.isPresent() ? fetch(id, won.get()) : none());
              });
    }

    private Lease newLease(int deliveries) {
      byte[] t = new byte[8];
      RANDOM.nextBytes(t);
      return new Lease(
          deliveries, clock.millis() + visibility.toMillis(), HexFormat.of().formatHex(t));
    }

    /** {@code mine} when the conditional put won, empty when another receiver won the race. */
    private CompletableFuture<Optional<Lease>> acquire(
        CompletableFuture<?> conditionalPut, Lease mine) {
      return conditionalPut.handle(
          (v, t) -> {
            if (t == null) {
              return Optional.of(mine);
            }
            Throwable c = CloudFutures.unwrap(t);
            if (c instanceof PreconditionFailedException || c instanceof ConflictException) {
              return Optional.empty();
            }
            throw AwsErrors.map(c, "S3 queue lease", true);
          });
    }

    private CompletableFuture<Optional<QueueMessage>> fetch(String id, Lease lease) {
      return storage
          .get(messages(name) + id)
          .thenCompose(
              m -> {
                if (m.isEmpty()) {
                  // Deleted while we took the lease: drop the lease we just made.
                  return storage.delete(leases(name) + id).handle((v, t) -> Optional.empty());
                }
                return CompletableFuture.completedFuture(
                    Optional.of(
                        new QueueMessage(
                            id, id + "/" + lease.token, m.get().payload(), lease.deliveries)));
              });
    }

    private CompletableFuture<Optional<QueueMessage>> none() {
      return CompletableFuture.completedFuture(Optional.empty());
    }
  }

  /** A lease's content. */
  private static final class Lease {
    final int deliveries;
    final long until;
    final String token;

    Lease(int deliveries, long until, String token) {
      this.deliveries = deliveries;
      this.until = until;
      this.token = token;
    }

    byte[] encode() {
      return ("v1 " + deliveries + " " + until + " " + token).getBytes(StandardCharsets.UTF_8);
    }

    /** A lease that cannot be read counts as run out, so that its message is not stuck. */
    static Lease parse(StoredItem item) {
      String[] f = new String(item.payload(), StandardCharsets.UTF_8).split(" ");
      try {
        if (f.length == 4 && f[0].equals("v1")) {
          return new Lease(Integer.parseInt(f[1]), Long.parseLong(f[2]), f[3]);
        }
      } catch (NumberFormatException e) {
        // fall through
      }
      return new Lease(1, 0, "0000000000000000");
    }
  }

  // ---- deleting ----

  @Override
  public CompletableFuture<Void> delete(String uri, String receiptHandle) {
    return deleteBatchChecked(
        "S3 queue delete from " + uri,
        uri,
        receiptHandle == null ? null : List.of(receiptHandle),
        false);
  }

  @Override
  public CompletableFuture<Void> deleteBatch(String uri, List<String> receiptHandles) {
    return deleteBatchChecked("S3 queue delete batch from " + uri, uri, receiptHandles, true);
  }

  private CompletableFuture<Void> deleteBatchChecked(
      String what, String uri, @Nullable List<String> handles, boolean batch) {
    return AwsErrors.guard(
        what,
        true,
        () -> {
          limits.checkUri(uri);
          if (handles == null) {
            throw new BadRequestException(
                batch ? "a batch must not be null" : "a receipt handle must not be null");
          }
          if (batch) {
            limits.checkBatch(handles.size());
          }
          List<String> ids = new ArrayList<>();
          handles.forEach(h -> ids.add(idOf(h)));
          return existing(uri)
              .thenCompose(
                  name -> {
                    List<CompletableFuture<Void>> messages = new ArrayList<>();
                    ids.forEach(id -> messages.add(storage.delete(messages(name) + id)));
                    // Messages first, then leases: a lease without a message is harmless.
                    return CompletableFuture.allOf(messages.toArray(new CompletableFuture<?>[0]))
                        .thenCompose(
                            v -> {
                              List<CompletableFuture<Void>> leases = new ArrayList<>();
                              ids.forEach(id -> leases.add(storage.delete(leases(name) + id)));
                              return CompletableFuture.allOf(
                                  leases.toArray(new CompletableFuture<?>[0]));
                            });
                  });
        });
  }

  /** The message id of a receipt handle; a malformed handle is a bad request. */
  private static String idOf(String handle) {
    int slash = handle == null ? -1 : handle.indexOf('/');
    if (slash < 0
        || !ID.matcher(handle.substring(0, slash)).matches()
        || !TOKEN.matcher(handle.substring(slash + 1)).matches()) {
      throw new BadRequestException("not a receipt handle of an S3 queue: " + handle);
    }
    return handle.substring(0, slash);
  }

  // ---- keys ----

  private static String marker(String name) {
    return "q/" + name;
  }

  private static String messages(String name) {
    return "m/" + name + "/";
  }

  private static String leases(String name) {
    return "l/" + name + "/";
  }

  @Override
  public String toString() {
    return "S3Queues{" + storage + ", client " + clientId + '}';
  }
}
