package io.stratus.cloudapi.decorate;

import static io.stratus.cloudapi.Operation.COUNTER_INCREMENT;
import static io.stratus.cloudapi.Operation.QUEUE_DELETE_BATCH;
import static io.stratus.cloudapi.Operation.QUEUE_RECEIVE;
import static io.stratus.cloudapi.Operation.QUEUE_SEND;
import static io.stratus.cloudapi.Operation.QUEUE_SEND_BATCH;
import static io.stratus.cloudapi.Operation.STORAGE_DELETE;
import static io.stratus.cloudapi.Operation.STORAGE_GET;
import static io.stratus.cloudapi.Operation.STORAGE_GET_METADATA;
import static io.stratus.cloudapi.Operation.STORAGE_LIST;
import static io.stratus.cloudapi.Operation.STORAGE_PUT;
import static io.stratus.cloudapi.Operation.STORAGE_PUT_IF_ABSENT;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.stratus.cloudapi.CloudServices;
import io.stratus.cloudapi.CounterService;
import io.stratus.cloudapi.Operation;
import io.stratus.cloudapi.QueueMessage;
import io.stratus.cloudapi.SupportsConditionalPut;
import io.stratus.cloudapi.decorate.PriceTable.Billing;
import java.math.BigDecimal;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

class MeteringTest {
  private final CloudMeter meter = new CloudMeter();
  private final CloudServices cloud =
      Decorators.wrap(
          CloudServices.builder()
              .storage(new FakeConditionalStorage())
              .simpleQueues(new FakeQueues())
              .counters(new FakeCounters())
              .build(),
          new MeteringInterceptor(meter));

  /** Storage part of the script: 8 calls, one of them failing. */
  private void storageScript() {
    SupportsConditionalPut storage = SupportsConditionalPut.of(cloud.storage());
    storage.put("a", new byte[1000], Map.of("k", "v")).join(); // sent 1002, 1 unit
    storage.put("b", new byte[100_000], Map.of()).join(); // sent 100,000, 2 units
    storage.get("b").join(); // received 100,000, 2 units
    storage.get("missing").join(); // 1 unit
    storage.getMetadata("a").join(); // received 2 (metadata "k" + "v"), 1 unit
    assertThat(storage.putIfAbsent("a", new byte[1000], Map.of())) // sent 1,000, fails
        .isCompletedExceptionally();
    storage.delete("a").join();
    storage.list("", Optional.empty(), 100).join();
  }

  /** Queue and counter part: 6 calls. */
  private void queueScript() {
    cloud.simpleQueues().send("q", new byte[70_000]).join(); // sent 70,000, 2 units
    cloud.simpleQueues().sendBatch("q", List.of(new byte[1000], new byte[2000])).join(); // 3,000
    List<QueueMessage> got =
        cloud.simpleQueues().receive("q", 10, Duration.ofSeconds(30)).join(); // 73,000, 2 units
    assertThat(got).hasSize(3);
    cloud.simpleQueues().deleteBatch("q", List.of("r1", "r2", "r3")).join();
    cloud.counters().increment("c").join();
    cloud.counters().increment("c").join();
  }

  @Test
  void countsCallsFailuresBytesAndUnitsExactly() {
    storageScript();
    queueScript();
    MeterSnapshot s = meter.snapshot();

    assertThat(s.stats(STORAGE_PUT)).isEqualTo(new OperationStats(2, 0, 101_002, 0, 3));
    assertThat(s.stats(STORAGE_GET)).isEqualTo(new OperationStats(2, 0, 0, 100_000, 3));
    assertThat(s.stats(STORAGE_GET_METADATA)).isEqualTo(new OperationStats(1, 0, 0, 2, 1));
    assertThat(s.stats(STORAGE_PUT_IF_ABSENT)).isEqualTo(new OperationStats(1, 1, 1000, 0, 1));
    assertThat(s.stats(STORAGE_DELETE)).isEqualTo(new OperationStats(1, 0, 0, 0, 1));
    assertThat(s.stats(STORAGE_LIST)).isEqualTo(new OperationStats(1, 0, 0, 0, 1));
    assertThat(s.stats(QUEUE_SEND)).isEqualTo(new OperationStats(1, 0, 70_000, 0, 2));
    assertThat(s.stats(QUEUE_SEND_BATCH)).isEqualTo(new OperationStats(1, 0, 3_000, 0, 1));
    assertThat(s.stats(QUEUE_RECEIVE)).isEqualTo(new OperationStats(1, 0, 0, 73_000, 2));
    assertThat(s.stats(QUEUE_DELETE_BATCH)).isEqualTo(new OperationStats(1, 0, 0, 0, 1));
    assertThat(s.stats(COUNTER_INCREMENT)).isEqualTo(new OperationStats(2, 0, 0, 0, 2));
    assertThat(s.stats(Operation.LOCK_RELEASE)).isEqualTo(OperationStats.ZERO);

    assertThat(s.requests()).isEqualTo(14);
    assertThat(s.total()).isEqualTo(new OperationStats(14, 1, 175_002, 173_002, 18));
    assertThat(s.total(Operation.Service.STORAGE).calls()).isEqualTo(8);
    assertThat(s.total(Operation.Service.SIMPLE_QUEUE).requestUnits64KiB()).isEqualTo(6);
  }

