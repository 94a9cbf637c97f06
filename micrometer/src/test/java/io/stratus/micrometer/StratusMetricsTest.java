package io.stratus.micrometer;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.stratus.InvalidRequestException;
import io.stratus.cloudapi.CloudServices;
import io.stratus.cloudapi.Operation;
import io.stratus.cloudapi.decorate.CloudMeter;
import io.stratus.cloudapi.decorate.Decorators;
import io.stratus.cloudapi.decorate.MeterSnapshot;
import io.stratus.cloudapi.decorate.MeteringInterceptor;
import io.stratus.cloudapi.decorate.PriceTable;
import io.stratus.cloudapi.decorate.PriceTables;
import io.stratus.cloudapi.inprocess.InProcessCloud;
import io.stratus.core.Database;
import io.stratus.core.DatabaseConfig;
import io.stratus.core.DatabaseStats;
import io.stratus.core.Key;
import io.stratus.protocols.ProtocolKind;
import java.nio.charset.StandardCharsets;
import java.util.Set;
import java.util.TreeSet;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

class StratusMetricsTest {
  private final CloudMeter meter = new CloudMeter();
  private CloudServices cloud;
  private Database db;
  private final SimpleMeterRegistry registry = new SimpleMeterRegistry();

  @BeforeEach
  void open() {
    cloud = Decorators.wrap(InProcessCloud.create().services(), new MeteringInterceptor(meter));
    db =
        Database.open(
            DatabaseConfig.builder(cloud, "db/metrics")
                .protocol(ProtocolKind.BASIC)
                .clientId("client-1")
                .build());
    db.createCollection("books");
  }

  @AfterEach
  void close() {
    db.close();
    cloud.close();
  }

  private void work(int n) {
    for (int i = 0; i < n; i++) {
      long id = i;
      db.run(
          tx -> {
            tx.put("books", Key.of(id), ("book " + id).getBytes(StandardCharsets.UTF_8));
            return null;
          });
      db.read(tx -> tx.read("books", Key.of(id)));
    }
    db.begin().abort();
  }

  private double counter(String name, String... tags) {
    return registry.get(name).tags(tags).functionCounter().count();
  }

  @Test
  void theHandlesCountersAreReadWhenTheRegistryAsks() {
    StratusMetrics.builder(db).build().bindTo(registry);
    work(5);
    DatabaseStats s = db.stats();
    assertThat(counter(StratusMetrics.COMMITS)).isEqualTo(s.commits()).isEqualTo(5); // not reads
    assertThat(counter(StratusMetrics.ABORTS)).isEqualTo(s.aborts()).isPositive();
    assertThat(counter(StratusMetrics.COMMITS_FAILED)).isZero();
    assertThat(counter(StratusMetrics.COMMITS_UNKNOWN)).isZero();
    assertThat(counter(StratusMetrics.CACHE_REQUESTS, "result", "hit"))
        .isEqualTo(s.bufferPool().hits());
    assertThat(registry.get(StratusMetrics.CACHE_PAGES).gauge().value())
        .isEqualTo(s.bufferPool().pagesCached());
    assertThat(registry.get(StratusMetrics.PENDING_OWN_WRITES).gauge().value()).isZero();
    // Every meter names the database and the client.
    for (Meter m : registry.getMeters()) {
      assertThat(m.getId().getTag(StratusMetrics.TAG_DATABASE)).isEqualTo("db/metrics");
      assertThat(m.getId().getTag(StratusMetrics.TAG_CLIENT)).isEqualTo("client-1");
    }
    // No cloud meter given: no cloud meters.
    assertThat(registry.find(StratusMetrics.CLOUD_REQUESTS).meters()).isEmpty();
  }

