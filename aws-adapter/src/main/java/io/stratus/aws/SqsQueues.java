package io.stratus.aws;

import io.stratus.cloudapi.BadRequestException;
import io.stratus.cloudapi.CloudException;
import io.stratus.cloudapi.CloudFutures;
import io.stratus.cloudapi.CloudLimits;
import io.stratus.cloudapi.LimitExceededException;
import io.stratus.cloudapi.NotFoundException;
import io.stratus.cloudapi.OutcomeUnknownException;
import io.stratus.cloudapi.QueueBacklog;
import io.stratus.cloudapi.QueueMessage;
import io.stratus.cloudapi.RetryableException;
import io.stratus.cloudapi.SimpleQueueService;
import io.stratus.cloudapi.SupportsQueueInspection;
import io.stratus.cloudapi.SupportsVisibilityChange;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Base64;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import org.jspecify.annotations.Nullable;
import software.amazon.awssdk.awscore.exception.AwsServiceException;
import software.amazon.awssdk.services.sqs.SqsAsyncClient;
import software.amazon.awssdk.services.sqs.model.DeleteMessageBatchRequestEntry;
import software.amazon.awssdk.services.sqs.model.Message;
import software.amazon.awssdk.services.sqs.model.MessageSystemAttributeName;
import software.amazon.awssdk.services.sqs.model.QueueAttributeName;
import software.amazon.awssdk.services.sqs.model.QueueDoesNotExistException;
import software.amazon.awssdk.services.sqs.model.SendMessageBatchRequestEntry;

/**
 * {@link SimpleQueueService} on SQS standard queues (paper 000, section 6.3, first option).
 *
 * <p>Why it is built this way:
 *
 * <ul>
 *   <li><b>Names.</b> Queue URIs become SQS names through {@link QueueNames} (readable part plus a
 *       hash of the URI). The URI itself is kept in tags of the queue ("stratus-uri-0", ..., the
 *       Base64url of its UTF-8 bytes in chunks of 256 characters), so that {@link #listQueues}
 *       can return exact URIs; a URI that is its own readable part needs no tag look-up.
 *   <li><b>URLs</b> are looked up once per queue and cached with the queue's MaximumMessageSize;
 *       an answer that the queue does not exist drops the cache entry and is a {@link
 *       NotFoundException}, as the contract asks. Queues are created only by {@link #createQueue}.
 *   <li><b>Bodies</b> are text, so payloads are sent as Base64: a queue whose MaximumMessageSize is
 *       M bytes carries payloads of at most 3 × ⌊M/4⌋ bytes (786,432 for 1 MiB), which is what
 *       {@link #limits()} reports (for the size this adapter creates queues with) and what each
 *       send is checked against (for the size read from the queue).
 *   <li><b>Batches.</b> A batch is cut into requests of at most 10 entries and at most M bytes of
 *       bodies (SQS's limit on a whole request). Entries that fail for a server-side reason are
 *       sent again, up to {@link #ENTRY_RETRIES} times with back-off; what still fails is reported
 *       (see {@link #sendBatch}).
 *   <li><b>Retention.</b> SQS deletes a message when it is older than the queue's
 *       MessageRetentionPeriod: 4 days by default, 14 at most. Queues are created with {@link
 *       AwsConfig#messageRetention()} (14 days unless configured), and {@link #limits()} reports
 *       it. The commit protocols must apply every record well within it: checkpoint every page
 *       with pending updates, and alarm on any message older than half the retention.
 *   <li><b>Re-creation.</b> Real SQS refuses to create a queue for 60 s after deleting one of the
 *       same name; that is a {@link io.stratus.cloudapi.ServiceUnavailableException} with a
 *       retry-after of 60 s.
 *   <li><b>Inspection</b> ({@link #inspect}) is two requests: GetQueueAttributes for the counts
 *       (ApproximateNumberOfMessages, ApproximateNumberOfMessagesNotVisible) and the queue's own
 *       MessageRetentionPeriod, and a ReceiveMessage of {@value #INSPECT_SAMPLE} messages with a
 *       visibility timeout of 0 and no wait, asking for their SentTimestamp. SQS has no
 *       oldest-message age among its queue attributes (ApproximateAgeOfOldestMessage is a
 *       CloudWatch metric only), so the oldest send time is the oldest of that sample: a lower
 *       bound of the true age, exact for a queue of at most {@value #INSPECT_SAMPLE} visible
 *       messages. A visibility timeout of 0 hides nothing, but SQS counts the look as a receive
 *       (ApproximateReceiveCount grows by one per inspection).
 *   <li><b>Visibility changes</b> ({@link #changeVisibility}) are ChangeMessageVisibility and
 *       ChangeMessageVisibilityBatch, with SQS's refusals for gone or no longer held messages
 *       taken as the success the contract promises ({@link SqsVisibility}). SQS applies a
 *       superseded handle to the message's later delivery when it still holds it, which the
 *       contract allows.
 * </ul>
 */