  @Test
  void pricesRequestsExactlyUnderBothTables() {
    storageScript();
    queueScript();
    MeterSnapshot s = meter.snapshot();

    // 2008: 4 put-class requests at $0.01/1,000, 3 gets at $0.01/10,000, 4 SQS calls at
    // $0.01/10,000, 2 counter requests at $0.01/1,000.
    PriceTable paper = PriceTables.paper2008().withoutTransfer();
    assertThat(s.costBreakdown(paper))
        .containsOnlyKeys(
            PriceTables.STORAGE_WRITE,
            PriceTables.STORAGE_READ,
            PriceTables.STORAGE_DELETES,
            PriceTables.SIMPLE_QUEUE,
            PriceTables.ADVANCED,
            PriceTables.MACHINES,
            PriceTables.INDEX_WRITES,
            PriceTables.INDEX_BATCHES,
            PriceTables.INDEX_READS,
            PriceTables.INDEX_DOMAINS,
            PriceTable.TRANSFER_IN,
            PriceTable.TRANSFER_OUT);
    assertThat(s.costBreakdown(paper).get(PriceTables.STORAGE_WRITE))
        .isEqualByComparingTo("0.00004");
    assertThat(s.costBreakdown(paper).get(PriceTables.STORAGE_READ))
        .isEqualByComparingTo("0.000003");
    assertThat(s.costBreakdown(paper).get(PriceTables.STORAGE_DELETES)).isEqualByComparingTo("0");
    assertThat(s.costBreakdown(paper).get(PriceTables.SIMPLE_QUEUE))
        .isEqualByComparingTo("0.000004");
    assertThat(s.costBreakdown(paper).get(PriceTables.ADVANCED)).isEqualByComparingTo("0.00002");
    assertThat(s.cost(paper)).isEqualByComparingTo("0.000067");

    // 2026: 4 put-class at $0.005/1,000, 3 gets at $0.0004/1,000, 6 SQS units (64 KiB each) at
    // $0.40/million, counters free.
    PriceTable aws = PriceTables.aws2026().withoutTransfer();
    assertThat(s.costBreakdown(aws).get(PriceTables.STORAGE_WRITE)).isEqualByComparingTo("0.00002");
    assertThat(s.costBreakdown(aws).get(PriceTables.STORAGE_READ))
        .isEqualByComparingTo("0.0000012");
    assertThat(s.costBreakdown(aws).get(PriceTables.SIMPLE_QUEUE))
        .isEqualByComparingTo("0.0000024");
    assertThat(s.costBreakdown(aws).get(PriceTables.ADVANCED)).isEqualByComparingTo("0");
    assertThat(s.cost(aws)).isEqualByComparingTo("0.0000236");
  }