  @Test
  void cloudRequestsAndTheirCostMatchTheMetersOwnPricing() {
    PriceTable table = PriceTables.paper2008();
    StratusMetrics.builder(db)
        .cloudMeter(meter)
        .priceTable(table)
        .tag("app", "shop")
        .build()
        .bindTo(registry);
    work(5);
    db.admin().checkpointAll();
    MeterSnapshot snap = meter.snapshot();
    assertThat(counter(StratusMetrics.CLOUD_REQUESTS, "operation", "storage_get"))
        .isEqualTo(snap.stats(Operation.STORAGE_GET).calls());
    assertThat(
            counter(
                StratusMetrics.CLOUD_REQUESTS,
                "operation",
                "queue_send_batch",
                "service",
                "simple_queue"))
        .isEqualTo(snap.stats(Operation.QUEUE_SEND_BATCH).calls())
        .isPositive(); // the basic protocol's commits
    double requests =
        registry.find(StratusMetrics.CLOUD_REQUESTS).functionCounters().stream()
            .mapToDouble(FunctionCounter::count)
            .sum();
    assertThat(requests).isEqualTo(snap.requests());
    assertThat(counter(StratusMetrics.CLOUD_BYTES, "direction", "sent"))
        .isEqualTo(snap.total().bytesSent());
    double dollars =
        registry.find(StratusMetrics.CLOUD_COST).functionCounters().stream()
                .mapToDouble(FunctionCounter::count)
                .sum()
            + registry.find(StratusMetrics.CLOUD_TRANSFER_COST).functionCounters().stream()
                .mapToDouble(FunctionCounter::count)
                .sum();
    assertThat(dollars).isPositive().isCloseTo(snap.cost(table).doubleValue(), within(1e-12));
    assertThat(
            registry
                .get(StratusMetrics.CLOUD_COST)
                .tags("price.table", table.name(), "operation", "storage_get")
                .functionCounter()
                .getId()
                .getBaseUnit())
        .isEqualTo(StratusMetrics.DOLLARS);
    // One series per operation, whether called or not; the builder's tag on all.
    assertThat(registry.find(StratusMetrics.CLOUD_REQUESTS).tag("app", "shop").meters())
        .hasSize(Operation.values().length);
  }

  @Test
  void aLaterReadSeesLaterCalls() {
    StratusMetrics.builder(db).cloudMeter(meter).build().bindTo(registry);
    String[] sends = {"operation", "queue_send_batch"};
    double before = counter(StratusMetrics.CLOUD_REQUESTS, sends);
    double again = counter(StratusMetrics.CLOUD_REQUESTS, sends);
    assertThat(again).isEqualTo(before); // the cached reading, unchanged
    work(3);
    assertThat(counter(StratusMetrics.CLOUD_REQUESTS, sends))
        .isEqualTo(meter.snapshot().stats(Operation.QUEUE_SEND_BATCH).calls())
        .isGreaterThan(before);
  }

  @Test
  void everyNameIsUnderTheStratusPrefixAndDistinct() {
    StratusMetrics.builder(db)
        .cloudMeter(meter)
        .priceTable(PriceTables.aws2026())
        .build()
        .bindTo(registry);
    Set<String> names = new TreeSet<>();
    for (Meter m : registry.getMeters()) {
      names.add(m.getId().getName());
    }
    assertThat(names).allMatch(n -> n.startsWith("stratus."));
    assertThat(names)
        .contains(
            StratusMetrics.COMMITS,
            StratusMetrics.COMMITS_UNKNOWN,
            StratusMetrics.BACKGROUND_FAILURES,
            StratusMetrics.CORRUPT_PAGES,
            StratusMetrics.DEAD_LETTERED,
            StratusMetrics.CHECKPOINTS_OWED,
            StratusMetrics.RECORDS_WAITING_FOR_ROOM,
            StratusMetrics.CLOUD_COST,
            StratusMetrics.CLOUD_TRANSFER_COST);
  }

  @Test
  void theBuilderRefusesWhatCannotWork() {
    assertThatThrownBy(() -> StratusMetrics.builder(null))
        .isInstanceOf(InvalidRequestException.class);
    assertThatThrownBy(() -> StratusMetrics.builder(db).priceTable(PriceTables.aws2026()).build())
        .isInstanceOf(InvalidRequestException.class)
        .hasMessageContaining("cloud meter");
    assertThatThrownBy(() -> StratusMetrics.builder(db).tag(StratusMetrics.TAG_CLIENT, "x"))
        .isInstanceOf(InvalidRequestException.class);
  }
}
