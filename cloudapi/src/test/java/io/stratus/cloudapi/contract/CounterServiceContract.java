package io.stratus.cloudapi.contract;

import static org.assertj.core.api.Assertions.assertThat;

import io.stratus.cloudapi.BadRequestException;
import io.stratus.cloudapi.CounterService;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
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

  // ---- helpers ----

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
