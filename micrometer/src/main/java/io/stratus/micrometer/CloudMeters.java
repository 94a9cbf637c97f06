package io.stratus.micrometer;

import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.binder.BaseUnits;
import io.stratus.cloudapi.Operation;
import io.stratus.cloudapi.decorate.CloudMeter;
import io.stratus.cloudapi.decorate.MeterSnapshot;
import io.stratus.cloudapi.decorate.OperationStats;
import io.stratus.cloudapi.decorate.PriceTable;
import java.math.BigDecimal;
import java.util.function.ToDoubleFunction;
import org.jspecify.annotations.Nullable;

/**
 * The cloud meters of {@link StratusMetrics}: calls, failures, bytes and cost per operation, read
 * from one {@link CloudMeter}.
 *
 * <p>Why a shared reading: a scrape reads a few meters per operation, and each would otherwise
 * take a snapshot of all operations. The last snapshot is kept with the meter's call count it was
 * taken at, and taken again only when that count has moved; since the meter counts a call's
 * bytes before the call itself, a reused snapshot lacks nothing of the calls it counts.
 * Thread-safe: the reading is one immutable pair swapped atomically.
 */
final class CloudMeters {
  private final CloudMeter meter;
  private final @Nullable PriceTable prices;
  private final Tags tags;

  /** The last reading; the first, at no count of calls, is never used. */
  private volatile Reading last = new Reading(-1, MeterSnapshot.empty());

  private record Reading(long calls, MeterSnapshot snapshot) {}

  CloudMeters(CloudMeter meter, @Nullable PriceTable prices, Tags tags) {
    this.meter = meter;
    this.prices = prices;
    this.tags = tags;
  }

  void bindTo(MeterRegistry registry) {
    PriceTable prices = this.prices;
    for (Operation op : Operation.values()) {
      Tags opTags =
          Tags.of(
              "service",
              StratusMetrics.tagValue(op.service()),
              "operation",
              StratusMetrics.tagValue(op));
      counter(
          registry,
          StratusMetrics.CLOUD_REQUESTS,
          "cloud calls",
          opTags,
          null,
          s -> s.stats(op).calls());
      counter(
          registry,
          StratusMetrics.CLOUD_FAILURES,
          "cloud calls that failed",
          opTags,
          null,
          s -> s.stats(op).failures());
      if (prices != null) {
        PriceTable.PriceClass pc = prices.priceClass(op);
        counter(
            registry,
            StratusMetrics.CLOUD_COST,
            "what the cloud calls cost",
            opTags.and("price.table", prices.name()),
            StratusMetrics.DOLLARS,
            s -> {
              OperationStats o = s.stats(op);
              long n =
                  pc.billing() == PriceTable.Billing.PER_CALL ? o.calls() : o.requestUnits64KiB();
              return pc.pricePerRequest().multiply(BigDecimal.valueOf(n)).doubleValue();
            });
      }
    }
    Tags sent = Tags.of("direction", "sent");
    Tags received = Tags.of("direction", "received");
    counter(
        registry,
        StratusMetrics.CLOUD_BYTES,
        "payload bytes of cloud calls",
        sent,
        BaseUnits.BYTES,
        s -> s.total().bytesSent());
    counter(
        registry,
        StratusMetrics.CLOUD_BYTES,
        "payload bytes of cloud calls",
        received,
        BaseUnits.BYTES,
        s -> s.total().bytesReceived());
    if (prices != null) {
      Tags table = Tags.of("price.table", prices.name());
      counter(
          registry,
          StratusMetrics.CLOUD_TRANSFER_COST,
          "what the transfer cost",
          sent.and(table),
          StratusMetrics.DOLLARS,
          s -> transferCost(s, prices, PriceTable.TRANSFER_IN));
      counter(
          registry,
          StratusMetrics.CLOUD_TRANSFER_COST,
          "what the transfer cost",
          received.and(table),
          StratusMetrics.DOLLARS,
          s -> transferCost(s, prices, PriceTable.TRANSFER_OUT));
    }
  }

  /** The cost of {@code s}'s transfer one way ({@code part} of its cost breakdown), in dollars. */
  private static double transferCost(MeterSnapshot s, PriceTable prices, String part) {
    return s.costBreakdown(prices).getOrDefault(part, BigDecimal.ZERO).doubleValue();
  }

  private void counter(
      MeterRegistry registry,
      String name,
      String description,
      Tags extra,
      @Nullable String unit,
      ToDoubleFunction<MeterSnapshot> value) {
    // Keyed on the cloud meter; the function keeps this reading (and so the meter) alive.
    FunctionCounter.builder(name, meter, m -> value.applyAsDouble(snapshot()))
        .description(description)
        .baseUnit(unit)
        .tags(tags)
        .tags(extra)
        .register(registry);
  }

  /** The meter's counts, taken again only when calls were counted since the last reading. */
  MeterSnapshot snapshot() {
    long calls = meter.calls();
    Reading r = last;
    if (r.calls() == calls) {
      return r.snapshot();
    }
    MeterSnapshot s = meter.snapshot();
    last = new Reading(calls, s);
    return s;
  }
}