  @Test
  void pricesTransferPerGibibyteExactly() {
    MeteringInterceptor metering = new MeteringInterceptor(meter);
    // One SQS send moving 1 GiB up and 512 MiB down (made up, to get round numbers).
    metering
        .intercept(
            Call.<String>of(QUEUE_SEND, "q", 1L << 30, r -> 1L << 29),
            () -> CompletableFuture.completedFuture("id"))
        .join();
    MeterSnapshot s = meter.snapshot();
    assertThat(s.stats(QUEUE_SEND).requestUnits64KiB()).isEqualTo(24_576); // 1.5 GiB / 64 KiB

    // 2008: 1 SQS call $0.000001, in 1 GB * $0.10, out 0.5 GB * $0.10.
    Map<String, BigDecimal> paper = s.costBreakdown(PriceTables.paper2008());
    assertThat(paper.get(PriceTable.TRANSFER_IN)).isEqualByComparingTo("0.10");
    assertThat(paper.get(PriceTable.TRANSFER_OUT)).isEqualByComparingTo("0.05");
    assertThat(s.cost(PriceTables.paper2008())).isEqualByComparingTo("0.150001");
    assertThat(s.cost(PriceTables.paper2008().withoutTransfer())).isEqualByComparingTo("0.000001");

    // 2026: 24,576 units * $0.0000004, in free, out 0.5 GB * $0.09.
    Map<String, BigDecimal> aws = s.costBreakdown(PriceTables.aws2026());
    assertThat(aws.get(PriceTables.SIMPLE_QUEUE)).isEqualByComparingTo("0.0098304");
    assertThat(aws.get(PriceTable.TRANSFER_IN)).isEqualByComparingTo("0");
    assertThat(aws.get(PriceTable.TRANSFER_OUT)).isEqualByComparingTo("0.045");
    assertThat(s.cost(PriceTables.aws2026())).isEqualByComparingTo("0.0548304");
  }

  @Test
  void snapshotsSubtractToTheCountsOfAnInterval() {
    storageScript();
    MeterSnapshot afterStorage = meter.snapshot();
    queueScript();
    MeterSnapshot interval = meter.snapshot().minus(afterStorage);

    assertThat(interval.total(Operation.Service.STORAGE)).isEqualTo(OperationStats.ZERO);
    assertThat(interval.requests()).isEqualTo(6);
    assertThat(interval.stats(QUEUE_RECEIVE)).isEqualTo(new OperationStats(1, 0, 0, 73_000, 2));
    assertThat(interval.cost(PriceTables.paper2008().withoutTransfer()))
        .isEqualByComparingTo("0.000024"); // 4 SQS calls + 2 counter requests
    assertThat(meter.snapshot().minus(meter.snapshot())).isEqualTo(MeterSnapshot.empty());
    assertThat(MeterSnapshot.empty().cost(PriceTables.aws2026())).isEqualByComparingTo("0");
  }

  @Test
  void snapshotsAddUpAndMoveBetweenMeters() {
    storageScript();
    MeterSnapshot storage = meter.snapshot();
    queueScript();
    MeterSnapshot all = meter.snapshot();
    MeterSnapshot queue = all.minus(storage);

    assertThat(storage.plus(queue)).isEqualTo(all);
    assertThat(MeterSnapshot.empty().isEmpty()).isTrue();
    assertThat(queue.isEmpty()).isFalse();
    CloudMeter moved = new CloudMeter();
    moved.add(storage);
    moved.add(queue);
    moved.add(MeterSnapshot.empty());
    assertThat(moved.snapshot()).isEqualTo(all);
    assertThat(moved.calls()).isEqualTo(all.requests()).isEqualTo(meter.calls());
  }

  @Test
  void unitsAreSixtyFourKibibyteChunksWithAMinimumOfOne() {
    assertThat(CloudMeter.units64KiB(0)).isEqualTo(1);
    assertThat(CloudMeter.units64KiB(65_536)).isEqualTo(1);
    assertThat(CloudMeter.units64KiB(65_537)).isEqualTo(2);
    assertThat(CloudMeter.units64KiB(1L << 30)).isEqualTo(16_384);
    assertThatThrownBy(() -> CloudMeter.units64KiB(-1))
        .isInstanceOf(IllegalArgumentException.class);
  }