final class SqsQueues implements SupportsQueueInspection, SupportsVisibilityChange {
  /** Rounds of re-sending the entries of a batch that failed for a server-side reason. */
  static final int ENTRY_RETRIES = 3;

  /** Messages an inspection samples for their send times: the most one receive returns. */
  static final int INSPECT_SAMPLE = 10;

  /** Entry errors that are the request's fault: sending them again fails again. */
  private static final Set<String> SENDER_CODES =
      Set.of(
          "ReceiptHandleIsInvalid",
          "InvalidParameterValue",
          "InvalidParameterValueException",
          "InvalidMessageContents",
          "MessageTooLong",
          "InvalidBatchEntryId",
          "InvalidIdFormat",
          "UnsupportedOperation",
          "KmsAccessDenied",
          "KmsDisabled",
          "KmsInvalidKeyUsage",
          "KmsInvalidState",
          "KmsNotFound");

  private final SqsAsyncClient sqs;
  private final QueueNames names;
  private final CloudLimits limits;
  private final int createMaximumMessageSize;
  private final long retentionSeconds;
  private final int receiveWaitSeconds;
  private final Map<String, QueueInfo> queues = new ConcurrentHashMap<>();
  private final Map<String, String> uriByName = new ConcurrentHashMap<>();

  /** A queue's URL and the largest payload its MaximumMessageSize allows. */
  private record QueueInfo(String url, int maxPayload) {}

  SqsQueues(SqsAsyncClient sqs, AwsConfig config) {
    this.sqs = Objects.requireNonNull(sqs, "sqs");
    this.names = new QueueNames(config.queueNamePrefix());
    this.createMaximumMessageSize = config.sqsMaximumMessageSize();
    this.retentionSeconds = config.messageRetention().toSeconds();
    this.receiveWaitSeconds = (int) config.receiveWait().toSeconds();
    this.limits =
        CloudLimits.aws().toBuilder()
            .maxMessageSize(maxPayloadFor(createMaximumMessageSize))
            .messageRetention(config.messageRetention())
            .build();
  }

  /** The largest payload whose Base64 fits in {@code maximumMessageSize} characters. */
  static int maxPayloadFor(int maximumMessageSize) {
    return 3 * (maximumMessageSize / 4);
  }

  @Override
  public CloudLimits limits() {
    return limits;
  }

  // ---- queues ----

  @Override
  public CompletableFuture<Void> createQueue(String uri) {
    String what = "SQS create of queue " + uri;
    return AwsErrors.guard(
        what,
        true,
        () -> {
          limits.checkUri(uri);
          String name = names.nameFor(uri);
          Map<QueueAttributeName, String> attributes =
              Map.of(
                  QueueAttributeName.MESSAGE_RETENTION_PERIOD,
                  Long.toString(retentionSeconds),
                  QueueAttributeName.MAXIMUM_MESSAGE_SIZE,
                  Integer.toString(createMaximumMessageSize));
          CompletableFuture<QueueInfo> created =
              sqs.createQueue(
                      b -> b.queueName(name).attributes(attributes).tags(QueueNames.uriTags(uri)))
                  .thenApply(
                      r -> new QueueInfo(r.queueUrl(), maxPayloadFor(createMaximumMessageSize)));
          // The queue exists with other attributes (made with another configuration): use it.
          CompletableFuture<Optional<QueueInfo>> maybe = created.thenApply(Optional::of);
          return AwsErrors.recover(
                  maybe,
                  what,
                  true,
                  (t, e) ->
                      isQueueNameExists(AwsErrors.errorCode(e))
                          ? Optional.<QueueInfo>empty()
                          : null)
              .thenCompose(
                  info ->
                      info.isPresent()
                          ? CompletableFuture.completedFuture(info.get())
                          : lookUp(uri))
              .thenAccept(
                  info -> {
                    queues.put(uri, info);
                    uriByName.put(name, uri);
                  });
        });
  }

