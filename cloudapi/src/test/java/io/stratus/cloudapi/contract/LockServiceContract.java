package io.stratus.cloudapi.contract;

import static org.assertj.core.api.Assertions.assertThat;

import io.stratus.cloudapi.BadRequestException;
import io.stratus.cloudapi.LockGrant;
import io.stratus.cloudapi.LockMode;
import io.stratus.cloudapi.LockService;
import io.stratus.cloudapi.ServiceUnavailableException;
import io.stratus.cloudapi.SupportsIntentionLocks;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * What every {@link LockService} must do (paper 000, sections 2.3.5 and 6.5), checked through the
 * interface only, so that the in-process service and the ZooKeeper adapter run the same suite.
 *
 * <p>A subclass supplies a fresh service per test, a way to let time pass on the service's clock
 * and, if it can, a way to make the service fail and restart ({@link #supportsRestart()}; when
 * false, the restart tests pass without checking anything). Every URI a test uses starts with a
 * per-test prefix ({@link #uri}) whose timeout the suite sets to {@link #TIMEOUT}.
 *
 * <p>Insert intentions ({@link SupportsIntentionLocks}) are checked when the service has the
 * ability ({@link #supportsIntentionLocks()}): their compatibility, the mode a holder gets when it
 * asks for another one, leases, release and restarts; the randomized test then draws them too.
 *
 * <p>Lock stamps ({@link io.stratus.cloudapi.SupportsLockStamps}) are checked when the service
 * has the ability, by the tests inherited from {@link LockStampContract}.
 *
 * <p>Holding is judged as a client must judge it ({@link LockGrant}): from the moment it sent the
 * request plus {@code validFor}. A backend whose clock is not the one {@link #elapse} moves widens
 * every boundary by {@link #clockSlack()}. The shared hooks and helpers, such as {@link
 * #assertRefused} and {@link #afterRefusal}, are in {@link ContractSupport}.
 */
public abstract class LockServiceContract extends LockStampContract {
  /** A fresh service for one test. */
  protected abstract LockService newLocks(long seed);

  /** Whether {@link #restartService()} works; restart tests check nothing when false. */
  @Override
  protected boolean supportsRestart() {
    return true;
  }

  /**
   * Whether the service has insert intentions; the intention tests check nothing when false. The
   * default asks the service ({@code instanceof}).
   */
  @Override
  protected boolean supportsIntentionLocks() {
    return locks instanceof SupportsIntentionLocks;
  }

  /** URIs unique to this test run; the set-up sets their timeout to {@link #TIMEOUT}. */
  @Override
  protected String newPrefix() {
    return uniquePrefix("ct-lock-", "/");
  }

  @BeforeEach
  public void setUpLockContract() {
    this.locks = newLocks(seed);
    await(locks.setTimeout(uri(""), TIMEOUT));
  }

  @AfterEach
  public void tearDownLockContract() {
    if (locks != null) {
      locks.close();
    }
  }

  // ---- modes ----

  @Test
  public void exclusiveLockExcludesEveryOtherLock() {
    String u = uri("x");
    LockGrant g = x(u, "A");
    assertThat(g.granted()).isTrue();
    assertThat(g.mode()).isEqualTo(LockMode.EXCLUSIVE);
    assertThat(g.validFor()).isEqualTo(TIMEOUT);

    assertThat(x(u, "B").granted()).isFalse();
    assertThat(s(u, "B").granted()).isFalse();
    // Another URI is independent.
    assertThat(x(uri("y"), "B").granted()).isTrue();
  }

  @Test
  public void sharedLocksCoexistAndExcludeExclusive() {
    String u = uri("s");
    for (String c : List.of("A", "B", "C")) {
      LockGrant g = s(u, c);
      assertThat(g.granted()).isTrue();
      assertThat(g.mode()).isEqualTo(LockMode.SHARED);
    }
    assertThat(x(u, "D").granted()).isFalse();
    assertThat(x(u, "A").granted()).as("no upgrade while others share").isFalse();

    assertThat(release(u, "B")).isTrue();
    assertThat(release(u, "C")).isTrue();
    LockGrant up = x(u, "A");
    assertThat(up.granted()).isTrue();
    assertThat(up.mode()).isEqualTo(LockMode.EXCLUSIVE);
    assertThat(s(u, "D").granted()).isFalse();
  }

  @Test
  public void soleSharedHolderUpgradesToExclusive() {
    String u = uri("up");
    assertThat(s(u, "A").granted()).isTrue();
    LockGrant g = x(u, "A");
    assertThat(g.granted()).isTrue();
    assertThat(g.mode()).isEqualTo(LockMode.EXCLUSIVE);
    assertThat(s(u, "B").granted()).isFalse();
    assertThat(x(u, "B").granted()).isFalse();
  }

  @Test
  public void exclusiveHolderAskingForSharedKeepsExclusiveRenewed() {
    String u = uri("xs");
    assertThat(x(u, "A").granted()).isTrue();
    elapse(Duration.ofSeconds(6));
    LockGrant g = s(u, "A");
    assertThat(g.granted()).isTrue();
    assertThat(g.mode()).isEqualTo(LockMode.EXCLUSIVE);
    assertThat(s(u, "B").granted()).isFalse();

    elapse(Duration.ofSeconds(6)); // 12 s after the grant, 6 s after the renewal
    assertThat(s(u, "B").granted()).isFalse();
    elapse(Duration.ofSeconds(4).plus(slack()));
    assertThat(s(u, "B").granted()).isTrue();
  }

  // ---- leases ----

  @Test
  public void reacquiringRenewsForAFullTimeout() {
    String u = uri("renew");
    assertThat(x(u, "A").granted()).isTrue();
    elapse(Duration.ofSeconds(6));
    assertThat(x(u, "A").granted()).isTrue();
    elapse(Duration.ofSeconds(6));
    assertThat(x(u, "B").granted()).isFalse();
    elapse(Duration.ofSeconds(4).plus(slack()));
    assertThat(x(u, "B").granted()).isTrue();
  }

  @Test
  public void leasesLapseAfterTheirTimeout() {
    String u = uri("lapse");
    assertThat(x(u, "A").granted()).isTrue();
    elapse(TIMEOUT.minus(slack()).minusMillis(1));
    assertThat(x(u, "B").granted()).isFalse();
    assertThat(s(u, "B").granted()).isFalse();

    elapse(slack().multipliedBy(2).plusMillis(1));
    assertThat(x(u, "B").granted()).isTrue();
    assertThat(release(u, "A")).as("a lapsed lock is not held").isFalse();
    assertThat(s(u, "C").granted()).as("A's release must not free B's lock").isFalse();
  }

  @Test
  public void sharedLeasesLapseIndependently() {
    String u = uri("shared-lapse");
    assertThat(s(u, "A").granted()).isTrue();
    elapse(Duration.ofSeconds(5));
    assertThat(s(u, "B").granted()).isTrue();
    elapse(Duration.ofSeconds(5).plus(slack())); // A lapsed, B has 5 s left
    assertThat(x(u, "C").granted()).isFalse();
    LockGrant up = x(u, "B");
    assertThat(up.granted()).as("B is now the only shared holder").isTrue();
    assertThat(up.mode()).isEqualTo(LockMode.EXCLUSIVE);
  }

  @Test
  public void releaseFreesTheLockOnce() {
    String u = uri("rel");
    assertThat(x(u, "A").granted()).isTrue();
    assertThat(release(u, "A")).isTrue();
    assertThat(release(u, "A")).isFalse();
    assertThat(release(u, "C")).isFalse();
    assertThat(x(u, "B").granted()).isTrue();
    assertThat(s(u, "C").granted()).isFalse();
    assertThat(release(uri("never-locked"), "A")).isFalse();

    String v = uri("rel-shared");
    assertThat(s(v, "A").granted()).isTrue();
    assertThat(s(v, "B").granted()).isTrue();
    assertThat(release(v, "A")).isTrue();
    assertThat(x(v, "C").granted()).isFalse();
    assertThat(release(v, "B")).isTrue();
    assertThat(x(v, "C").granted()).isTrue();
  }

  // ---- timeouts ----

  @Test
  public void timeoutsFollowTheLongestMatchingPrefix() {
    await(locks.setTimeout(uri("t/"), Duration.ofSeconds(5)));
    await(locks.setTimeout(uri("t/long"), Duration.ofSeconds(20)));
    assertThat(await(locks.timeoutFor(uri("t/a")))).isEqualTo(Duration.ofSeconds(5));
    assertThat(await(locks.timeoutFor(uri("t/lon")))).isEqualTo(Duration.ofSeconds(5));
    assertThat(await(locks.timeoutFor(uri("t/long")))).isEqualTo(Duration.ofSeconds(20));
    assertThat(await(locks.timeoutFor(uri("t/longer/x")))).isEqualTo(Duration.ofSeconds(20));
    assertThat(await(locks.timeoutFor(uri("t")))).isEqualTo(TIMEOUT);
    assertThat(await(locks.timeoutFor(uri("u/t/long")))).isEqualTo(TIMEOUT);

    String shortUri = uri("t/a");
    String longUri = uri("t/long/b");
    assertThat(x(shortUri, "A").validFor()).isEqualTo(Duration.ofSeconds(5));
    assertThat(x(longUri, "A").validFor()).isEqualTo(Duration.ofSeconds(20));
    elapse(Duration.ofSeconds(5).plus(slack()));
    assertThat(x(shortUri, "B").granted()).isTrue();
    assertThat(x(longUri, "B").granted()).isFalse();
    elapse(Duration.ofSeconds(15));
    assertThat(x(longUri, "B").granted()).isTrue();
  }

  @Test
  public void aChangedTimeoutAppliesToLaterGrants() {
    String u = uri("c/1");
    await(locks.setTimeout(uri("c/"), Duration.ofSeconds(5)));
    assertThat(x(u, "A").validFor()).isEqualTo(Duration.ofSeconds(5));
    await(locks.setTimeout(uri("c/"), Duration.ofSeconds(30)));
    assertThat(await(locks.timeoutFor(u))).isEqualTo(Duration.ofSeconds(30));
    elapse(Duration.ofSeconds(5).plus(slack()));
    LockGrant g = x(u, "B");
    assertThat(g.granted()).isTrue();
    assertThat(g.validFor()).isEqualTo(Duration.ofSeconds(30));
  }

  @Test
  public void malformedRequestsFailWithBadRequest() {
    String u = uri("bad");
    assertFails(() -> locks.setTimeout(uri("p"), Duration.ZERO), BadRequestException.class);
    assertFails(
        () -> locks.setTimeout(uri("p"), Duration.ofSeconds(-1)), BadRequestException.class);
    assertFails(() -> locks.setTimeout(uri("p"), null), BadRequestException.class);
    assertFails(() -> locks.acquireExclusive(u, ""), BadRequestException.class);
    assertFails(() -> locks.acquireShared(u, null), BadRequestException.class);
    assertFails(() -> locks.release(u, ""), BadRequestException.class);
    assertFails(() -> locks.acquireExclusive("", "A"), BadRequestException.class);
    assertFails(() -> locks.timeoutFor(""), BadRequestException.class);
  }

  // ---- restarts ----

  @Test
  public void afterARestartAcquiresAreRefusedForTheLongestTimeout() {
    if (!supportsRestart()) {
      return;
    }
    String u = uri("r");
    Duration longTimeout = Duration.ofSeconds(30);
    await(locks.setTimeout(uri("r-long"), longTimeout));
    Duration longest = max(max(defaultTimeout(), longTimeout), TIMEOUT);
    assertThat(x(u, "A").granted()).isTrue();

    restartService();
    assertRefused(() -> locks.acquireExclusive(u, "B"));
    assertRefused(() -> locks.acquireShared(u, "C"));
    assertRefused(() -> locks.acquireExclusive(u, "A"));
    assertRefused(() -> locks.acquireExclusive(uri("other"), "A"));
    assertThat(await(locks.timeoutFor(uri("r-long/x"))))
        .as("timeouts survive")
        .isEqualTo(longTimeout);

    elapse(longest.minus(slack()).minusMillis(1));
    assertRefused(() -> locks.acquireShared(u, "B"));

    LockGrant g = afterRefusal(() -> locks.acquireExclusive(u, "B"), longest);
    assertThat(g.granted()).as("the lock held before the restart has lapsed").isTrue();
    assertThat(s(u, "A").granted()).isFalse();
  }

  // ---- insert intentions ----

  @Test
  public void intentionsCoexistAndExcludeSharedAndExclusive() {
    if (!supportsIntentionLocks()) {
      return;
    }
    String u = uri("i");
    for (String c : List.of("A", "B", "C")) {
      LockGrant g = i(u, c);
      assertThat(g.granted()).isTrue();
      assertThat(g.mode()).isEqualTo(LockMode.INTENTION);
      assertThat(g.validFor()).isEqualTo(TIMEOUT);
    }
    LockGrant s = s(u, "D");
    assertThat(s.granted()).as("a shared lock while intentions are held").isFalse();
    assertThat(s.mode()).as("a refusal names the mode asked for").isEqualTo(LockMode.SHARED);
    assertThat(x(u, "D").granted()).as("an exclusive lock while intentions are held").isFalse();

    for (String c : List.of("A", "B", "C")) {
      assertThat(release(u, c)).as("release of an intention").isTrue();
    }
    assertThat(release(u, "A")).as("released once").isFalse();
    assertThat(s(u, "D").granted()).isTrue();
    assertThat(s(u, "E").granted()).isTrue();
    LockGrant refused = i(u, "F");
    assertThat(refused.granted()).as("an intention while shared locks are held").isFalse();
    assertThat(refused.mode()).isEqualTo(LockMode.INTENTION);
  }

  @Test
  public void intentionsAndExclusiveLocksRefuseEachOther() {
    if (!supportsIntentionLocks()) {
      return;
    }
    String u = uri("ix");
    assertThat(x(u, "A").granted()).isTrue();
    assertThat(i(u, "B").granted()).as("an intention while an exclusive lock is held").isFalse();
    assertThat(release(u, "A")).isTrue();
    assertThat(i(u, "B").granted()).isTrue();
    assertThat(x(u, "A").granted()).as("an exclusive lock while an intention is held").isFalse();
    // Another URI is independent.
    assertThat(x(uri("iy"), "A").granted()).isTrue();
  }

  @Test
  public void askingForAnotherModeThanTheOneHeldGivesBoth() {
    if (!supportsIntentionLocks()) {
      return;
    }
    // The sole shared holder asking for an intention, and the sole intention holder asking for a
    // shared lock, hold exclusive locks: nothing else may join either.
    String si = uri("s-then-i");
    assertThat(s(si, "A").granted()).isTrue();
    LockGrant g = i(si, "A");
    assertThat(g.granted()).isTrue();
    assertThat(g.mode()).isEqualTo(LockMode.EXCLUSIVE);
    assertThat(s(si, "B").granted()).isFalse();
    assertThat(i(si, "B").granted()).isFalse();

    String is = uri("i-then-s");
    assertThat(i(is, "A").granted()).isTrue();
    g = s(is, "A");
    assertThat(g.granted()).isTrue();
    assertThat(g.mode()).isEqualTo(LockMode.EXCLUSIVE);
    assertThat(i(is, "B").granted()).isFalse();
    assertThat(s(is, "B").granted()).isFalse();

    String ix = uri("i-then-x");
    assertThat(i(ix, "A").granted()).isTrue();
    g = x(ix, "A");
    assertThat(g.granted()).as("the sole intention holder upgrades").isTrue();
    assertThat(g.mode()).isEqualTo(LockMode.EXCLUSIVE);
    assertThat(i(ix, "B").granted()).isFalse();

    // An exclusive holder keeps its exclusive lock, renewed.
    String xi = uri("x-then-i");
    assertThat(x(xi, "A").granted()).isTrue();
    elapse(Duration.ofSeconds(6));
    g = i(xi, "A");
    assertThat(g.granted()).isTrue();
    assertThat(g.mode()).isEqualTo(LockMode.EXCLUSIVE);
    elapse(Duration.ofSeconds(6)); // 12 s after the grant, 6 s after the renewal
    assertThat(i(xi, "B").granted()).isFalse();
    elapse(Duration.ofSeconds(4).plus(slack()));
    assertThat(i(xi, "B").granted()).isTrue();
  }

  @Test
  public void anotherModeIsRefusedWhileOthersHoldTheSameAndTheLockHeldStays() {
    if (!supportsIntentionLocks()) {
      return;
    }
    String u = uri("ii");
    assertThat(i(u, "A").granted()).isTrue();
    assertThat(i(u, "B").granted()).isTrue();
    assertThat(x(u, "A").granted()).as("no upgrade while others hold intentions").isFalse();
    assertThat(s(u, "A").granted()).as("shared means exclusive for an intention holder").isFalse();
    assertThat(i(u, "C").granted()).as("A still holds an intention, nothing more").isTrue();
    assertThat(release(u, "A")).as("A's intention survived the refusals").isTrue();

    String v = uri("ss");
    assertThat(s(v, "A").granted()).isTrue();
    assertThat(s(v, "B").granted()).isTrue();
    assertThat(i(v, "A").granted()).as("intention means exclusive for a shared holder").isFalse();
    assertThat(s(v, "C").granted()).as("A still holds a shared lock, nothing more").isTrue();
    assertThat(release(v, "B")).isTrue();
    assertThat(release(v, "C")).isTrue();
    LockGrant g = i(v, "A");
    assertThat(g.granted()).as("now the sole holder").isTrue();
    assertThat(g.mode()).isEqualTo(LockMode.EXCLUSIVE);
  }

  @Test
  public void intentionsLapseAfterTheirTimeoutAndRenew() {
    if (!supportsIntentionLocks()) {
      return;
    }
    String u = uri("i-lapse");
    assertThat(i(u, "A").granted()).isTrue();
    elapse(Duration.ofSeconds(5));
    assertThat(i(u, "B").granted()).isTrue();
    elapse(Duration.ofSeconds(4));
    LockGrant renewed = i(u, "A"); // 9 s after A's grant
    assertThat(renewed.granted()).isTrue();
    assertThat(renewed.mode()).isEqualTo(LockMode.INTENTION);
    elapse(Duration.ofSeconds(6).plus(slack())); // B lapsed; A has 4 s left
    assertThat(s(u, "C").granted()).as("A's renewed intention still holds").isFalse();
    assertThat(release(u, "B")).as("a lapsed intention is not held").isFalse();
    elapse(Duration.ofSeconds(4).plus(slack()));
    assertThat(s(u, "C").granted()).as("every intention lapsed").isTrue();
    assertThat(release(u, "A")).isFalse();
  }

  @Test
  public void afterARestartIntentionsAreRefusedForTheLongestTimeout() {
    if (!supportsIntentionLocks() || !supportsRestart()) {
      return;
    }
    String u = uri("i-r");
    Duration longest = max(defaultTimeout(), TIMEOUT);
    assertThat(i(u, "A").granted()).isTrue();
    assertThat(i(u, "B").granted()).isTrue();

    restartService();
    assertRefused(() -> acquire(LockMode.INTENTION, u, "C"));
    assertRefused(() -> acquire(LockMode.INTENTION, u, "A"));
    assertThat(release(u, "B")).as("the restart lost B's intention").isFalse();
    elapse(longest.minus(slack()).minusMillis(1));
    assertRefused(() -> acquire(LockMode.INTENTION, u, "C"));

    LockGrant g = afterRefusal(() -> locks.acquireExclusive(u, "C"), longest);
    assertThat(g.granted()).as("the intentions held before the restart have lapsed").isTrue();
    assertThat(i(u, "A").granted()).isFalse();
  }

  @Test
  public void concurrentSharedAndIntentionRequestsGrantOneModeOnly() throws Exception {
    if (!supportsIntentionLocks()) {
      return;
    }
    int threads = 8;
    ExecutorService pool = Executors.newFixedThreadPool(threads);
    try {
      for (int round = 0; round < 20; round++) {
        String u = uri("race-si-" + round);
        CountDownLatch go = new CountDownLatch(1);
        List<Future<LockGrant>> results = new ArrayList<>();
        for (int t = 0; t < threads; t++) {
          String client = "t" + t;
          LockMode mode = t % 2 == 0 ? LockMode.SHARED : LockMode.INTENTION;
          results.add(
              pool.submit(
                  () -> {
                    go.await();
                    return await(acquire(mode, u, client));
                  }));
        }
        go.countDown();
        List<LockMode> granted = new ArrayList<>();
        for (Future<LockGrant> r : results) {
          LockGrant g = r.get(30, TimeUnit.SECONDS);
          if (g.granted()) {
            granted.add(g.mode());
          }
        }
        assertThat(granted).as("round " + round).hasSize(threads / 2);
        assertThat(new HashSet<>(granted)).as("round " + round).hasSize(1);
      }
    } finally {
      pool.shutdownNow();
    }
  }

  // ---- randomized safety ----

  /**
   * Several clients acquire, release and wait at random on a few URIs (and the service restarts
   * now and then). After every step, the locks the clients may believe they hold (request time plus
   * validFor, less the slack) never conflict; a refusal must be explained by a lock another client
   * may still hold; upgrade, renewal and release answers follow the interface.
   */
  @Test
  public void randomOperationsNeverGrantConflictingLocks() {
    Random rnd = new Random(seed);
    String[] clients = {"c0", "c1", "c2", "c3"};
    String[] uris = {uri("rs/0"), uri("rs/1"), uri("rs/long")};
    await(locks.setTimeout(uri("rs/"), Duration.ofSeconds(5)));
    await(locks.setTimeout(uri("rs/long"), Duration.ofSeconds(12)));
    long slack = slack().toMillis();
    boolean intentions = supportsIntentionLocks();
    Map<String, Map<String, View>> views = new HashMap<>();
    for (String u : uris) {
      views.put(u, new HashMap<>());
    }
    long now = 0;
    int restarts = 0;
    int grants = 0;
    int refusals = 0;
    for (int step = 0; step < 2000; step++) {
      int op = rnd.nextInt(1000);
      String u = uris[rnd.nextInt(uris.length)];
      String c = clients[rnd.nextInt(clients.length)];
      Map<String, View> onUri = views.get(u);
      View mine = onUri.get(c);
      String at = "step " + step + " at " + now + " ms, " + c + " on " + u;
      if (op < 600) {
        LockMode want =
            op < 300
                ? LockMode.EXCLUSIVE
                : op < 450 || !intentions ? LockMode.SHARED : LockMode.INTENTION;
        CompletableFuture<LockGrant> f = acquire(want, u, c);
        LockGrant g;
        try {
          g = await(f);
        } catch (ServiceUnavailableException e) {
          assertThat(restarts).as("refused as unavailable without a restart, " + at).isPositive();
          if (rnd.nextBoolean()) {
            long wait = e.retryAfter().orElse(Duration.ofSeconds(1)).toMillis();
            elapse(Duration.ofMillis(wait));
            now += wait;
          }
          continue;
        }
        long timeout = u.endsWith("long") ? 12_000 : 5_000;
        assertThat(g.validFor()).as(at).isEqualTo(Duration.ofMillis(timeout));
        boolean conflict = false;
        boolean othersMayHold = false;
        for (Map.Entry<String, View> e : onUri.entrySet()) {
          View v = e.getValue();
          if (!e.getKey().equals(c) && now < v.until + slack) {
            othersMayHold = true;
            conflict |= !v.mode.compatibleWith(want);
          }
        }
        if (mine != null && now < mine.until + slack && mine.mode != want) {
          conflict |= othersMayHold; // asking for another mode than the one held: exclusive
        }
        if (g.granted()) {
          grants++;
          if (want == LockMode.EXCLUSIVE) {
            assertThat(g.mode()).as(at).isEqualTo(LockMode.EXCLUSIVE);
          } else if (mine != null
              && mine.mode != want
              && now < mine.until - slack
              && mine.restarts == restarts) {
            assertThat(g.mode())
                .as("a holder of another mode gets X, " + at)
                .isEqualTo(LockMode.EXCLUSIVE);
          } else if (mine == null || mine.mode == want || now >= mine.until + slack) {
            assertThat(g.mode()).as(at).isEqualTo(want);
          }
          onUri.put(c, new View(g.mode(), now + timeout, restarts));
        } else {
          refusals++;
          assertThat(conflict).as("refused without a conflicting holder, " + at).isTrue();
        }
      } else if (op < 750) {
        boolean released;
        try {
          released = await(locks.release(u, c));
        } catch (ServiceUnavailableException e) {
          continue; // no effect
        }
        if (mine != null && mine.restarts == restarts) {
          if (now < mine.until - slack) {
            assertThat(released).as("release of a held lock, " + at).isTrue();
          } else if (now >= mine.until + slack) {
            assertThat(released).as("release of a lapsed lock, " + at).isFalse();
          }
        } else if (mine == null) {
          assertThat(released).as("release without a lock, " + at).isFalse();
        }
        onUri.remove(c);
      } else if (op < 900) {
        long ms = rnd.nextInt(2500);
        elapse(Duration.ofMillis(ms));
        now += ms;
      } else if (op < 997) {
        // Jump exactly to the end of someone's lease, where off-by-one errors live.
        List<Long> ends = new ArrayList<>();
        for (Map<String, View> m : views.values()) {
          for (View v : m.values()) {
            if (v.until > now) {
              ends.add(v.until);
            }
          }
        }
        if (!ends.isEmpty()) {
          long to = ends.get(rnd.nextInt(ends.size())) + (rnd.nextBoolean() ? 0 : -1);
          if (to > now) {
            elapse(Duration.ofMillis(to - now));
            now = to;
          }
        }
      } else if (supportsRestart() && restarts < 2) {
        restartService();
        restarts++;
      }
      assertNoConflicts(views, now, slack, "after step " + step + " at " + now + " ms");
    }
    assertThat(grants).as("grants").isGreaterThan(200);
    assertThat(refusals).as("refusals").isGreaterThan(20);
  }

  /** Among locks that clients believe they hold, every two on one URI are compatible. */
  private static void assertNoConflicts(
      Map<String, Map<String, View>> views, long now, long slack, String at) {
    for (Map.Entry<String, Map<String, View>> perUri : views.entrySet()) {
      List<LockMode> held = new ArrayList<>();
      for (View v : perUri.getValue().values()) {
        if (now < v.until - slack) {
          held.add(v.mode);
        }
      }
      for (int i = 0; i < held.size(); i++) {
        for (int j = i + 1; j < held.size(); j++) {
          assertThat(held.get(i).compatibleWith(held.get(j)))
              .as("conflicting locks on " + perUri.getKey() + " " + at + ": " + perUri.getValue())
              .isTrue();
        }
      }
    }
  }

  /** A client's belief about its lock: mode and end of lease in test milliseconds. */
  private static final class View {
    final LockMode mode;
    final long until;

    /** How many restarts had happened when it was granted. */
    final int restarts;

    View(LockMode mode, long until, int restarts) {
      this.mode = mode;
      this.until = until;
      this.restarts = restarts;
    }

    @Override
    public String toString() {
      return mode + " until " + until;
    }
  }

  // ---- concurrency ----

  @Test
  public void concurrentExclusiveRequestsGrantExactlyOne() throws Exception {
    int threads = 8;
    ExecutorService pool = Executors.newFixedThreadPool(threads);
    try {
      for (int round = 0; round < 20; round++) {
        String ux = uri("race-x-" + round);
        String us = uri("race-s-" + round);
        CountDownLatch go = new CountDownLatch(1);
        List<Future<boolean[]>> results = new ArrayList<>();
        for (int t = 0; t < threads; t++) {
          String client = "t" + t;
          results.add(
              pool.submit(
                  () -> {
                    go.await();
                    return new boolean[] {x(ux, client).granted(), s(us, client).granted()};
                  }));
        }
        go.countDown();
        int exclusive = 0;
        for (Future<boolean[]> r : results) {
          boolean[] got = r.get(30, TimeUnit.SECONDS);
          exclusive += got[0] ? 1 : 0;
          assertThat(got[1]).as("shared locks never conflict").isTrue();
        }
        assertThat(exclusive).as("round " + round).isEqualTo(1);
      }
    } finally {
      pool.shutdownNow();
    }
  }

  // ---- helpers ----

  /** Asks for {@code mode}; intentions only on a service that has them. */
  protected CompletableFuture<LockGrant> acquire(LockMode mode, String uri, String client) {
    return switch (mode) {
      case SHARED -> locks.acquireShared(uri, client);
      case EXCLUSIVE -> locks.acquireExclusive(uri, client);
      case INTENTION -> SupportsIntentionLocks.of(locks).acquireIntention(uri, client);
    };
  }

  /** An insert intention; only on a service that has them. */
  @Override
  protected LockGrant i(String uri, String client) {
    return await(acquire(LockMode.INTENTION, uri, client));
  }

  @Override
  protected LockGrant x(String uri, String client) {
    return await(locks.acquireExclusive(uri, client));
  }

  protected LockGrant s(String uri, String client) {
    return await(locks.acquireShared(uri, client));
  }

  @Override
  protected boolean release(String uri, String client) {
    return await(locks.release(uri, client));
  }

  /** The service's default timeout: that of a URI under no configured prefix. */
  @Override
  protected Duration defaultTimeout() {
    return await(locks.timeoutFor("ct-lock-unconfigured-" + UUID.randomUUID()));
  }

  protected static Duration max(Duration a, Duration b) {
    return a.compareTo(b) >= 0 ? a : b;
  }
}
