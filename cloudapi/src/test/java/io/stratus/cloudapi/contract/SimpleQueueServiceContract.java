package io.stratus.cloudapi.contract;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.stratus.cloudapi.BadRequestException;
import io.stratus.cloudapi.CloudException;
import io.stratus.cloudapi.CloudLimits;
import io.stratus.cloudapi.LimitExceededException;
import io.stratus.cloudapi.NotFoundException;
import io.stratus.cloudapi.QueueMessage;
import io.stratus.cloudapi.SimpleQueueService;
import io.stratus.cloudapi.SupportsVisibilityChange;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.SplittableRandom;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The contract of {@link SimpleQueueService}, run against every implementation: the in-process
 * queues (reliable and weak) here, SQS (on LocalStack) in the AWS adapter, through the test-jar.
 *
 * <p>Why it is written the way it is: simple queues promise little (paper 000, section 2.3.3): no
 * order, no complete receives, at-least-once delivery. So the suite never infers "empty" from one
 * receive: {@link #drain} receives until every expected message has been seen, within a bounded
 * number of attempts, and tolerates repeats unless the subclass declares that the service does not
 * duplicate. What a stronger service adds is declared with the flags {@link #deliversInOrder()},
 * {@link #receivesAreComplete()} and {@link #mayDuplicate()}, and only then checked. Time moves
 * only through {@link #elapse} (a manual clock in-process, a real wait on a real service). Queue
 * URIs are unique per test ({@link #uri}) and use only characters SQS accepts in queue names. The
 * shared hooks and helpers are in {@link ContractSupport}.
 *
 * <p>Visibility changes ({@link SupportsVisibilityChange}) are checked when the service has the
 * ability ({@link #supportsVisibilityChange()}): a message handed back is receivable at once, a
 * changed timeout counts from the call, the handle of a deleted message or a superseded one
 * changes nothing that matters and fails nothing, and the limits.
 */
public abstract class SimpleQueueServiceContract extends ContractSupport {
  /** Receives a drain may spend before it gives up on an expected message. */
  protected static final int DRAIN_ATTEMPTS = 500;

  /** Hides what a drain received for longer than any test runs, so it is not seen twice. */
  protected static final Duration LONG_VISIBILITY = Duration.ofMinutes(10);

  /** The short visibility timeout of the redelivery tests. */
  protected static final Duration SHORT_VISIBILITY = Duration.ofSeconds(2);

  /** Largest message the suite allocates to exceed {@link CloudLimits#maxMessageSize()}. */
  private static final int MAX_PROBED_MESSAGE_SIZE = 16 * 1024 * 1024;

  protected SimpleQueueService queues;

  /** A fresh, isolated service (or one whose queue URIs {@link #uri} keeps apart). */
  protected abstract SimpleQueueService newQueues(long seed);

  /** Whether receives return messages in the order they were sent. */
  protected boolean deliversInOrder() {
    return false;
  }

  /** Whether a receive of N returns min(N, visible messages). */
  protected boolean receivesAreComplete() {
    return false;
  }

  /** Whether a message may be delivered again after it was deleted. */
  protected boolean mayDuplicate() {
    return true;
  }

  /** Whether the visibility-change tests apply to {@link #queues}. */
  protected boolean supportsVisibilityChange() {
    return queues instanceof SupportsVisibilityChange;
  }

  /**
   * Queue URIs unique to this test, short enough for SQS queue names (80 characters) however long
   * the test's name.
   */
  @Override
  protected String newPrefix() {
    return "ct-" + Long.toHexString(new SplittableRandom(seed).nextLong()) + "-";
  }

  @BeforeEach
  void createQueues() {
    this.queues = newQueues(seed);
  }

  /** Best-effort cleanup, for real services shared between runs. */
  @AfterEach
  void removeQueues() {
    try {
      for (String q : await(queues.listQueues(uri("")))) {
        await(queues.deleteQueue(q));
      }
    } catch (CloudException e) {
      // Leftovers under a unique prefix harm no other test.
    }
  }

  /** Creates a queue under this test's prefix and returns its URI. */
  protected String newQueue(String name) {
    String q = uri(name);
    await(queues.createQueue(q));
    return q;
  }

  // ---- queues ----

  @Test
  void createIsIdempotentAndListsInAscendingOrder() {
    String b = newQueue("b");
    String a = newQueue("a");
    String c = newQueue("c");
    await(queues.createQueue(a));
    assertThat(await(queues.listQueues(uri("")))).containsExactly(a, b, c);
    assertThat(await(queues.listQueues(uri("b")))).containsExactly(b);
    assertThat(await(queues.listQueues(uri("zz")))).isEmpty();
  }

  @Test
  void deleteQueueIsIdempotentAndRemovesIt() {
    String q = newQueue("q");
    await(queues.send(q, bytes("m")));
    await(queues.deleteQueue(q));
    await(queues.deleteQueue(q));
    assertThat(await(queues.listQueues(uri("")))).doesNotContain(q);
    assertThatThrownBy(() -> await(queues.send(q, bytes("m"))))
        .isInstanceOf(NotFoundException.class);
  }

  @Test
  void callsOnAMissingQueueFailWithNotFound() {
    String q = uri("missing");
    assertThatThrownBy(() -> await(queues.send(q, bytes("m"))))
        .isInstanceOf(NotFoundException.class);
    assertThatThrownBy(() -> await(queues.sendBatch(q, List.of(bytes("m")))))
        .isInstanceOf(NotFoundException.class);
    assertThatThrownBy(() -> await(queues.receive(q, 1, LONG_VISIBILITY)))
        .isInstanceOf(NotFoundException.class);
  }

  @Test
  void handlesOfAMissingQueueFailWithNotFound() {
    String q = newQueue("q");
    await(queues.send(q, bytes("m")));
    QueueMessage m = drain(q, 1).values().iterator().next();
    await(queues.deleteQueue(q));
    assertThatThrownBy(() -> await(queues.delete(q, m.receiptHandle())))
        .isInstanceOf(NotFoundException.class);
    assertThatThrownBy(() -> await(queues.deleteBatch(q, List.of(m.receiptHandle()))))
        .isInstanceOf(NotFoundException.class);
    if (supportsVisibilityChange()) {
      SupportsVisibilityChange v = SupportsVisibilityChange.of(queues);
      assertFails(
          () -> v.changeVisibility(q, m.receiptHandle(), Duration.ZERO), NotFoundException.class);
      assertFails(
          () -> v.changeVisibilityBatch(q, List.of(m.receiptHandle()), Duration.ZERO),
          NotFoundException.class);
    }
  }

  @Test
  void malformedQueueUrisAreBadRequests() {
    assertThatThrownBy(() -> await(queues.createQueue(null)))
        .isInstanceOf(BadRequestException.class);
    assertThatThrownBy(() -> await(queues.createQueue(""))).isInstanceOf(BadRequestException.class);
    assertThatThrownBy(() -> await(queues.send(null, bytes("m"))))
        .isInstanceOf(BadRequestException.class);
  }

  // ---- sending and receiving ----

  @Test
  void emptyQueueReceivesNothing() {
    String q = newQueue("q");
    assertThat(await(queues.receive(q, 1, LONG_VISIBILITY))).isEmpty();
  }

  @Test
  void everySentMessageArrivesWithItsIdAndPayload() {
    String q = newQueue("q");
    Map<String, String> sent = new LinkedHashMap<>();
    for (int i = 0; i < 20; i++) {
      String body = "message " + i;
      sent.put(await(queues.send(q, bytes(body))), body);
    }
    assertThat(sent).as("message ids are unique").hasSize(20);
    Map<String, QueueMessage> got = drain(q, sent.keySet());
    for (Map.Entry<String, String> e : sent.entrySet()) {
      QueueMessage m = got.get(e.getKey());
      assertThat(new String(m.payload(), StandardCharsets.UTF_8)).isEqualTo(e.getValue());
      assertThat(m.deliveryCount()).isGreaterThanOrEqualTo(1);
      assertThat(m.receiptHandle()).isNotEmpty();
    }
  }

  @Test
  void sendBatchReturnsIdsInTheOrderOfThePayloads() {
    String q = newQueue("q");
    int n = maxBatch();
    List<byte[]> payloads = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      payloads.add(bytes("batch " + i));
    }
    List<String> ids = await(queues.sendBatch(q, payloads));
    assertThat(ids).hasSize(n).doesNotHaveDuplicates();
    Map<String, QueueMessage> got = drain(q, new HashSet<>(ids));
    for (int i = 0; i < n; i++) {
      assertThat(got.get(ids.get(i)).payload()).isEqualTo(payloads.get(i));
    }
  }

  @Test
  void aReceivedMessageIsHiddenThenRedeliveredIfNotDeleted() {
    String q = newQueue("q");
    String id = await(queues.send(q, bytes("again")));
    QueueMessage first = drain(q, Set.of(id), SHORT_VISIBILITY).get(id);

    if (!mayDuplicate()) {
      for (int i = 0; i < 5; i++) {
        assertThat(await(queues.receive(q, maxBatch(), SHORT_VISIBILITY)))
            .as("hidden for the visibility timeout")
            .isEmpty();
      }
    }
    elapse(SHORT_VISIBILITY.plusSeconds(1));
    QueueMessage second = drain(q, Set.of(id), LONG_VISIBILITY).get(id);
    assertThat(second.payload()).isEqualTo(bytes("again"));
    assertThat(second.receiptHandle()).isNotEqualTo(first.receiptHandle());
    assertThat(second.deliveryCount()).isGreaterThanOrEqualTo(2);
  }

  @Test
  void deletedMessagesDoNotComeBackExceptAsAllowedDuplicates() {
    String q = newQueue("q");
    Set<String> ids = new HashSet<>();
    for (int i = 0; i < 5; i++) {
      ids.add(await(queues.send(q, bytes("m" + i))));
    }
    for (QueueMessage m : drain(q, ids, SHORT_VISIBILITY).values()) {
      await(queues.delete(q, m.receiptHandle()));
    }
    assertNothingNewArrives(q, ids);
  }

  @Test
  void deletingTwiceWithTheSameHandleSucceeds() {
    String q = newQueue("q");
    String id = await(queues.send(q, bytes("m")));
    QueueMessage m = drain(q, Set.of(id)).get(id);
    await(queues.delete(q, m.receiptHandle()));
    await(queues.delete(q, m.receiptHandle()));
  }

  @Test
  void deleteBatchDeletesEveryMessage() {
    String q = newQueue("q");
    int n = maxBatch();
    List<byte[]> payloads = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      payloads.add(bytes("m" + i));
    }
    Set<String> ids = new HashSet<>(await(queues.sendBatch(q, payloads)));
    List<String> handles = new ArrayList<>();
    drain(q, ids, SHORT_VISIBILITY).values().forEach(m -> handles.add(m.receiptHandle()));
    await(queues.deleteBatch(q, handles));
    assertNothingNewArrives(q, ids);
  }

  @Test
  void deletingAQueueDeletesItsMessages() {
    String q = newQueue("q");
    await(queues.send(q, bytes("old")));
    await(queues.deleteQueue(q));
    await(queues.createQueue(q));
    for (int i = 0; i < 5; i++) {
      assertThat(await(queues.receive(q, maxBatch(), LONG_VISIBILITY))).isEmpty();
    }
  }

  @Test
  void ordersWhenItDeclaresOrder() {
    if (!deliversInOrder()) {
      return;
    }
    String q = newQueue("q");
    List<String> sent = new ArrayList<>();
    for (int i = 0; i < 15; i++) {
      sent.add(await(queues.send(q, bytes("m" + i))));
    }
    assertThat(new ArrayList<>(drain(q, new HashSet<>(sent)).keySet()))
        .containsExactlyElementsOf(sent);
  }

  @Test
  void receivesAllVisibleMessagesWhenItDeclaresCompleteness() {
    if (!receivesAreComplete()) {
      return;
    }
    String q = newQueue("q");
    int n = Math.min(5, maxBatch());
    for (int i = 0; i < n; i++) {
      await(queues.send(q, bytes("m" + i)));
    }
    assertThat(await(queues.receive(q, maxBatch(), LONG_VISIBILITY))).hasSize(n);
    assertThat(await(queues.receive(q, maxBatch(), LONG_VISIBILITY))).isEmpty();
  }

  // ---- limits ----

  @Test
  void messageAtTheSizeLimitRoundTripsAndOneByteMoreIsRejected() {
    int max = queues.limits().maxMessageSize();
    if (max > MAX_PROBED_MESSAGE_SIZE) {
      return;
    }
    String q = newQueue("q");
    byte[] atLimit = new byte[max];
    new SplittableRandom(seed).nextBytes(atLimit);
    String id = await(queues.send(q, atLimit));
    assertThat(drain(q, Set.of(id)).get(id).payload()).isEqualTo(atLimit);

    byte[] tooBig = new byte[max + 1];
    assertThatThrownBy(() -> await(queues.send(q, tooBig)))
        .isInstanceOf(LimitExceededException.class);
    assertThatThrownBy(() -> await(queues.sendBatch(q, List.of(bytes("ok"), tooBig))))
        .isInstanceOf(LimitExceededException.class);
    assertNothingArrives(q);
  }

  @Test
  void batchesMustHoldOneToMaxBatchSizeEntries() {
    String q = newQueue("q");
    int max = maxBatch();
    List<byte[]> tooMany = new ArrayList<>();
    List<String> handles = new ArrayList<>();
    for (int i = 0; i <= max; i++) {
      tooMany.add(bytes("m" + i));
      handles.add("h" + i);
    }
    assertThatThrownBy(() -> await(queues.sendBatch(q, tooMany)))
        .isInstanceOf(LimitExceededException.class);
    assertThatThrownBy(() -> await(queues.sendBatch(q, List.of())))
        .isInstanceOf(BadRequestException.class);
    assertThatThrownBy(() -> await(queues.deleteBatch(q, handles)))
        .isInstanceOf(LimitExceededException.class);
    assertThatThrownBy(() -> await(queues.deleteBatch(q, List.of())))
        .isInstanceOf(BadRequestException.class);
    assertNothingArrives(q);
  }

  @Test
  void receiveCountsAndVisibilityMustBeWithinLimits() {
    String q = newQueue("q");
    CloudLimits limits = queues.limits();
    assertThatThrownBy(() -> await(queues.receive(q, 0, LONG_VISIBILITY)))
        .isInstanceOf(BadRequestException.class);
    assertThatThrownBy(() -> await(queues.receive(q, limits.maxBatchSize() + 1, LONG_VISIBILITY)))
        .isInstanceOf(LimitExceededException.class);
    Duration tooLong = limits.maxVisibilityTimeout().plusSeconds(1);
    assertThatThrownBy(() -> await(queues.receive(q, 1, tooLong)))
        .isInstanceOf(LimitExceededException.class);
    assertThatThrownBy(() -> await(queues.receive(q, 1, Duration.ofSeconds(-1))))
        .isInstanceOf(BadRequestException.class);
  }

  @Test
  void nullPayloadsAreBadRequests() {
    String q = newQueue("q");
    assertThatThrownBy(() -> await(queues.send(q, null))).isInstanceOf(BadRequestException.class);
    assertThatThrownBy(() -> await(queues.sendBatch(q, null)))
        .isInstanceOf(BadRequestException.class);
  }

  // ---- visibility changes ----

  @Test
  void aMessageHandedBackIsReceivableAtOnce() {
    if (!supportsVisibilityChange()) {
      return;
    }
    SupportsVisibilityChange v = SupportsVisibilityChange.of(queues);
    String q = newQueue("q");
    String id = await(queues.send(q, bytes("back")));
    QueueMessage first = drain(q, Set.of(id)).get(id);
    await(v.changeVisibility(q, first.receiptHandle(), Duration.ZERO));
    QueueMessage again = drain(q, Set.of(id)).get(id); // no time passes
    assertThat(again.payload()).isEqualTo(bytes("back"));
    assertThat(again.receiptHandle()).isNotEqualTo(first.receiptHandle());
    assertThat(again.deliveryCount()).isGreaterThanOrEqualTo(2);
    await(queues.delete(q, again.receiptHandle()));
    assertNothingNewArrives(q, Set.of(id));
  }

  @Test
  void aBatchHandsBackEveryMessage() {
    if (!supportsVisibilityChange()) {
      return;
    }
    SupportsVisibilityChange v = SupportsVisibilityChange.of(queues);
    String q = newQueue("q");
    List<byte[]> payloads = new ArrayList<>();
    for (int i = 0; i < maxBatch(); i++) {
      payloads.add(bytes("m" + i));
    }
    Set<String> ids = new HashSet<>(await(queues.sendBatch(q, payloads)));
    List<String> handles = new ArrayList<>();
    drain(q, ids).values().forEach(m -> handles.add(m.receiptHandle()));
    await(v.changeVisibilityBatch(q, handles, Duration.ZERO));
    List<String> again = new ArrayList<>();
    drain(q, ids).values().forEach(m -> again.add(m.receiptHandle()));
    await(queues.deleteBatch(q, again));
    assertNothingNewArrives(q, ids);
  }

  /** A change counts from the call: here it holds the message past its receive's timeout. */
  @Test
  void aChangedTimeoutCountsFromTheCall() {
    if (!supportsVisibilityChange()) {
      return;
    }
    SupportsVisibilityChange v = SupportsVisibilityChange.of(queues);
    String q = newQueue("q");
    String id = await(queues.send(q, bytes("held")));
    QueueMessage m = drain(q, Set.of(id), SHORT_VISIBILITY).get(id);
    Duration half = SHORT_VISIBILITY.dividedBy(2);
    elapse(half);
    await(v.changeVisibility(q, m.receiptHandle(), SHORT_VISIBILITY));
    if (!mayDuplicate() && slack().isZero()) {
      elapse(half); // the receive's own timeout ends now; the change holds it for another half
      for (int i = 0; i < 5; i++) {
        assertThat(await(queues.receive(q, maxBatch(), LONG_VISIBILITY)))
            .as("still held by the change")
            .isEmpty();
      }
      elapse(half);
    } else {
      elapse(SHORT_VISIBILITY.plus(slack().multipliedBy(2)).plusSeconds(1));
    }
    assertThat(drain(q, Set.of(id)).get(id).payload()).isEqualTo(bytes("held"));
  }

  @Test
  void theHandleOfADeletedMessageChangesNothing() {
    if (!supportsVisibilityChange()) {
      return;
    }
    SupportsVisibilityChange v = SupportsVisibilityChange.of(queues);
    String q = newQueue("q");
    String id = await(queues.send(q, bytes("gone")));
    String live = await(queues.send(q, bytes("live")));
    Map<String, QueueMessage> got = drain(q, Set.of(id, live));
    String handle = got.get(id).receiptHandle();
    await(queues.delete(q, handle));
    await(v.changeVisibility(q, handle, Duration.ZERO));
    await(v.changeVisibility(q, handle, LONG_VISIBILITY));
    await(
        v.changeVisibilityBatch(q, List.of(handle, got.get(live).receiptHandle()), Duration.ZERO));
    QueueMessage back = drain(q, Set.of(live)).get(live);
    await(queues.delete(q, back.receiptHandle()));
    assertNothingNewArrives(q, Set.of(id, live));
  }

  /**
   * A handle of an earlier delivery, once the message was received again: the call succeeds and,
   * whatever it does to the later hold, the message is not lost.
   */
  @Test
  void aSupersededHandleFailsNothingAndLosesNothing() {
    if (!supportsVisibilityChange()) {
      return;
    }
    SupportsVisibilityChange v = SupportsVisibilityChange.of(queues);
    String q = newQueue("q");
    String id = await(queues.send(q, bytes("twice")));
    QueueMessage first = drain(q, Set.of(id), SHORT_VISIBILITY).get(id);
    elapse(SHORT_VISIBILITY.plus(slack()).plusSeconds(1));
    QueueMessage second = drain(q, Set.of(id)).get(id);
    assertThat(second.receiptHandle()).isNotEqualTo(first.receiptHandle());
    await(v.changeVisibility(q, first.receiptHandle(), Duration.ZERO));
    await(v.changeVisibilityBatch(q, List.of(first.receiptHandle()), LONG_VISIBILITY));
    await(v.changeVisibility(q, second.receiptHandle(), Duration.ZERO));
    QueueMessage third = drain(q, Set.of(id)).get(id);
    assertThat(third.payload()).isEqualTo(bytes("twice"));
    await(queues.delete(q, third.receiptHandle()));
  }

  @Test
  void visibilityChangesMustBeWithinLimits() {
    if (!supportsVisibilityChange()) {
      return;
    }
    SupportsVisibilityChange v = SupportsVisibilityChange.of(queues);
    String q = newQueue("q");
    String id = await(queues.send(q, bytes("m")));
    String h = drain(q, Set.of(id)).get(id).receiptHandle();
    Duration tooLong = queues.limits().maxVisibilityTimeout().plusSeconds(1);
    assertFails(() -> v.changeVisibility(q, h, Duration.ofSeconds(-1)), BadRequestException.class);
    assertFails(() -> v.changeVisibility(q, h, null), BadRequestException.class);
    assertFails(() -> v.changeVisibility(q, h, tooLong), LimitExceededException.class);
    assertFails(() -> v.changeVisibility(q, null, Duration.ZERO), BadRequestException.class);
    assertFails(() -> v.changeVisibility(q, "garbage", Duration.ZERO), BadRequestException.class);
    List<String> tooMany = new ArrayList<>();
    for (int i = 0; i <= queues.limits().maxBatchSize(); i++) {
      tooMany.add(h);
    }
    assertFails(
        () -> v.changeVisibilityBatch(q, tooMany, Duration.ZERO), LimitExceededException.class);
    assertFails(
        () -> v.changeVisibilityBatch(q, List.of(), Duration.ZERO), BadRequestException.class);
    assertFails(() -> v.changeVisibilityBatch(q, null, Duration.ZERO), BadRequestException.class);
    assertFails(
        () -> v.changeVisibilityBatch(q, List.of(h), tooLong), LimitExceededException.class);
    if (!mayDuplicate()) {
      assertThat(await(queues.receive(q, maxBatch(), LONG_VISIBILITY)))
          .as("refused changes left the message held")
          .isEmpty();
    }
    await(v.changeVisibility(q, h, Duration.ZERO));
    assertThat(drain(q, Set.of(id))).containsKey(id);
  }

  // ---- concurrency ----

  @Test
  void concurrentSendersAndReceiversLoseNothing() throws Exception {
    String q = newQueue("q");
    int senders = 4;
    int perSender = 50;
    int receivers = 4;
    Map<String, String> sent = new ConcurrentHashMap<>();
    Map<String, String> received = new ConcurrentHashMap<>();
    AtomicInteger sendersRunning = new AtomicInteger(senders);
    CountDownLatch start = new CountDownLatch(1);
    ExecutorService pool = Executors.newFixedThreadPool(senders + receivers);
    try {
      List<Future<?>> tasks = new ArrayList<>();
      for (int s = 0; s < senders; s++) {
        int me = s;
        tasks.add(
            pool.submit(
                () -> {
                  start.await();
                  try {
                    for (int i = 0; i < perSender; i++) {
                      String body = "sender " + me + " message " + i;
                      sent.put(await(queues.send(q, bytes(body))), body);
                    }
                  } finally {
                    sendersRunning.decrementAndGet();
                  }
                  return null;
                }));
      }
      for (int r = 0; r < receivers; r++) {
        tasks.add(
            pool.submit(
                () -> {
                  start.await();
                  int idleAfterSending = 0;
                  while (received.size() < senders * perSender
                      && idleAfterSending < DRAIN_ATTEMPTS) {
                    boolean sending = sendersRunning.get() > 0;
                    List<QueueMessage> got = await(queues.receive(q, maxBatch(), LONG_VISIBILITY));
                    for (QueueMessage m : got) {
                      received.putIfAbsent(
                          m.messageId(), new String(m.payload(), StandardCharsets.UTF_8));
                      await(queues.delete(q, m.receiptHandle()));
                    }
                    if (!sending && got.isEmpty()) {
                      idleAfterSending++;
                    }
                  }
                  return null;
                }));
      }
      start.countDown();
      for (Future<?> f : tasks) {
        f.get(120, TimeUnit.SECONDS);
      }
    } finally {
      pool.shutdownNow();
    }
    assertThat(sent).hasSize(senders * perSender);
    assertThat(received).isEqualTo(sent);
  }

  // ---- helpers ----

  /** The service's batch limit, capped at 10 so tests stay small. */
  protected int maxBatch() {
    return Math.min(10, queues.limits().maxBatchSize());
  }

  /** Receives until {@code count} distinct messages were seen; their first deliveries in order. */
  protected Map<String, QueueMessage> drain(String q, int count) {
    Map<String, QueueMessage> seen = new LinkedHashMap<>();
    for (int i = 0; i < DRAIN_ATTEMPTS && seen.size() < count; i++) {
      for (QueueMessage m : await(queues.receive(q, maxBatch(), LONG_VISIBILITY))) {
        seen.putIfAbsent(m.messageId(), m);
      }
    }
    assertThat(seen).as("distinct messages drained").hasSize(count);
    return seen;
  }

  protected Map<String, QueueMessage> drain(String q, Set<String> expected) {
    return drain(q, expected, LONG_VISIBILITY);
  }

  /**
   * Receives until every id of {@code expected} was seen, within {@link #DRAIN_ATTEMPTS} receives;
   * returns each message's first delivery, in order of arrival. Repeats are tolerated only when the
   * service may duplicate; a message that was not sent fails the test.
   */
  protected Map<String, QueueMessage> drain(String q, Set<String> expected, Duration visibility) {
    Map<String, QueueMessage> seen = new LinkedHashMap<>();
    for (int i = 0; i < DRAIN_ATTEMPTS && !seen.keySet().containsAll(expected); i++) {
      for (QueueMessage m : await(queues.receive(q, maxBatch(), visibility))) {
        assertThat(expected).as("only sent messages arrive").contains(m.messageId());
        QueueMessage before = seen.putIfAbsent(m.messageId(), m);
        if (before != null && !mayDuplicate()) {
          throw new AssertionError("received twice while hidden: " + m);
        }
      }
    }
    assertThat(seen.keySet()).as("messages drained").containsExactlyInAnyOrderElementsOf(expected);
    return seen;
  }

  /**
   * After every message of {@code ids} was deleted: lets any hidden copy become visible and checks
   * that nothing new arrives, only copies of those ids when the service may duplicate (each deleted
   * as it comes).
   */
  protected void assertNothingNewArrives(String q, Set<String> ids) {
    elapse(SHORT_VISIBILITY.plusSeconds(1));
    List<String> repeats = new ArrayList<>();
    for (int i = 0; i < 20; i++) {
      for (QueueMessage m : await(queues.receive(q, maxBatch(), SHORT_VISIBILITY))) {
        repeats.add(m.messageId());
        await(queues.delete(q, m.receiptHandle()));
      }
    }
    if (mayDuplicate()) {
      assertThat(ids).as("only duplicates of deleted messages").containsAll(repeats);
    } else {
      assertThat(repeats).as("deleted messages come back").isEmpty();
    }
  }

  /** Checks that several receives of a queue nothing was sent to find nothing. */
  protected void assertNothingArrives(String q) {
    for (int i = 0; i < 5; i++) {
      assertThat(await(queues.receive(q, maxBatch(), LONG_VISIBILITY))).isEmpty();
    }
  }
}