  @Override
  public CompletableFuture<Void> deleteQueue(String uri) {
    String what = "SQS delete of queue " + uri;
    return AwsErrors.guard(
        what,
        true,
        () -> {
          limits.checkUri(uri);
          queues.remove(uri);
          CompletableFuture<Boolean> f =
              sqs.getQueueUrl(b -> b.queueName(names.nameFor(uri)))
                  .thenCompose(r -> sqs.deleteQueue(b -> b.queueUrl(r.queueUrl())))
                  .thenApply(r -> Boolean.TRUE);
          // Already gone: deleting is idempotent.
          return AwsErrors.recover(
                  f, what, true, (t, e) -> isMissingQueue(e) ? Boolean.FALSE : null)
              .whenComplete((v, t) -> queues.remove(uri))
              .thenApply(existed -> (Void) null);
        });
  }

  @Override
  public CompletableFuture<List<String>> listQueues(String prefix) {
    String what = "SQS list of queues " + prefix;
    return AwsErrors.guard(
        what,
        false,
        () -> {
          limits.checkPrefix(prefix);
          List<String> urls = new ArrayList<>();
          return listUrls(names.namePrefixFor(prefix), null, urls)
              .thenCompose(v -> urisOf(urls))
              .thenApply(
                  uris -> {
                    List<String> out = new ArrayList<>();
                    for (String u : uris) {
                      if (u.startsWith(prefix)) {
                        out.add(u);
                      }
                    }
                    out.sort(QueueNames.UTF8_ORDER);
                    return out;
                  });
        });
  }

  private CompletableFuture<Void> listUrls(
      String namePrefix, @Nullable String token, List<String> into) {
    return sqs.listQueues(b -> b.queueNamePrefix(namePrefix).maxResults(1000).nextToken(token))
        .thenCompose(
            r -> {
              into.addAll(r.queueUrls());
              return r.nextToken() == null || r.nextToken().isEmpty()
                  ? CompletableFuture.completedFuture(null)
                  : listUrls(namePrefix, r.nextToken(), into);
            });
  }

  /** The URIs of the queues at {@code urls} that this mapping made; others are left out. */
  private CompletableFuture<List<String>> urisOf(List<String> urls) {
    List<CompletableFuture<Optional<String>>> lookups = new ArrayList<>();
    for (String url : urls) {
      String name = url.substring(url.lastIndexOf('/') + 1);
      if (!names.isOurs(name)) {
        continue;
      }
      String known = uriByName.get(name);
      Optional<String> readable = known != null ? Optional.of(known) : names.uriIfReadable(name);
      if (readable.isPresent()) {
        lookups.add(CompletableFuture.completedFuture(readable));
      } else {
        lookups.add(
            AwsErrors.recover(
                sqs.listQueueTags(b -> b.queueUrl(url))
                    .thenApply(r -> QueueNames.uriFromTags(r.tags())),
                "SQS tags of " + name,
                false,
                (t, e) -> isMissingQueue(e) ? Optional.empty() : null));
      }
    }
    return CompletableFuture.allOf(lookups.toArray(new CompletableFuture<?>[0]))
        .thenApply(
            v -> {
              List<String> uris = new ArrayList<>();
              lookups.forEach(f -> f.join().ifPresent(uris::add));
              return uris;
            });
  }

  /** The queue's URL and size limit, cached; a missing queue fails with NotFoundException. */
  private CompletableFuture<QueueInfo> resolve(String uri) {
    QueueInfo cached = queues.get(uri);
    if (cached != null) {
      return CompletableFuture.completedFuture(cached);
    }
    return lookUp(uri)
        .thenApply(
            info -> {
              queues.put(uri, info);
              uriByName.put(names.nameFor(uri), uri);
              return info;
            });
  }