  @Test
  void countsExactlyUnderConcurrentCalls() throws Exception {
    MeteringInterceptor metering = new MeteringInterceptor(meter);
    int threads = 8;
    int perThread = 5_000;
    ExecutorService pool = Executors.newFixedThreadPool(threads);
    try {
      List<Future<?>> done = new ArrayList<>();
      for (int t = 0; t < threads; t++) {
        done.add(
            pool.submit(
                () -> {
                  for (int i = 0; i < perThread; i++) {
                    metering
                        .intercept(
                            Call.<Void>of(STORAGE_PUT, "x", 100),
                            () -> CompletableFuture.completedFuture(null))
                        .join();
                  }
                }));
      }
      for (Future<?> f : done) {
        f.get();
      }
    } finally {
      pool.shutdown();
    }
    assertThat(meter.snapshot().stats(STORAGE_PUT))
        .isEqualTo(new OperationStats(40_000, 0, 4_000_000, 0, 40_000));
  }

  @Test
  void standardTablesPriceEveryOperation() {
    for (PriceTable t : List.of(PriceTables.paper2008(), PriceTables.aws2026())) {
      for (Operation op : Operation.values()) {
        assertThat(t.priceClass(op)).as(t.name() + " " + op).isNotNull();
      }
    }
    assertThat(PriceTables.paper2008().priceClass(Operation.STORAGE_PUT_IF_VERSION).name())
        .isEqualTo(PriceTables.STORAGE_WRITE);
    assertThat(PriceTables.paper2008().priceClass(Operation.STORAGE_GET_IF_MODIFIED_SINCE).name())
        .isEqualTo(PriceTables.STORAGE_READ);
    assertThat(PriceTables.aws2026().priceClass(QUEUE_SEND).billing())
        .isEqualTo(Billing.PER_64KIB_UNIT);
    assertThat(PriceTables.paper2008().priceClass(QUEUE_SEND).billing())
        .isEqualTo(Billing.PER_CALL);
    assertThat(PriceTables.paper2008().priceClass(Operation.LOCK_ACQUIRE_SHARED).pricePerRequest())
        .isEqualByComparingTo("0.00001");
    assertThat(PriceTables.aws2026().transferInPerGb()).isEqualByComparingTo("0");
    assertThat(PriceTables.aws2026().transferOutPerGb()).isEqualByComparingTo("0.09");
    assertThat(PriceTables.aws2026().withoutTransfer().transferOutPerGb())
        .isEqualByComparingTo("0");
  }

  @Test
  void priceTableBuilderRejectsInvalidSettings() {
    Operation[] others =
        java.util.Arrays.stream(Operation.values())
            .filter(op -> op != STORAGE_PUT)
            .toArray(Operation[]::new);
    assertThatThrownBy(() -> PriceTable.builder("t").free("rest", others).build())
        .isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("STORAGE_PUT");
    assertThatThrownBy(
            () -> PriceTable.builder("t").priceClass("x", "1", 3, Billing.PER_CALL, STORAGE_PUT))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("exact");
    assertThatThrownBy(
            () -> PriceTable.builder("t").priceClass("x", "-1", 1, Billing.PER_CALL, STORAGE_PUT))
        .isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(
            () -> PriceTable.builder("t").priceClass("x", "1", 0, Billing.PER_CALL, STORAGE_PUT))
        .isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> PriceTable.builder("t").free("a", STORAGE_PUT).free("b", STORAGE_PUT))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("already priced");
    assertThatThrownBy(() -> PriceTable.builder("t").free("a", STORAGE_PUT).free("a", STORAGE_GET))
        .isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> PriceTable.builder("t").free(PriceTable.TRANSFER_IN, STORAGE_GET))
        .isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> PriceTable.builder("t").transferPerGb("-0.1", "0"))
        .isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> PriceTable.builder(" ")).isInstanceOf(IllegalArgumentException.class);
  }

  /** Counters that count up; enough for metering. */
  private static final class FakeCounters implements CounterService {
    private final AtomicLong value = new AtomicLong();

    @Override
    public CompletableFuture<Void> setTimeout(String uriPrefix, Duration timeout) {
      return CompletableFuture.completedFuture(null);
    }

    @Override
    public CompletableFuture<Long> increment(String uri) {
      return CompletableFuture.completedFuture(value.incrementAndGet());
    }

    @Override
    public CompletableFuture<Void> validate(String uri, long v) {
      return CompletableFuture.completedFuture(null);
    }

    @Override
    public CompletableFuture<Long> highestValidated(String uri) {
      return CompletableFuture.completedFuture(value.get());
    }
  }
}
