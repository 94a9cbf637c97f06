package io.stratus.cloudapi.contract;

import static org.assertj.core.api.Assertions.assertThat;

import io.stratus.cloudapi.BadRequestException;
import io.stratus.cloudapi.CounterService;
import io.stratus.cloudapi.Operation;
import io.stratus.cloudapi.OutcomeUnknownException;
import io.stratus.cloudapi.SupportsIdempotentIncrement;
import io.stratus.cloudapi.decorate.Call;
import io.stratus.cloudapi.decorate.CallInterceptor;
import io.stratus.cloudapi.decorate.Decorators;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Supplier;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * What every {@link CounterService} must do (paper 000, sections 2.3.6, 5.4 and 6.6), checked
 * through the interface only, so that the in-process service and the ZooKeeper adapter run the same
 * suite.
 *
 * <p>The property GSI builds on is checked from every side: values only grow (also across
 * restarts), and the highest validated value never passes a value still in flight, while a value
 * nobody validates stops holding it back once its timeout has passed.
 *
 * <p>A subclass supplies a fresh service per test, a way to let time pass on the service's clock
 * and, if it can, a way to make the service fail and restart ({@link #supportsRestart()}; when
 * false, the restart test passes without checking anything). Every URI a test uses starts with a
 * per-test prefix ({@link #uri}) whose timeout the suite sets to {@link #TIMEOUT}. A backend whose
 * clock is not the one {@link #elapse} moves widens every boundary by {@link #clockSlack()}. The
 * shared hooks and helpers, such as {@link #assertRefused} and {@link #afterRefusal}, are in {@link
 * ContractSupport}.
 *
 * <p>Idempotent increments ({@link SupportsIdempotentIncrement}) are checked when the service has
 * the ability ({@link #supportsIdempotentIncrement()}): a retry after a lost reply (injected by a
 * decorator, so the decorators' keeping of the ability is checked too), distinct and concurrent
 * request ids, what a counter remembers, and what holds across a restart.
 */
public abstract class CounterServiceContract extends ContractSupport {
  /** The validation timeout the suite sets for its per-test prefix. */
  protected static final Duration TIMEOUT = Duration.ofSeconds(10);

  /** The service under test, fresh for each test. */
  protected CounterService counters;

  /** A fresh service for one test. */
  protected abstract CounterService newCounters(long seed);

  /** Makes the service fail and come back without its counters. */
  protected abstract void restartService();

  /** Whether {@link #restartService()} works; the restart test checks nothing when false. */
  protected boolean supportsRestart() {
    return true;
  }

  /** Counter URIs unique to this test run; the set-up sets their timeout to {@link #TIMEOUT}. */
  @Override
  protected String newPrefix() {
    return uniquePrefix("ct-ctr-", "/");
  }

  @BeforeEach
  public void setUpCounterContract() {
    this.counters = newCounters(seed);
    await(counters.setTimeout(uri(""), TIMEOUT));
  }

  @AfterEach
  public void tearDownCounterContract() {
    if (counters != null) {
      counters.close();
    }
  }

  // ---- increments ----

  @Test
  public void theFirstIncrementIsAboveTheHighestValidatedBeforeIt() {
    String c = uri("first");
    long before = highest(c);
    long v = inc(c);
    assertThat(v).isGreaterThan(before);
    assertThat(highest(c)).as("an unvalidated value holds the counter back").isEqualTo(before);
    validate(c, v);
    assertThat(highest(c)).isEqualTo(v);
  }

  @Test
  public void valuesStrictlyIncreasePerCounter() {
    String a = uri("a");
    String b = uri("b");
    long lastA = Long.MIN_VALUE;
    long lastB = Long.MIN_VALUE;
    for (int i = 0; i < 100; i++) {
      long va = inc(a);
      assertThat(va).isGreaterThan(lastA);
      lastA = va;
      if (i % 3 == 0) {
        long vb = inc(b);
        assertThat(vb).isGreaterThan(lastB);
        lastB = vb;
      }
    }
  }

  // ---- validation ----

  @Test
  public void outOfOrderValidationHoldsTheHighestBackUntilTheGapCloses() {
    String c = uri("ooo");
    long h0 = highest(c);
    long v1 = inc(c);
    long v2 = inc(c);
    long v3 = inc(c);
    assertThat(highest(c)).isEqualTo(h0);
    validate(c, v1);
    assertThat(highest(c)).isEqualTo(v1);
    validate(c, v3);
    assertThat(highest(c)).as("v2 is still in flight").isEqualTo(v1);
    validate(c, v3);
    assertThat(highest(c)).isEqualTo(v1);
    validate(c, v2);
    assertThat(highest(c)).isEqualTo(v3);
    validate(c, v1); // repeated, no effect
    assertThat(highest(c)).isEqualTo(v3);
  }

  @Test
  public void aGapClosesWhenItsValueTimesOut() {
    String c = uri("gap");
    long v1 = inc(c); // issued at 0 s
    elapse(Duration.ofSeconds(2));
    long v2 = inc(c); // issued at 2 s, validates on its own at 12 s
    long v3 = inc(c);
    validate(c, v1);
    validate(c, v3);
    assertThat(highest(c)).isEqualTo(v1);
    elapse(Duration.ofSeconds(10).minus(slack()).minusMillis(1));
    assertThat(highest(c)).isEqualTo(v1);
    elapse(slack().multipliedBy(2).plusMillis(1));
    assertThat(highest(c)).isEqualTo(v3);
  }

  @Test
  public void unvalidatedValuesValidateAfterTheirTimeout() {
    String c = uri("auto");
    long h0 = highest(c);
    long v1 = inc(c);
    elapse(TIMEOUT.minus(slack()).minusMillis(1));
    assertThat(highest(c)).isEqualTo(h0);
    elapse(slack().multipliedBy(2).plusMillis(1));
    assertThat(highest(c)).isEqualTo(v1);
    long v2 = inc(c);
    assertThat(highest(c)).isEqualTo(v1);
    validate(c, v2);
    assertThat(highest(c)).isEqualTo(v2);
    validate(c, v1); // already validated by its timeout: no effect
    assertThat(highest(c)).isEqualTo(v2);
  }

  @Test
  public void timeoutsFollowTheLongestMatchingPrefix() {
    await(counters.setTimeout(uri("p/"), Duration.ofSeconds(5)));
    await(counters.setTimeout(uri("p/slow"), Duration.ofSeconds(20)));
    String fast = uri("p/fast");
    String slow = uri("p/slow/1");
    String suite = uri("q");
    long f = inc(fast);
    long s = inc(slow);
    long q = inc(suite);
    elapse(Duration.ofSeconds(5).plus(slack()));
    assertThat(highest(fast)).isEqualTo(f);
    assertThat(highest(slow)).isLessThan(s);
    assertThat(highest(suite)).isLessThan(q);
    elapse(Duration.ofSeconds(5));
    assertThat(highest(suite)).isEqualTo(q);
    assertThat(highest(slow)).isLessThan(s);
    elapse(Duration.ofSeconds(10));
    assertThat(highest(slow)).isEqualTo(s);
  }

  @Test
  public void validatingAValueNeverIssuedIsABadRequest() {
    String c = uri("never");
    long v = inc(c);
    assertFails(() -> counters.validate(c, v + 1), BadRequestException.class);
    assertFails(() -> counters.validate(c, v + 1000), BadRequestException.class);
    validate(c, v);
    validate(c, v);
    assertThat(highest(c)).isEqualTo(v);
  }

  @Test
  public void malformedRequestsFailWithBadRequest() {
    assertFails(() -> counters.setTimeout(uri("x"), Duration.ZERO), BadRequestException.class);
    assertFails(
        () -> counters.setTimeout(uri("x"), Duration.ofMillis(-1)), BadRequestException.class);
    assertFails(() -> counters.setTimeout(uri("x"), null), BadRequestException.class);
    assertFails(() -> counters.increment(""), BadRequestException.class);
    assertFails(() -> counters.highestValidated(null), BadRequestException.class);
    assertFails(() -> counters.validate("", 1), BadRequestException.class);
  }

  // ---- restarts ----

  @Test
  public void afterARestartRequestsAreRefusedThenValuesContinueAboveAllOldOnes() {
    if (!supportsRestart()) {
      return;
    }
    Duration longTimeout = Duration.ofSeconds(30);
    await(counters.setTimeout(uri("long/"), longTimeout));
    String a = uri("a");
    String b = uri("b");
    String l = uri("long/x");
    List<Long> oldA = new ArrayList<>();
    for (int i = 0; i < 5; i++) {
      oldA.add(inc(a));
    }
    validate(a, oldA.get(0));
    validate(a, oldA.get(3));
    long oldB = inc(b);
    long oldL = inc(l);

    restartService();
    assertRefused(() -> counters.increment(a));
    assertRefused(() -> counters.validate(a, oldA.get(1)));
    assertRefused(() -> counters.highestValidated(a));
    assertRefused(() -> counters.increment(uri("fresh")));

    elapse(longTimeout.minus(slack()).minusMillis(1));
    assertRefused(() -> counters.highestValidated(b));

    long newA = afterRefusal(() -> counters.increment(a), longTimeout);
    assertThat(newA).as("new values are above every old one").isGreaterThan(oldA.get(4));
    assertThat(highest(a)).isGreaterThanOrEqualTo(oldA.get(4));
    assertThat(highest(b)).isGreaterThanOrEqualTo(oldB);
    assertThat(highest(l)).isGreaterThanOrEqualTo(oldL);
    assertThat(inc(b)).isGreaterThan(oldB);
    assertThat(inc(l)).isGreaterThan(oldL);
    validate(a, oldA.get(1)); // of an earlier epoch: accepted, no effect
    validate(a, newA);
    assertThat(highest(a)).isEqualTo(newA);
  }

  // ---- randomized, against a model ----

  /**
   * Random increments, validations (in any order) and waits on two counters with different
   * timeouts; after every step the highest validated value must be exactly what the model says (up
   * to the slack), and never go down.
   */
  @Test
  public void randomOperationsMatchAModel() {
    Random rnd = new Random(seed);
    await(counters.setTimeout(uri("m/slow"), Duration.ofSeconds(15)));
    String[] uris = {uri("m/fast"), uri("m/slow")};
    long[] timeouts = {TIMEOUT.toMillis(), 15_000};
    long slack = slack().toMillis();
    List<List<long[]>> issued = new ArrayList<>(); // per counter: {value, issued at, validated}
    long[] base = new long[uris.length];
    long[] lastHighest = new long[uris.length];
    for (int i = 0; i < uris.length; i++) {
      issued.add(new ArrayList<>());
      base[i] = highest(uris[i]);
      lastHighest[i] = base[i];
    }
    long now = 0;
    for (int step = 0; step < 1500; step++) {
      int i = rnd.nextInt(uris.length);
      String c = uris[i];
      List<long[]> values = issued.get(i);
      int op = rnd.nextInt(100);
      if (op < 30) {
        long v = inc(c);
        if (!values.isEmpty()) {
          assertThat(v).isGreaterThan(values.get(values.size() - 1)[0]);
        } else {
          assertThat(v).isGreaterThan(base[i]);
        }
        values.add(new long[] {v, now, 0});
      } else if (op < 55 && !values.isEmpty()) {
        long[] pick = values.get(rnd.nextInt(values.size()));
        validate(c, pick[0]);
        pick[2] = 1;
      } else if (op < 70) {
        long ms = rnd.nextInt(3000);
        elapse(Duration.ofMillis(ms));
        now += ms;
      } else if (op < 75 && !values.isEmpty()) {
        // Jump exactly to the moment some value validates on its own.
        long at = values.get(rnd.nextInt(values.size()))[1] + timeouts[i];
        if (at > now) {
          elapse(Duration.ofMillis(at - now));
          now = at;
        }
      }
      long h = highest(c);
      long lowest = expectedHighest(values, base[i], now, timeouts[i] + slack);
      long highestPossible = expectedHighest(values, base[i], now, timeouts[i] - slack);
      String at = "step " + step + " at " + now + " ms on " + c;
      assertThat(h).as(at).isBetween(lowest, highestPossible);
      assertThat(h).as("never goes down, " + at).isGreaterThanOrEqualTo(lastHighest[i]);
      lastHighest[i] = h;
    }
  }

  /** The largest issued value whose whole prefix is validated or due after {@code timeout}. */
  private static long expectedHighest(List<long[]> values, long base, long now, long timeout) {
    long h = base;
    for (long[] v : values) {
      if (v[2] == 1 || v[1] + timeout <= now) {
        h = v[0];
      } else {
        break;
      }
    }
    return h;
  }

  // ---- concurrency ----

  @Test
  public void concurrentIncrementsAreUniqueAndIncreasingPerThread() throws Exception {
    String c = uri("concurrent");
    int threads = 4;
    int perThread = 250;
    ExecutorService pool = Executors.newFixedThreadPool(threads);
    try {
      CountDownLatch go = new CountDownLatch(1);
      List<Future<List<Long>>> results = new ArrayList<>();
      for (int t = 0; t < threads; t++) {
        results.add(
            pool.submit(
                () -> {
                  go.await();
                  List<Long> mine = new ArrayList<>();
                  for (int i = 0; i < perThread; i++) {
                    long v = inc(c);
                    mine.add(v);
                    validate(c, v);
                  }
                  return mine;
                }));
      }
      go.countDown();
      Set<Long> all = new HashSet<>();
      long max = Long.MIN_VALUE;
      for (Future<List<Long>> r : results) {
        List<Long> mine = r.get(30, TimeUnit.SECONDS);
        assertThat(mine).isSorted().doesNotHaveDuplicates();
        for (long v : mine) {
          assertThat(all.add(v)).as("value %d issued twice", v).isTrue();
          max = Math.max(max, v);
        }
      }
      assertThat(all).hasSize(threads * perThread);
      assertThat(highest(c)).as("every value was validated").isEqualTo(max);
    } finally {
      pool.shutdownNow();
    }
  }

  // ---- idempotent increments ----

  /** Whether the idempotent-increment tests apply to {@link #counters}. */
  protected boolean supportsIdempotentIncrement() {
    return counters instanceof SupportsIdempotentIncrement;
  }

  @Test
  public void aRetryAfterALostReplyReturnsTheIssuedValueAndLeavesNoHole() {
    if (!supportsIdempotentIncrement()) {
      return;
    }
    String c = uri("lost");
    LoseIncrementReplies lose = new LoseIncrementReplies(1);
    SupportsIdempotentIncrement through =
        SupportsIdempotentIncrement.of(Decorators.wrap(counters, lose));
    assertThat(through).as("decorated counters keep the ability").isNotNull();
    long before = highest(c);
    assertFails(() -> through.increment(c, "r-1"), OutcomeUnknownException.class);
    long v = await(through.increment(c, "r-1"));
    assertThat(v).isGreaterThan(before);
    assertThat(await(through.increment(c, "r-1"))).isEqualTo(v);
    validate(c, v);
    assertThat(highest(c)).as("the lost reply's value is the one returned").isEqualTo(v);
    assertNothingInFlight(c);
  }

  @Test
  public void distinctRequestIdsIncrementAndPlainIncrementsMixIn() {
    if (!supportsIdempotentIncrement()) {
      return;
    }
    String c = uri("distinct");
    long a = idem(c, "a");
    long b = idem(c, "b");
    long plain = inc(c);
    assertThat(b).isGreaterThan(a);
    assertThat(plain).isGreaterThan(b);
    assertThat(idem(c, "a")).isEqualTo(a);
    assertThat(idem(c, "b")).isEqualTo(b);
    long a2 = idem(c, "a2");
    assertThat(a2).isGreaterThan(plain);
    for (long v : List.of(a, b, plain, a2)) {
      validate(c, v);
    }
    assertThat(highest(c)).isEqualTo(a2);
    assertNothingInFlight(c);

    String d = uri("other");
    long before = highest(d);
    long da = idem(d, "a");
    assertThat(da).as("the same id on another counter is another request").isGreaterThan(before);
    validate(d, da);
    assertThat(highest(d)).isEqualTo(da);
    assertThat(idem(c, "a")).isEqualTo(a);
  }

  @Test
  public void aValueAwaitingValidationIsRememberedHoweverManyIncrementsFollow() {
    if (!supportsIdempotentIncrement()) {
      return;
    }
    String c = uri("held");
    long held = idem(c, "held");
    long last = held;
    for (int i = 0; i < 3 * SupportsIdempotentIncrement.REMEMBERED; i++) {
      last = idem(c, "other-" + i);
      validate(c, last);
    }
    assertThat(idem(c, "held")).isEqualTo(held);
    validate(c, held);
    assertThat(highest(c)).isEqualTo(last);
    assertNothingInFlight(c);
  }

  @Test
  public void theLastRememberedRequestIdsOutliveTheirValidation() {
    if (!supportsIdempotentIncrement()) {
      return;
    }
    String c = uri("window");
    int n = SupportsIdempotentIncrement.REMEMBERED;
    List<Long> values = new ArrayList<>();
    for (int i = 0; i < 2 * n; i++) {
      long v = idem(c, "w-" + i);
      validate(c, v);
      values.add(v);
    }
    elapse(TIMEOUT.plus(slack()));
    for (int i = n; i < 2 * n; i++) {
      assertThat(idem(c, "w-" + i)).as("request w-" + i).isEqualTo(values.get(i));
    }
    assertThat(highest(c)).as("the retries issued nothing").isEqualTo(values.get(2 * n - 1));
    assertNothingInFlight(c);
  }

  @Test
  public void concurrentRetriesOfOneRequestIssueOneValue() throws Exception {
    if (!supportsIdempotentIncrement()) {
      return;
    }
    String c = uri("retries");
    int threads = 4;
    int requests = 50;
    ExecutorService pool = Executors.newFixedThreadPool(threads);
    try {
      CountDownLatch go = new CountDownLatch(1);
      List<Future<List<Long>>> results = new ArrayList<>();
      for (int t = 0; t < threads; t++) {
        results.add(
            pool.submit(
                () -> {
                  go.await();
                  List<Long> mine = new ArrayList<>();
                  for (int r = 0; r < requests; r++) {
                    mine.add(idem(c, "req-" + r));
                  }
                  return mine;
                }));
      }
      go.countDown();
      List<Long> first = results.get(0).get(30, TimeUnit.SECONDS);
      for (Future<List<Long>> r : results) {
        assertThat(r.get(30, TimeUnit.SECONDS)).as("one value per request").isEqualTo(first);
      }
      assertThat(first).doesNotHaveDuplicates();
      for (long v : first) {
        validate(c, v);
      }
      assertThat(highest(c))
          .isEqualTo(first.stream().mapToLong(Long::longValue).max().orElseThrow());
      assertNothingInFlight(c);
    } finally {
      pool.shutdownNow();
    }
  }

  /** What holds across a restart: the counters' memory goes with them, nothing is held back. */
  @Test
  public void aRetryAfterARestartIssuesANewValueAboveTheLostOne() {
    if (!supportsIdempotentIncrement() || !supportsRestart()) {
      return;
    }
    String c = uri("restart");
    SupportsIdempotentIncrement idem = SupportsIdempotentIncrement.of(counters);
    long v = idem(c, "r");
    restartService();
    assertRefused(() -> idem.increment(c, "r"));
    long after = afterRefusal(() -> idem.increment(c, "r"), TIMEOUT);
    assertThat(after).isGreaterThan(v);
    assertThat(highest(c)).as("the first value validated on its own").isGreaterThanOrEqualTo(v);
    assertThat(idem(c, "r")).isEqualTo(after);
  }

  @Test
  public void malformedRequestIdsFailWithBadRequest() {
    if (!supportsIdempotentIncrement()) {
      return;
    }
    SupportsIdempotentIncrement idem = SupportsIdempotentIncrement.of(counters);
    String c = uri("bad");
    String longest = "x".repeat(SupportsIdempotentIncrement.MAX_REQUEST_ID_LENGTH);
    for (String bad : Arrays.asList(null, "", "a b", "\u00e9t\u00e9", "tab\t", longest + "x")) {
      assertFails(() -> idem.increment(c, bad), BadRequestException.class);
    }
    assertFails(() -> idem.increment("", "ok"), BadRequestException.class);
    long v = idem(c, longest);
    assertThat(idem(c, longest)).isEqualTo(v);
    validate(c, v);
    assertThat(highest(c)).as("refused requests issued nothing").isEqualTo(v);
  }

  /** A fresh value validated at once is the highest: no value of {@code c} is in flight. */
  private void assertNothingInFlight(String c) {
    long next = inc(c);
    validate(c, next);
    assertThat(highest(c)).as("no value of " + c + " in flight").isEqualTo(next);
  }

  /** Loses the replies of the next increments: each takes effect, the caller is told "unknown". */
  private static final class LoseIncrementReplies implements CallInterceptor {
    private final AtomicInteger remaining;

    LoseIncrementReplies(int n) {
      this.remaining = new AtomicInteger(n);
    }

    @Override
    public <T> CompletableFuture<T> intercept(
        Call<T> call, Supplier<CompletableFuture<T>> proceed) {
      if (call.operation() != Operation.COUNTER_INCREMENT
          || remaining.getAndUpdate(n -> Math.max(0, n - 1)) == 0) {
        return proceed.get();
      }
      return proceed
          .get()
          .handle(
              (v, e) -> {
                throw new OutcomeUnknownException("injected: the increment's reply was lost");
              });
    }
  }

  // ---- helpers ----

  protected long idem(String uri, String requestId) {
    return await(SupportsIdempotentIncrement.of(counters).increment(uri, requestId));
  }

  protected long inc(String uri) {
    return await(counters.increment(uri));
  }

  protected void validate(String uri, long value) {
    await(counters.validate(uri, value));
  }

  protected long highest(String uri) {
    return await(counters.highestValidated(uri));
  }
}