  private CompletableFuture<QueueInfo> lookUp(String uri) {
    return sqs.getQueueUrl(b -> b.queueName(names.nameFor(uri)))
        .thenCompose(
            r ->
                sqs.getQueueAttributes(
                        b ->
                            b.queueUrl(r.queueUrl())
                                .attributeNames(QueueAttributeName.MAXIMUM_MESSAGE_SIZE))
                    .thenApply(
                        a -> {
                          String size = a.attributes().get(QueueAttributeName.MAXIMUM_MESSAGE_SIZE);
                          int max =
                              size == null ? createMaximumMessageSize : Integer.parseInt(size);
                          return new QueueInfo(r.queueUrl(), maxPayloadFor(max));
                        }));
  }

  /** Runs {@code call} on the resolved queue; a missing queue drops the cached URL. */
  private <T> CompletableFuture<T> onQueue(
      String what, boolean mutating, String uri, Function<QueueInfo, CompletableFuture<T>> call) {
    return AwsErrors.guard(what, mutating, () -> resolve(uri).thenCompose(call))
        .whenComplete(
            (v, t) -> {
              if (t != null && CloudFutures.unwrap(t) instanceof NotFoundException) {
                queues.remove(uri);
              }
            });
  }

  // ---- messages ----

  @Override
  public CompletableFuture<String> send(String uri, byte[] payload) {
    return AwsErrors.guard(
        "SQS send to " + uri,
        true,
        () -> {
          limits.checkUri(uri);
          limits.checkMessage(payload);
          String body = Base64.getEncoder().encodeToString(payload);
          return onQueue(
              "SQS send to " + uri,
              true,
              uri,
              q -> {
                checkFits(q, payload.length);
                return sqs.sendMessage(b -> b.queueUrl(q.url()).messageBody(body))
                    .thenApply(r -> r.messageId());
              });
        });
  }

  /**
   * Sends the payloads in as few requests as the limits allow. When some entries still fail after
   * {@link #ENTRY_RETRIES} rounds: {@link BadRequestException} if nothing was sent and every
   * failure was the request's fault, {@link RetryableException} if nothing was sent otherwise,
   * and {@link OutcomeUnknownException} (naming how many were sent) when some were.
   */
  @Override
  public CompletableFuture<List<String>> sendBatch(String uri, List<byte[]> payloads) {
    String what = "SQS send batch to " + uri;
    return AwsErrors.guard(
        what,
        true,
        () -> {
          limits.checkUri(uri);
          limits.checkMessageBatch(payloads);
          List<String> bodies = new ArrayList<>();
          for (byte[] p : payloads) {
            bodies.add(Base64.getEncoder().encodeToString(p));
          }
          return onQueue(
              what,
              true,
              uri,
              q -> {
                for (byte[] p : payloads) {
                  checkFits(q, p.length);
                }
                String[] ids = new String[bodies.size()];
                List<CompletableFuture<Void>> requests = new ArrayList<>();
                int maxRequestBytes = q.maxPayload() / 3 * 4;
                int from = 0;
                while (from < bodies.size()) {
                  int to = from;
                  long bytes = 0;
                  while (to < bodies.size()
                      && to - from < limits.maxBatchSize()
                      && (to == from || bytes + bodies.get(to).length() <= maxRequestBytes)) {
                    bytes += bodies.get(to).length();
                    to++;
                  }
                  Map<String, Integer> entries = new HashMap<>();
                  for (int i = from; i < to; i++) {
                    entries.put(Integer.toString(i), i);
                  }
                  requests.add(sendEntries(q, bodies, entries, ids, 0));
                  from = to;
                }
                return CompletableFuture.allOf(requests.toArray(new CompletableFuture<?>[0]))
                    .handle((v, t) -> finishBatch(what, ids, t))
                    .thenCompose(x -> x);
              });
        });
  }

