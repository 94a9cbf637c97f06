package io.stratus.cloudapi.contract;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import io.stratus.cloudapi.CloudFutures;
import io.stratus.cloudapi.ServiceUnavailableException;
import io.stratus.cloudapi.testing.Seed;
import io.stratus.cloudapi.testing.SeedExtension;
import java.lang.reflect.Method;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.function.Supplier;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.TestInfo;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * What the six contract suites share: the test's seed, per-test unique URI prefixes, the clock
 * hooks, and assertions about the futures the Cloud API returns.
 *
 * <p>Why a base class rather than a utility: each suite is subclassed once per implementation (the
 * in-process cloud here, the AWS and ZooKeeper adapters through this module's test-jar), and the
 * helpers must be members that the suites and the adapters' own extra tests call unqualified, next
 * to the hooks ({@link #elapse}, {@link #clockSlack()}) they are written against. JUnit runs this
 * class's {@code @BeforeEach} before any suite's, so {@link #seed} and {@link #testName()} are set
 * when a suite creates its service.
 *
 * <p>Every URI a test uses comes from {@link #uri}, under a per-test prefix that the suite names
 * ({@link #newPrefix()}), so that real services can share a bucket, a queue namespace or an
 * ensemble between tests and runs.
 *
 * <p>A failure is reported by failing the returned future, never by a throw; {@link #assertFails}
 * checks both, and {@link #await} rethrows the failure unwrapped, as {@link CloudFutures#await}.
 */
@ExtendWith(SeedExtension.class)
public abstract class ContractSupport {
  /** The test's seed, for randomized tests and for subclasses; set before any suite's set-up. */
  protected long seed;

  private String testName = "test";
  private String prefix = "";

  @BeforeEach
  public void setUpContractSupport(@Seed long seed, TestInfo info) {
    this.seed = seed;
    this.testName = info.getTestMethod().map(Method::getName).orElse("test");
    this.prefix = newPrefix();
  }

  /**
   * Lets {@code d} pass on the service's clock: advances a manual clock, or waits on a real
   * service.
   */
  protected abstract void elapse(Duration d);

  /**
   * How far the service's view of time may differ from the test's: zero (the default) for a manual
   * clock that {@link #elapse} moves. Suites that check time boundaries widen them by it, and make
   * checks right at a boundary only when it is zero.
   */
  protected Duration clockSlack() {
    return Duration.ZERO;
  }

  /** {@link #clockSlack()}, short for the boundary arithmetic of the tests. */
  protected Duration slack() {
    return clockSlack();
  }

  /**
   * The URI prefix of one test, chosen once before the suite's set-up (when {@link #seed} and
   * {@link #testName()} are known): each suite names its own, within what its real services accept.
   * The default is {@code uniquePrefix("ct-", "-")}.
   */
  protected String newPrefix() {
    return uniquePrefix("ct-", "-");
  }

  /**
   * A URI (or queue URI, or URI prefix) under this test's prefix, which keeps tests that share one
   * backend apart; {@code uri("")} is the prefix itself.
   */
  protected String uri(String name) {
    return prefix + name;
  }

  /** The name of the running test method ("test" outside one). */
  protected final String testName() {
    return testName;
  }

  /**
   * A URI prefix unique to this test run: {@code head}, the test method's name, a dash, eight
   * random hex digits and {@code end}. So tests that share one backend (one ZooKeeper ensemble)
   * never see each other's state, even when a seed is replayed.
   */
  protected final String uniquePrefix(String head, String end) {
    return head + testName + "-" + UUID.randomUUID().toString().substring(0, 8) + end;
  }

  /** Waits for the call's future; its failure is rethrown unwrapped. */
  protected static <T> T await(CompletionStage<T> f) {
    return CloudFutures.await(f);
  }

  /** Asserts that the call fails its future (rather than throwing) with {@code type}. */
  protected static <T extends Throwable> T assertFails(
      Supplier<? extends CompletableFuture<?>> call, Class<T> type) {
    CompletableFuture<?> f;
    try {
      f = call.get();
    } catch (RuntimeException e) {
      throw new AssertionError("the call threw " + e + " instead of failing its future", e);
    }
    Throwable t = catchThrowable(() -> CloudFutures.await(f));
    assertThat(t).isInstanceOf(type);
    return type.cast(t);
  }

  /** Asserts that the call is refused as unavailable, with a positive retry-after if any. */
  protected static ServiceUnavailableException assertRefused(
      Supplier<? extends CompletableFuture<?>> call) {
    ServiceUnavailableException e = assertFails(call, ServiceUnavailableException.class);
    e.retryAfter().ifPresent(d -> assertThat(d).isPositive());
    return e;
  }

  /**
   * Lets time pass just beyond the end of a refusal period and returns the call's answer. Waits
   * the slack (at least 1 ms) first, then as long as the service says (or {@code fallback}) while
   * it still refuses: its longest timeout may exceed the ones the suite set (its default, or one
   * configured elsewhere on a shared backend).
   */
  protected <T> T afterRefusal(Supplier<CompletableFuture<T>> call, Duration fallback) {
    Duration wait = slack().multipliedBy(2).plusMillis(1);
    for (int attempt = 0; ; attempt++) {
      elapse(wait);
      try {
        return await(call.get());
      } catch (ServiceUnavailableException e) {
        assertThat(attempt).as("still refusing after many waits").isLessThan(20);
        wait = e.retryAfter().orElse(fallback);
      }
    }
  }

  protected static byte[] bytes(String s) {
    return s.getBytes(StandardCharsets.UTF_8);
  }
}
