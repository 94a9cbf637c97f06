package io.stratus.cloudapi.decorate;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.stratus.cloudapi.CloudFutures;
import io.stratus.cloudapi.CloudServices;
import io.stratus.cloudapi.ItemVersion;
import io.stratus.cloudapi.Operation;
import io.stratus.cloudapi.OutcomeUnknownException;
import io.stratus.cloudapi.StoredItem;
import io.stratus.cloudapi.SupportsConditionalPut;
import io.stratus.cloudapi.decorate.FaultPlan.Selector;
import io.stratus.cloudapi.inprocess.InProcessCloud;
import io.stratus.cloudapi.testing.Seed;
import io.stratus.cloudapi.testing.SeedExtension;
import io.stratus.cloudapi.time.ManualClock;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/** The whole decorator stack over the in-process cloud, as simulations will use it. */
@ExtendWith(SeedExtension.class)
class DecoratedInProcessCloudTest {

  @Test
  void latencyFaultsAndMeteringComposeOverTheInProcessCloud(@Seed long seed) {
    ManualClock clock = new ManualClock();
    InProcessCloud inProcess = InProcessCloud.builder().clock(clock).seed(seed).build();
    CloudMeter meter = new CloudMeter();
    FaultInterceptor faults =
        new FaultInterceptor(
            FaultPlan.builder()
                .loseReply(Selector.operations(Operation.STORAGE_PUT).withTargetPrefix("log/"), 1)
                .build(),
            seed,
            clock);
    CloudServices cloud =
        Decorators.wrap(
            inProcess.services(),
            new LatencyInterceptor(LatencyProfiles.eu(), clock),
            faults,
            new MeteringInterceptor(meter));
    assertThat(cloud.storage()).isInstanceOf(SupportsConditionalPut.class);

    CompletableFuture<ItemVersion> page = cloud.storage().put("pages/1", new byte[10], Map.of());
    CompletableFuture<ItemVersion> log = cloud.storage().put("log/1", new byte[10], Map.of());
    clock.advance(Duration.ofMillis(139));
    assertThat(page).isNotDone();
    assertThat(log).isNotDone();
    clock.advance(Duration.ofMillis(1));
    assertThat(page).isCompleted();
    assertThatThrownBy(() -> CloudFutures.await(log)).isInstanceOf(OutcomeUnknownException.class);

    CompletableFuture<Optional<StoredItem>> read = cloud.storage().get("log/1");
    clock.advance(Duration.ofMillis(140));
    assertThat(read.join()).isPresent(); // the lost-reply put took effect

    assertThat(meter.snapshot().stats(Operation.STORAGE_PUT).calls()).isEqualTo(2);
    assertThat(meter.snapshot().stats(Operation.STORAGE_GET).bytesReceived()).isEqualTo(10);
    assertThat(meter.snapshot().cost(PriceTables.paper2008().withoutTransfer()))
        .isEqualByComparingTo("0.000021"); // 2 puts at $0.00001, 1 get at $0.000001
    cloud.close();
  }
}