  private CompletableFuture<Void> sendEntries(
      QueueInfo q, List<String> bodies, Map<String, Integer> entries, String[] ids, int round) {
    List<SendMessageBatchRequestEntry> request = new ArrayList<>();
    entries.forEach(
        (id, i) ->
            request.add(
                SendMessageBatchRequestEntry.builder().id(id).messageBody(bodies.get(i)).build()));
    return sqs.sendMessageBatch(b -> b.queueUrl(q.url()).entries(request))
        .thenCompose(
            r -> {
              r.successful()
                  .forEach(
                      s -> {
                        // SQS answers with the entry ids of the request.
                        Integer i = entries.get(s.id());
                        if (i != null) {
                          ids[i] = s.messageId();
                        }
                      });
              Map<String, Integer> again = new HashMap<>();
              List<String> permanent = new ArrayList<>();
              r.failed()
                  .forEach(
                      f -> {
                        if (isRetryableEntry(f.senderFault(), f.code()) && round < ENTRY_RETRIES) {
                          again.put(f.id(), entries.get(f.id()));
                        } else {
                          permanent.add("entry " + f.id() + ": " + f.code() + " " + f.message());
                        }
                      });
              CompletableFuture<Void> retried =
                  again.isEmpty()
                      ? CompletableFuture.completedFuture(null)
                      : afterBackOff(round)
                          .thenCompose(v -> sendEntries(q, bodies, again, ids, round + 1));
              return retried.thenApply(
                  v -> {
                    if (!permanent.isEmpty()) {
                      throw new BadRequestException(String.join("; ", permanent));
                    }
                    return null;
                  });
            });
  }

  private static CompletableFuture<List<String>> finishBatch(
      String what, String[] ids, Throwable failure) {
    if (failure == null) {
      return CompletableFuture.completedFuture(List.of(ids));
    }
    int sent = 0;
    for (String id : ids) {
      if (id != null) {
        sent++;
      }
    }
    CloudException e = AwsErrors.map(failure, what, true);
    if (sent > 0) {
      return CompletableFuture.failedFuture(
          new OutcomeUnknownException(
              what
                  + ": "
                  + sent
                  + " of "
                  + ids.length
                  + " messages were sent, the rest failed: "
                  + e.getMessage(),
              e));
    }
    return CompletableFuture.failedFuture(e);
  }

  @Override
  public CompletableFuture<List<QueueMessage>> receive(
      String uri, int maxMessages, Duration visibilityTimeout) {
    String what = "SQS receive from " + uri;
    return AwsErrors.guard(
        what,
        true,
        () -> {
          limits.checkUri(uri);
          limits.checkBatch(maxMessages);
          limits.checkVisibilityTimeout(visibilityTimeout);
          // SQS takes whole seconds; rounding up hides a message a little longer, never shorter.
          long ms = visibilityTimeout.toMillis();
          int seconds = (int) ((ms + 999) / 1000);
          return onQueue(
              what,
              true,
              uri,
              q ->
                  sqs.receiveMessage(
                          b ->
                              b.queueUrl(q.url())
                                  .maxNumberOfMessages(maxMessages)
                                  .visibilityTimeout(seconds)
                                  .waitTimeSeconds(receiveWaitSeconds)
                                  .messageSystemAttributeNames(
                                      MessageSystemAttributeName.APPROXIMATE_RECEIVE_COUNT))
                      .thenApply(
                          r -> {
                            List<QueueMessage> out = new ArrayList<>();
                            for (Message m : r.messages()) {
                              out.add(toQueueMessage(m));
                            }
                            return out;
                          }));
        });
  }

  static QueueMessage toQueueMessage(Message m) {
    byte[] payload;
    try {
      payload = Base64.getDecoder().decode(m.body());
    } catch (IllegalArgumentException e) {
      payload = m.body().getBytes(StandardCharsets.UTF_8); // not sent by Stratus: raw text
    }
    String count = m.attributes().get(MessageSystemAttributeName.APPROXIMATE_RECEIVE_COUNT);
    int deliveries = 1;
    if (count != null) {
      try {
        deliveries = Math.max(1, Integer.parseInt(count));
      } catch (NumberFormatException e) {
        deliveries = 1;
      }
    }
    return new QueueMessage(m.messageId(), m.receiptHandle(), payload, deliveries);
  }

  @Override
  public CompletableFuture<Void> delete(String uri, String receiptHandle) {
    String what = "SQS delete from " + uri;
    return AwsErrors.guard(
        what,
        true,
        () -> {
          limits.checkUri(uri);
          checkHandle(receiptHandle);
          return onQueue(
              what,
              true,
              uri,
              q ->
                  sqs.deleteMessage(b -> b.queueUrl(q.url()).receiptHandle(receiptHandle))
                      .thenApply(r -> null));
        });
  }

