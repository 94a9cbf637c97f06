package io.stratus.cloudapi.decorate;

import static io.stratus.cloudapi.Operation.INDEX_CREATE_DOMAIN;
import static io.stratus.cloudapi.Operation.INDEX_DELETE;
import static io.stratus.cloudapi.Operation.INDEX_GET;
import static io.stratus.cloudapi.Operation.INDEX_PUT;
import static io.stratus.cloudapi.Operation.INDEX_PUT_BATCH;
import static io.stratus.cloudapi.Operation.INDEX_QUERY;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import io.stratus.cloudapi.CloudFutures;
import io.stratus.cloudapi.CloudServices;
import io.stratus.cloudapi.IndexItem;
import io.stratus.cloudapi.IndexQuery;
import io.stratus.cloudapi.IndexService;
import io.stratus.cloudapi.Operation;
import io.stratus.cloudapi.OutcomeUnknownException;
import io.stratus.cloudapi.decorate.FaultPlan.Selector;
import io.stratus.cloudapi.inprocess.InProcessCloud;
import io.stratus.cloudapi.time.ManualClock;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * The decorators on the index service: a wrapped bundle keeps it, metering counts its calls and
 * payload bytes and prices them under both tables, the latency profiles give its figures, and
 * faults reach it (a lost reply after the put took effect).
 */
class IndexDecoratorsTest {
  private final ManualClock clock = new ManualClock();
  private final InProcessCloud cloud = InProcessCloud.builder().clock(clock).seed(7).build();

  @Test
  void aWrappedBundleKeepsTheIndexServiceAndMetersAndPricesItsCalls() {
    CloudMeter meter = new CloudMeter();
    CloudServices wrapped = Decorators.wrap(cloud.services(), new MeteringInterceptor(meter));
    assertThat(wrapped.hasIndex()).isTrue();
    IndexService index = wrapped.index();
    CloudFutures.await(index.createDomain("books", Set.of("author")));
    CloudFutures.await(index.put("books", IndexItem.of("b1", "author", "ann"))); // 2+6+3 bytes
    CloudFutures.await(index.put("books", IndexItem.of("b2", "author", "bob")));
    CloudFutures.await(
        index.putBatch(
            "books",
            List.of(IndexItem.of("b3", "author", "cy"), IndexItem.of("b4", "author", "al"))));
    CloudFutures.await(index.get("books", "b1"));
    CloudFutures.await(index.query("books", IndexQuery.on("author").limit(10)));
    CloudFutures.await(index.delete("books", "b2"));

    MeterSnapshot s = meter.snapshot();
    assertThat(s.total(Operation.Service.INDEX).calls()).isEqualTo(7);
    assertThat(s.stats(INDEX_CREATE_DOMAIN).calls()).isEqualTo(1);
    assertThat(s.stats(INDEX_PUT).bytesSent()).isEqualTo(22);
    assertThat(s.stats(INDEX_PUT_BATCH).bytesSent()).isEqualTo(20);
    assertThat(s.stats(INDEX_GET).bytesReceived()).isEqualTo(11);
    assertThat(s.stats(INDEX_QUERY).bytesReceived()).isEqualTo(42); // four items
    assertThat(s.stats(INDEX_DELETE).calls()).isEqualTo(1);

    // 2008 (SimpleDB): 3 writes and 2 reads at $0.000003078726, a batch at 25 times that, a
    // domain at $0.000778263892.
    PriceTable paper = PriceTables.paper2008().withoutTransfer();
    assertThat(s.costBreakdown(paper).get(PriceTables.INDEX_WRITES))
        .isEqualByComparingTo("0.000009236178");
    assertThat(s.costBreakdown(paper).get(PriceTables.INDEX_BATCHES))
        .isEqualByComparingTo("0.00007696815");
    assertThat(s.costBreakdown(paper).get(PriceTables.INDEX_READS))
        .isEqualByComparingTo("0.000006157452");
    assertThat(s.costBreakdown(paper).get(PriceTables.INDEX_DOMAINS))
        .isEqualByComparingTo("0.000778263892");
    // 2026 (DynamoDB on-demand): writes two units at $0.625 per million, a batch 50, reads one
    // unit at $0.125 per million, tables free.
    PriceTable aws = PriceTables.aws2026().withoutTransfer();
    assertThat(s.costBreakdown(aws).get(PriceTables.INDEX_WRITES))
        .isEqualByComparingTo("0.00000375");
    assertThat(s.costBreakdown(aws).get(PriceTables.INDEX_BATCHES))
        .isEqualByComparingTo("0.00003125");
    assertThat(s.costBreakdown(aws).get(PriceTables.INDEX_READS))
        .isEqualByComparingTo("0.00000025");
    assertThat(s.cost(aws)).isEqualByComparingTo("0.00003525");
  }

  @Test
  void theLatencyProfilesHaveIndexFiguresForWritesAndReads() {
    assertThat(LatencyProfiles.eu().latency(INDEX_PUT, 100, 0)).isEqualTo(Duration.ofMillis(310));
    assertThat(LatencyProfiles.eu().latency(INDEX_QUERY, 0, 5000))
        .isEqualTo(Duration.ofMillis(160));
    assertThat(LatencyProfiles.ec2().latency(INDEX_PUT_BATCH, 100, 0))
        .isEqualTo(Duration.ofMillis(20));
    assertThat(LatencyProfiles.ec2().latency(INDEX_GET, 0, 100)).isEqualTo(Duration.ofMillis(15));
    assertThat(LatencyProfiles.none().latency(INDEX_GET, 0, 100)).isZero();
  }

  @Test
  void aLostReplyLeavesThePutDoneAndTheOutcomeUnknown() {
    IndexService plain = cloud.services().index();
    CloudFutures.await(plain.createDomain("books", Set.of("author")));
    FaultInterceptor faults =
        new FaultInterceptor(
            FaultPlan.builder().loseReply(Selector.operations(INDEX_PUT), 1.0).build(), 1, clock);
    IndexService index = Decorators.wrap(plain, faults);
    Throwable t =
        catchThrowable(
            () -> CloudFutures.await(index.put("books", IndexItem.of("b1", "author", "ann"))));
    assertThat(t).isInstanceOf(OutcomeUnknownException.class);
    assertThat(CloudFutures.await(plain.get("books", "b1"))).isPresent();
    assertThat(faults.injectedFaults()).hasSize(1);
  }
}
