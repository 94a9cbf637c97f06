package io.stratus.cloudapi.inprocess;

import static org.assertj.core.api.Assertions.assertThat;

import io.stratus.cloudapi.IndexItem;
import io.stratus.cloudapi.IndexLimits;
import io.stratus.cloudapi.IndexQuery;
import io.stratus.cloudapi.IndexService;
import io.stratus.cloudapi.ServiceUnavailableException;
import io.stratus.cloudapi.contract.IndexServiceContract;
import io.stratus.cloudapi.time.ManualClock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * The index contract on the in-process cloud with strongly consistent queries, plus what only the
 * in-process index promises (its configuration). The nested classes run the same tests with a
 * query lag and with throttling, and check the lag and the throttle exactly on the manual clock.
 * Small limits make every limit cheap to exceed.
 */
class InProcessIndexContractTest extends IndexServiceContract {
  static final IndexLimits SMALL_LIMITS =
      IndexLimits.builder()
          .maxItemNameLength(64)
          .maxAttributeValueLength(100)
          .maxAttributesPerItem(20)
          .maxItemSize(1000)
          .maxQueryAttributes(4)
          .maxBatchSize(25)
          .maxPageSize(100)
          .build();

  protected final ManualClock clock = new ManualClock();
  protected InProcessCloud cloud;

  @Override
  protected IndexService newIndex(long seed) {
    cloud =
        InProcessCloud.builder()
            .clock(clock)
            .seed(seed)
            .indexLimits(SMALL_LIMITS)
            .indexBehavior(behavior())
            .build();
    return cloud.services().index();
  }

  @Override
  protected void elapse(Duration d) {
    clock.advance(d);
  }

  IndexBehavior behavior() {
    return IndexBehavior.strong();
  }

  @Test
  void theServiceReportsItsConfiguration() {
    assertThat(index.limits()).isSameAs(SMALL_LIMITS);
    assertThat(index.isStronglyConsistent()).isEqualTo(behavior().isStronglyConsistent());
  }
}

/** The same contract with queries that lag two seconds behind the writes, and the exact lag. */
class InProcessLaggingIndexContractTest extends InProcessIndexContractTest {
  static final Duration LAG = Duration.ofSeconds(2);

  @Override
  IndexBehavior behavior() {
    return IndexBehavior.eventual(LAG);
  }

  @Override
  protected Duration queryLag() {
    return LAG;
  }

  @Test
  void aQuerySeesExactlyTheWritesCompletedOneLagAgo() {
    await(index.put(domain, IndexItem.of("a", KEY, "1")));
    clock.advance(Duration.ofSeconds(1));
    await(index.put(domain, IndexItem.of("a", KEY, "2")));
    await(index.put(domain, IndexItem.of("b", KEY, "3")));
    assertThat(await(index.query(domain, IndexQuery.on(KEY))).items()).as("before").isEmpty();
    assertThat(await(index.get(domain, "a")))
        .as("gets are current")
        .contains(IndexItem.of("a", KEY, "2"));
    clock.advance(Duration.ofSeconds(1));
    assertThat(await(index.query(domain, IndexQuery.on(KEY))).items())
        .as("the first put only")
        .containsExactly(IndexItem.of("a", KEY, "1"));
    clock.advance(Duration.ofSeconds(1));
    assertThat(await(index.query(domain, IndexQuery.on(KEY))).items())
        .containsExactly(IndexItem.of("a", KEY, "2"), IndexItem.of("b", KEY, "3"));
    await(index.delete(domain, "a"));
    assertThat(names(await(index.query(domain, IndexQuery.on(KEY))).items()))
        .as("the delete lags too")
        .containsExactly("a", "b");
    clock.advance(LAG);
    assertThat(names(await(index.query(domain, IndexQuery.on(KEY))).items())).containsExactly("b");
  }
}

/** The same contract on domains that throttle beyond 1,000 writes per second, and the throttle. */
class InProcessThrottledIndexContractTest extends InProcessIndexContractTest {
  @Override
  IndexBehavior behavior() {
    return IndexBehavior.strong().throttled(1000);
  }

  @Test
  void writesBeyondTheRateAreRefusedUntilTheNextSecond() {
    ManualClock at = new ManualClock(Instant.ofEpochSecond(100, 250_000_000));
    IndexService throttled =
        InProcessCloud.builder()
            .clock(at)
            .seed(seed)
            .indexBehavior(IndexBehavior.strong().throttled(3))
            .build()
            .services()
            .index();
    await(throttled.createDomain("dom", Set.of(KEY)));
    await(throttled.put("dom", IndexItem.of("a", KEY, "1")));
    await(
        throttled.putBatch(
            "dom", List.of(IndexItem.of("b", KEY, "1"), IndexItem.of("c", KEY, "1"))));
    ServiceUnavailableException e =
        assertFails(() -> throttled.delete("dom", "a"), ServiceUnavailableException.class);
    assertThat(e.retryAfter()).contains(Duration.ofMillis(750));
    assertThat(await(throttled.get("dom", "a"))).as("no effect").isPresent();
    at.advance(Duration.ofMillis(750));
    await(throttled.delete("dom", "a"));
    assertThat(await(throttled.get("dom", "a"))).isEmpty();
  }
}