  /**
   * Deletes in one request; entries that fail for a server-side reason are deleted again. A
   * handle SQS rejects fails the call with {@link BadRequestException} after the other handles'
   * messages were deleted (deleting is idempotent, so the caller may repeat the valid ones).
   */
  @Override
  public CompletableFuture<Void> deleteBatch(String uri, List<String> receiptHandles) {
    String what = "SQS delete batch from " + uri;
    return AwsErrors.guard(
        what,
        true,
        () -> {
          limits.checkUri(uri);
          limits.checkBatch(receiptHandles);
          receiptHandles.forEach(SqsQueues::checkHandle);
          Map<String, String> entries = new HashMap<>();
          for (int i = 0; i < receiptHandles.size(); i++) {
            entries.put(Integer.toString(i), receiptHandles.get(i));
          }
          return onQueue(what, true, uri, q -> deleteEntries(q, entries, 0));
        });
  }

  private CompletableFuture<Void> deleteEntries(
      QueueInfo q, Map<String, String> entries, int round) {
    List<DeleteMessageBatchRequestEntry> request = new ArrayList<>();
    entries.forEach(
        (id, h) ->
            request.add(DeleteMessageBatchRequestEntry.builder().id(id).receiptHandle(h).build()));
    return sqs.deleteMessageBatch(b -> b.queueUrl(q.url()).entries(request))
        .thenCompose(
            r -> {
              Map<String, String> again = new HashMap<>();
              List<String> permanent = new ArrayList<>();
              boolean serverSide = false;
              for (var f : r.failed()) {
                if (isRetryableEntry(f.senderFault(), f.code())) {
                  if (round < ENTRY_RETRIES) {
                    again.put(f.id(), entries.get(f.id()));
                    continue;
                  }
                  serverSide = true;
                }
                permanent.add("entry " + f.id() + ": " + f.code() + " " + f.message());
              }
              if (!permanent.isEmpty()) {
                String msg = "SQS delete batch: " + String.join("; ", permanent);
                throw serverSide ? new RetryableException(msg) : new BadRequestException(msg);
              }
              return again.isEmpty()
                  ? CompletableFuture.completedFuture(null)
                  : afterBackOff(round).thenCompose(v -> deleteEntries(q, again, round + 1));
            });
  }

  @Override
  public CompletableFuture<Void> changeVisibility(
      String uri, String receiptHandle, Duration visibilityTimeout) {
    String what = "SQS change of visibility in " + uri;
    return AwsErrors.guard(
        what,
        true,
        () -> {
          limits.checkUri(uri);
          checkHandle(receiptHandle);
          limits.checkVisibilityTimeout(visibilityTimeout);
          return onQueue(
              what,
              true,
              uri,
              q -> SqsVisibility.change(sqs, q.url(), receiptHandle, visibilityTimeout));
        });
  }

  @Override
  public CompletableFuture<Void> changeVisibilityBatch(
      String uri, List<String> receiptHandles, Duration visibilityTimeout) {
    String what = "SQS change of visibility batch in " + uri;
    return AwsErrors.guard(
        what,
        true,
        () -> {
          limits.checkUri(uri);
          limits.checkBatch(receiptHandles);
          receiptHandles.forEach(SqsQueues::checkHandle);
          limits.checkVisibilityTimeout(visibilityTimeout);
          return onQueue(
              what,
              true,
              uri,
              q -> SqsVisibility.changeBatch(sqs, q.url(), receiptHandles, visibilityTimeout));
        });
  }

  @Override
  public CompletableFuture<QueueBacklog> inspect(String uri, int maxPeeked) {
    String what = "SQS inspection of " + uri;
    return AwsErrors.guard(
        what,
        false,
        () -> {
          limits.checkUri(uri);
          if (maxPeeked < 0 || maxPeeked > limits.maxBatchSize()) {
            throw new BadRequestException(
                "maxPeeked must be 0 to " + limits.maxBatchSize() + ", got " + maxPeeked);
          }
          return onQueue(
              what,
              false,
              uri,
              q ->
                  sqs.getQueueAttributes(
                          b ->
                              b.queueUrl(q.url())
                                  .attributeNames(
                                      QueueAttributeName.APPROXIMATE_NUMBER_OF_MESSAGES,
                                      QueueAttributeName.APPROXIMATE_NUMBER_OF_MESSAGES_NOT_VISIBLE,
                                      QueueAttributeName.MESSAGE_RETENTION_PERIOD))
                      .thenCompose(
                          a ->
                              sqs.receiveMessage(
                                      b ->
                                          b.queueUrl(q.url())
                                              .maxNumberOfMessages(INSPECT_SAMPLE)
                                              .visibilityTimeout(0)
                                              .waitTimeSeconds(0)
                                              .messageSystemAttributeNames(
                                                  MessageSystemAttributeName.SENT_TIMESTAMP,
                                                  MessageSystemAttributeName
                                                      .APPROXIMATE_RECEIVE_COUNT))
                                  .thenApply(
                                      r -> backlog(uri, a.attributes(), r.messages(), maxPeeked))));
        });
  }

