package io.stratus.cloudapi.contract;

import static org.assertj.core.api.Assertions.assertThat;

import io.stratus.cloudapi.AdvancedMessage;
import io.stratus.cloudapi.AdvancedQueueService;
import io.stratus.cloudapi.BadRequestException;
import io.stratus.cloudapi.LimitExceededException;
import io.stratus.cloudapi.NotFoundException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * What every {@link AdvancedQueueService} must do (paper 000, section 2.3.4), checked through the
 * interface only, so that the in-process queues and the ZooKeeper adapter run the same suite.
 *
 * <p>A subclass supplies a fresh service per test and a way to let time pass. The payload-limit
 * test sends {@code limits().maxAdvancedMessageSize()} bytes, so subclasses should configure a
 * small limit. Queue names get a per-test unique prefix ({@link #uri}), so a backend shared between
 * tests (one ZooKeeper ensemble) does not leak state from one test into another. Time-boundary
 * checks assume the service's clock is the one {@link #elapse} moves; a backend on real time widens
 * them by {@link #clockSlack()}. The shared hooks and helpers are in {@link ContractSupport}.
 *
 * <p>Message ids are assumed positive, so {@code receiveAfterId(uri, n, 0)} means "from the start",
 * as the protocols use it.
 */
public abstract class AdvancedQueueServiceContract extends ContractSupport {
  /** The service under test, fresh for each test. */
  protected AdvancedQueueService queues;

  /** A fresh service for one test. */
  protected abstract AdvancedQueueService newQueues(long seed);

  /** Queue URIs unique to this test run, so {@link #uri} names a queue no other test sees. */
  @Override
  protected String newPrefix() {
    return uniquePrefix("ct-aq-", "-");
  }

  @BeforeEach
  public void setUpQueueContract() {
    this.queues = newQueues(seed);
  }

  @AfterEach
  public void tearDownQueueContract() {
    if (queues == null) {
      return;
    }
    try {
      for (String q : await(queues.listQueues(uri("")))) {
        await(queues.deleteQueue(q));
      }
    } finally {
      queues.close();
    }
  }

  // ---- queues ----

  @Test
  public void createListAndDeleteQueuesIdempotently() {
    String a = uri("a");
    String b = uri("b");
    await(queues.createQueue(b));
    await(queues.createQueue(a));
    await(queues.createQueue(a));
    assertThat(await(queues.listQueues(uri("")))).containsExactly(a, b);
    assertThat(await(queues.listQueues(a))).containsExactly(a);

    await(queues.deleteQueue(a));
    await(queues.deleteQueue(a));
    assertThat(await(queues.listQueues(uri("")))).containsExactly(b);
  }

  @Test
  public void createQueueKeepsTheMessagesOfAnExistingQueue() {
    String q = queue("q");
    long id = await(queues.send(q, bytes("m"), 1));
    await(queues.createQueue(q));
    assertThat(ids(await(queues.receiveAfterId(q, 10, 0)))).containsExactly(id);
  }

  @Test
  public void callsOnAMissingQueueFailWithNotFound() {
    String q = uri("missing");
    assertFails(() -> queues.send(q, bytes("x"), 1), NotFoundException.class);
    assertFails(() -> queues.receiveAfterId(q, 1, 0), NotFoundException.class);
    assertFails(() -> queues.receiveByKey(q, 1, 0, 10), NotFoundException.class);
    assertFails(() -> queues.receiveOlderThan(q, 1, Duration.ZERO), NotFoundException.class);
    assertFails(() -> queues.delete(q, 1), NotFoundException.class);
    assertFails(() -> queues.deleteByKey(q, 0, 10), NotFoundException.class);

    String deleted = queue("deleted");
    await(queues.send(deleted, bytes("x"), 1));
    await(queues.deleteQueue(deleted));
    assertFails(() -> queues.receiveAfterId(deleted, 1, 0), NotFoundException.class);
    assertFails(() -> queues.send(deleted, bytes("x"), 1), NotFoundException.class);
  }

  @Test
  public void malformedRequestsFailWithBadRequest() {
    String q = queue("q");
    assertFails(() -> queues.createQueue(""), BadRequestException.class);
    assertFails(() -> queues.send(q, null, 1), BadRequestException.class);
    assertFails(() -> queues.receiveAfterId(q, 0, 0), BadRequestException.class);
    assertFails(() -> queues.receiveByKey(q, -1, 0, 10), BadRequestException.class);
    assertFails(
        () -> queues.receiveOlderThan(q, 1, Duration.ofSeconds(-1)), BadRequestException.class);
  }

  @Test
  public void payloadsUpToTheLimitAreAcceptedAndLargerOnesRejected() {
    String q = queue("q");
    int max = queues.limits().maxAdvancedMessageSize();
    byte[] biggest = new byte[max];
    new Random(seed).nextBytes(biggest);
    long id = await(queues.send(q, biggest, 7));
    await(queues.send(q, new byte[0], 8));

    LimitExceededException e =
        assertFails(() -> queues.send(q, new byte[max + 1], 9), LimitExceededException.class);
    assertThat(e.maximum()).isEqualTo(max);

    List<AdvancedMessage> all = await(queues.receiveAfterId(q, Integer.MAX_VALUE, 0));
    assertThat(all).hasSize(2);
    assertThat(all.get(0).id()).isEqualTo(id);
    assertThat(all.get(0).payload()).isEqualTo(biggest);
    assertThat(all.get(1).payload()).isEmpty();
  }

  // ---- ids and FIFO ----

  @Test
  public void idsIncreaseAndReceiveAfterIdIsCompleteAndFifo() {
    String q = queue("q");
    Random rnd = new Random(seed);
    List<Long> sent = new ArrayList<>();
    for (int i = 0; i < 40; i++) {
      long id = await(queues.send(q, bytes("m" + i), rnd.nextInt(5)));
      if (!sent.isEmpty()) {
        assertThat(id).isGreaterThan(sent.get(sent.size() - 1));
      }
      assertThat(id).isPositive();
      sent.add(id);
    }

    List<AdvancedMessage> all = await(queues.receiveAfterId(q, Integer.MAX_VALUE, 0));
    assertThat(ids(all)).containsExactlyElementsOf(sent);
    for (int i = 0; i < all.size(); i++) {
      assertThat(text(all.get(i))).isEqualTo("m" + i);
    }
    // Receives hide nothing: the same call sees the same messages again.
    assertThat(ids(await(queues.receiveAfterId(q, 1000, 0)))).containsExactlyElementsOf(sent);

    // Paging by the last id seen walks the whole queue, each page the first max after the bound.
    List<Long> paged = new ArrayList<>();
    long after = 0;
    while (true) {
      List<AdvancedMessage> page = await(queues.receiveAfterId(q, 7, after));
      if (page.isEmpty()) {
        break;
      }
      assertThat(page.size()).isLessThanOrEqualTo(7);
      paged.addAll(ids(page));
      after = page.get(page.size() - 1).id();
    }
    assertThat(paged).containsExactlyElementsOf(sent);

    // The id bound is exclusive.
    assertThat(ids(await(queues.receiveAfterId(q, 2, sent.get(4)))))
        .containsExactly(sent.get(5), sent.get(6));
    assertThat(ids(await(queues.receiveAfterId(q, 2, sent.get(4) - 1))))
        .containsExactly(sent.get(4), sent.get(5));
    assertThat(await(queues.receiveAfterId(q, 10, sent.get(sent.size() - 1)))).isEmpty();
  }

  @Test
  public void messagesKeepTheirKeyAndPayload() {
    String q = queue("q");
    byte[] payload = bytes("hello");
    long id = await(queues.send(q, payload, -42));
    payload[0] = 'j'; // the service must have taken a copy
    AdvancedMessage m = await(queues.receiveAfterId(q, 1, 0)).get(0);
    assertThat(m.id()).isEqualTo(id);
    assertThat(m.key()).isEqualTo(-42);
    assertThat(text(m)).isEqualTo("hello");
    assertThat(m.enqueuedAt()).isNotNull();
  }

  // ---- key filter ----

  @Test
  public void keyBoundsAreExclusiveAndResultsFifo() {
    String q = queue("q");
    long[] keys = {5, 1, 9, 3, 7, 2, 10, 4, 8, 6, 6, 4, 5, -3};
    List<Long> ids = new ArrayList<>();
    for (long k : keys) {
      ids.add(await(queues.send(q, bytes("k" + k), k)));
    }

    List<AdvancedMessage> mid = await(queues.receiveByKey(q, Integer.MAX_VALUE, 3, 7));
    assertThat(keys(mid)).containsExactly(5L, 4L, 6L, 6L, 4L, 5L);
    assertThat(ids(mid)).isSorted();

    assertThat(keys(await(queues.receiveByKey(q, 3, 3, 7)))).containsExactly(5L, 4L, 6L);
    assertThat(keys(await(queues.receiveByKey(q, 100, 5, 7)))).containsExactly(6L, 6L);
    assertThat(await(queues.receiveByKey(q, 100, 3, 4))).isEmpty();
    assertThat(await(queues.receiveByKey(q, 100, 4, 4))).isEmpty();
    assertThat(await(queues.receiveByKey(q, 100, 7, 3))).isEmpty();
    assertThat(keys(await(queues.receiveByKey(q, 100, -4, -2)))).containsExactly(-3L);
    List<AdvancedMessage> everything =
        await(queues.receiveByKey(q, Integer.MAX_VALUE, Long.MIN_VALUE, Long.MAX_VALUE));
    assertThat(ids(everything)).containsExactlyElementsOf(ids);
    assertThat(ids(await(queues.receiveByKey(q, 1, Long.MIN_VALUE, Long.MAX_VALUE))))
        .containsExactly(ids.get(0));
  }

  // ---- age filter ----

  @Test
  public void ageFilterReturnsOnlyOlderMessagesInFifoOrder() {
    String q = queue("q");
    long m1 = await(queues.send(q, bytes("1"), 1));
    long m2 = await(queues.send(q, bytes("2"), 2));
    elapse(Duration.ofSeconds(10));
    long m3 = await(queues.send(q, bytes("3"), 3));
    elapse(Duration.ofSeconds(5));
    // m1 and m2 are 15 s old, m3 is 5 s old.

    assertThat(ids(await(queues.receiveOlderThan(q, 10, Duration.ofSeconds(10)))))
        .containsExactly(m1, m2);
    assertThat(ids(await(queues.receiveOlderThan(q, 1, Duration.ofSeconds(10)))))
        .containsExactly(m1);
    assertThat(ids(await(queues.receiveOlderThan(q, 10, Duration.ofSeconds(1)))))
        .containsExactly(m1, m2, m3);
    assertThat(await(queues.receiveOlderThan(q, 10, Duration.ofSeconds(20)))).isEmpty();
    assertThat(await(queues.receiveOlderThan(q, 10, Duration.ofDays(365_000)))).isEmpty();
    // A new message is older than nothing but time.
    long m4 = await(queues.send(q, bytes("4"), 4));
    elapse(Duration.ofSeconds(1).plus(clockSlack()));
    assertThat(ids(await(queues.receiveOlderThan(q, 10, Duration.ZERO))))
        .containsExactly(m1, m2, m3, m4);

    if (clockSlack().isZero()) {
      // Strictly older: at exactly the age a message does not yet qualify. m1, m2 are 16 s old.
      assertThat(await(queues.receiveOlderThan(q, 10, Duration.ofSeconds(16)))).isEmpty();
      assertThat(ids(await(queues.receiveOlderThan(q, 10, Duration.ofMillis(15_999)))))
          .containsExactly(m1, m2);
    }
  }

  @Test
  public void messagesAreNeverDroppedBecauseOfTheirAge() {
    String q = queue("q");
    long id = await(queues.send(q, bytes("old"), 1));
    elapse(Duration.ofDays(15)); // longer than SQS keeps anything
    assertThat(ids(await(queues.receiveAfterId(q, 10, 0)))).containsExactly(id);
    assertThat(ids(await(queues.receiveOlderThan(q, 10, Duration.ofDays(14))))).containsExactly(id);
  }

  // ---- deletes ----

  @Test
  public void deleteByIdIsIdempotent() {
    String q = queue("q");
    long a = await(queues.send(q, bytes("a"), 1));
    long b = await(queues.send(q, bytes("b"), 2));
    long c = await(queues.send(q, bytes("c"), 3));
    await(queues.delete(q, b));
    await(queues.delete(q, b));
    await(queues.delete(q, c + 1_000_000));
    assertThat(ids(await(queues.receiveAfterId(q, 10, 0)))).containsExactly(a, c);
    assertThat(keys(await(queues.receiveByKey(q, 10, 0, 10)))).containsExactly(1L, 3L);
  }

  @Test
  public void deleteByKeyDeletesTheOpenRangeAndCounts() {
    String q = queue("q");
    for (long k : new long[] {1, 2, 2, 3, 5, 4, 1}) {
      await(queues.send(q, bytes("k" + k), k));
    }
    assertThat(await(queues.deleteByKey(q, 1, 5))).isEqualTo(4);
    assertThat(await(queues.deleteByKey(q, 1, 5))).isZero();
    assertThat(await(queues.deleteByKey(q, 5, 1))).isZero();
    assertThat(keys(await(queues.receiveAfterId(q, 10, 0)))).containsExactly(1L, 5L, 1L);
    assertThat(await(queues.receiveByKey(q, 10, 1, 5))).isEmpty();
    assertThat(await(queues.deleteByKey(q, Long.MIN_VALUE, Long.MAX_VALUE))).isEqualTo(3);
    assertThat(await(queues.receiveAfterId(q, 10, 0))).isEmpty();
  }

  // ---- randomized, against a model ----

  /**
   * Random sends, deletes, elapses and receives of all three kinds, every receive compared with a
   * model of the queue: the first max matching messages, in id order.
   */
  @Test
  public void randomOperationsMatchAModel() {
    String q = queue("q");
    Random rnd = new Random(seed);
    List<long[]> model = new ArrayList<>(); // {id, key, enqueued at (ms of test time)}
    long now = 0;
    for (int step = 0; step < 600; step++) {
      int op = rnd.nextInt(100);
      if (op < 35) {
        long key = rnd.nextInt(20) - 5;
        long id = await(queues.send(q, bytes("s" + step), key));
        model.add(new long[] {id, key, now});
      } else if (op < 45) {
        long ms = rnd.nextInt(3000);
        elapse(Duration.ofMillis(ms));
        now += ms;
      } else if (op < 52 && !model.isEmpty()) {
        long id = model.get(rnd.nextInt(model.size()))[0];
        await(queues.delete(q, id));
        model.removeIf(m -> m[0] == id);
      } else if (op < 55) {
        long lo = rnd.nextInt(20) - 6;
        long hi = lo + rnd.nextInt(4);
        int n = await(queues.deleteByKey(q, lo, hi));
        int before = model.size();
        model.removeIf(m -> m[1] > lo && m[1] < hi);
        assertThat(n)
            .as("deleteByKey(%d, %d) at step %d", lo, hi, step)
            .isEqualTo(before - model.size());
      } else {
        int max = rnd.nextInt(4) == 0 ? Integer.MAX_VALUE : 1 + rnd.nextInt(8);
        int kind = rnd.nextInt(3);
        List<AdvancedMessage> got;
        List<Long> expected;
        if (kind == 0) {
          long after =
              model.isEmpty() || rnd.nextBoolean()
                  ? 0
                  : model.get(rnd.nextInt(model.size()))[0] + rnd.nextInt(3) - 1;
          got = await(queues.receiveAfterId(q, max, after));
          expected = expectIds(model, max, m -> m[0] > after);
        } else if (kind == 1) {
          long lo = rnd.nextInt(22) - 7;
          long hi = lo + rnd.nextInt(8);
          got = await(queues.receiveByKey(q, max, lo, hi));
          expected = expectIds(model, max, m -> m[1] > lo && m[1] < hi);
        } else {
          if (!clockSlack().isZero()) {
            continue; // boundaries of the age filter are only exact on the test's clock
          }
          long age = rnd.nextInt(6000);
          long t = now;
          got = await(queues.receiveOlderThan(q, max, Duration.ofMillis(age)));
          expected = expectIds(model, max, m -> m[2] + age < t);
        }
        assertThat(ids(got))
            .as("receive kind %d at step %d", kind, step)
            .containsExactlyElementsOf(expected);
      }
    }
  }

  // ---- concurrency ----

  @Test
  public void concurrentSendersGetUniqueIdsAndEveryMessageIsReceived() throws Exception {
    String q = queue("q");
    int threads = 4;
    int perThread = 100;
    ExecutorService pool = Executors.newFixedThreadPool(threads);
    try {
      CountDownLatch go = new CountDownLatch(1);
      List<Future<List<Long>>> results = new ArrayList<>();
      for (int t = 0; t < threads; t++) {
        int thread = t;
        results.add(
            pool.submit(
                () -> {
                  go.await();
                  List<Long> mine = new ArrayList<>();
                  for (int i = 0; i < perThread; i++) {
                    mine.add(await(queues.send(q, bytes(thread + ":" + i), thread)));
                  }
                  return mine;
                }));
      }
      go.countDown();
      Map<Long, String> sent = new HashMap<>();
      for (int t = 0; t < threads; t++) {
        List<Long> mine = results.get(t).get(30, TimeUnit.SECONDS);
        // Each thread's sends are sequential, so their ids increase.
        assertThat(mine).isSorted().doesNotHaveDuplicates();
        for (int i = 0; i < mine.size(); i++) {
          assertThat(sent.put(mine.get(i), t + ":" + i)).as("duplicate id").isNull();
        }
      }
      List<AdvancedMessage> all = await(queues.receiveAfterId(q, Integer.MAX_VALUE, 0));
      assertThat(all).hasSize(threads * perThread);
      assertThat(ids(all)).isSorted();
      for (AdvancedMessage m : all) {
        assertThat(text(m)).isEqualTo(sent.get(m.id()));
      }
    } finally {
      pool.shutdownNow();
    }
  }

  // ---- helpers ----

  /** Creates a queue named by {@link #uri} and returns its URI. */
  protected String queue(String name) {
    String q = uri(name);
    await(queues.createQueue(q));
    return q;
  }

  private static List<Long> expectIds(List<long[]> model, int max, Predicate<long[]> filter) {
    return model.stream().filter(filter).limit(max).map(m -> m[0]).collect(Collectors.toList());
  }

  protected static String text(AdvancedMessage m) {
    return new String(m.payload(), StandardCharsets.UTF_8);
  }

  protected static List<Long> ids(List<AdvancedMessage> ms) {
    return ms.stream().map(AdvancedMessage::id).collect(Collectors.toList());
  }

  protected static List<Long> keys(List<AdvancedMessage> ms) {
    return ms.stream().map(AdvancedMessage::key).collect(Collectors.toList());
  }
}