  private QueueBacklog backlog(
      String uri, Map<QueueAttributeName, String> attributes, List<Message> sample, int maxPeeked) {
    long visible = longAttribute(attributes, QueueAttributeName.APPROXIMATE_NUMBER_OF_MESSAGES, 0);
    long inFlight =
        longAttribute(attributes, QueueAttributeName.APPROXIMATE_NUMBER_OF_MESSAGES_NOT_VISIBLE, 0);
    long retention =
        longAttribute(
            attributes,
            QueueAttributeName.MESSAGE_RETENTION_PERIOD,
            limits.messageRetention().toSeconds());
    Instant oldest = null;
    List<QueueBacklog.PeekedMessage> peeked = new ArrayList<>();
    for (Message m : sample) {
      String sent = m.attributes().get(MessageSystemAttributeName.SENT_TIMESTAMP);
      Instant at;
      try {
        at = sent == null ? null : Instant.ofEpochMilli(Long.parseLong(sent));
      } catch (NumberFormatException e) {
        at = null;
      }
      if (at == null) {
        continue;
      }
      if (oldest == null || at.isBefore(oldest)) {
        oldest = at;
      }
      if (peeked.size() < maxPeeked) {
        QueueMessage qm = toQueueMessage(m);
        // The receive that looked counts as one: the deliveries before it are one fewer.
        peeked.add(
            new QueueBacklog.PeekedMessage(
                qm.messageId(), at, Math.max(0, qm.deliveryCount() - 1), qm.payload()));
      }
    }
    // The counts lag; a sample proves at least that many messages are there.
    visible = Math.max(visible, sample.size());
    return new QueueBacklog(
        uri, visible, inFlight, Optional.ofNullable(oldest), Duration.ofSeconds(retention), peeked);
  }

  private static long longAttribute(
      Map<QueueAttributeName, String> attributes, QueueAttributeName name, long otherwise) {
    String v = attributes.get(name);
    if (v == null) {
      return otherwise;
    }
    try {
      return Math.max(0, Long.parseLong(v.trim()));
    } catch (NumberFormatException e) {
      return otherwise;
    }
  }

  // ---- helpers ----

  private void checkFits(QueueInfo q, int payloadLength) {
    if (payloadLength > q.maxPayload()) {
      throw new LimitExceededException(
          "message size for this queue", payloadLength, q.maxPayload());
    }
  }

  private static void checkHandle(String receiptHandle) {
    if (receiptHandle == null || receiptHandle.isEmpty()) {
      throw new BadRequestException("a receipt handle must not be null or empty");
    }
  }

  static boolean isRetryableEntry(Boolean senderFault, String code) {
    return !Boolean.TRUE.equals(senderFault) && !SENDER_CODES.contains(code);
  }

  private static CompletableFuture<Void> afterBackOff(int round) {
    long ms = 50L << round;
    return CompletableFuture.runAsync(
        () -> {}, CompletableFuture.delayedExecutor(ms, TimeUnit.MILLISECONDS));
  }

  private static boolean isQueueNameExists(String code) {
    return "QueueAlreadyExists".equals(code) || "QueueNameExists".equals(code);
  }

  private static boolean isMissingQueue(AwsServiceException e) {
    String code = AwsErrors.errorCode(e);
    return e instanceof QueueDoesNotExistException
        || "AWS.SimpleQueueService.NonExistentQueue".equals(code)
        || "QueueDoesNotExist".equals(code);
  }

  @Override
  public String toString() {
    return "SqsQueues{" + limits + '}';
  }
}
