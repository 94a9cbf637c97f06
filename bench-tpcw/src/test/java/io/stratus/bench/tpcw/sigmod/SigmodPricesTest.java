package io.stratus.bench.tpcw.sigmod;

import static org.assertj.core.api.Assertions.assertThat;

import io.stratus.cloudapi.Operation;
import io.stratus.cloudapi.decorate.Call;
import io.stratus.cloudapi.decorate.CloudMeter;
import io.stratus.cloudapi.decorate.MeterSnapshot;
import io.stratus.cloudapi.decorate.MeteringInterceptor;
import io.stratus.cloudapi.decorate.PriceTable;
import java.math.BigDecimal;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.Test;

/** Paper 001's prices: what one call of each kind costs. */
class SigmodPricesTest {

  private static MeterSnapshot one(Operation op, long bytesSent) {
    CloudMeter meter = new CloudMeter();
    new MeteringInterceptor(meter)
        .intercept(Call.of(op, "x", bytesSent), () -> CompletableFuture.completedFuture(null));
    return meter.snapshot();
  }

  private static BigDecimal cost(PriceTable prices, Operation op) {
    return one(op, 0).cost(prices);
  }

  @Test
  void storageAndSendsAreChargedPerRequest() {
    PriceTable p = SigmodPrices.paper001();
    assertThat(cost(p, Operation.STORAGE_PUT)).isEqualByComparingTo("0.00001");
    assertThat(cost(p, Operation.STORAGE_PUT_IF_VERSION)).isEqualByComparingTo("0.00001");
    assertThat(cost(p, Operation.STORAGE_GET)).isEqualByComparingTo("0.000001");
    assertThat(cost(p, Operation.QUEUE_SEND)).isEqualByComparingTo("0.00001");
    assertThat(cost(p, Operation.QUEUE_SEND_BATCH)).isEqualByComparingTo("0.00001");
  }

  /** The paper prices sending only: its LOCK-queue receive (now the lock service) is free. */
  @Test
  void receivingDeletingAndLockingAreFree() {
    PriceTable p = SigmodPrices.paper001();
    for (Operation op :
        new Operation[] {
          Operation.QUEUE_RECEIVE,
          Operation.QUEUE_DELETE_BATCH,
          Operation.QUEUE_CREATE,
          Operation.LOCK_ACQUIRE_EXCLUSIVE,
          Operation.LOCK_RELEASE,
          Operation.STORAGE_DELETE
        }) {
      assertThat(cost(p, op)).as(op.name()).isZero();
    }
    assertThat(cost(p, Operation.COUNTER_INCREMENT)).isEqualByComparingTo("0.00001");
  }

  @Test
  void transferIsEighteenCentsAGigabyteUnlessOnEc2() {
    MeterSnapshot gb = one(Operation.STORAGE_PUT, 1L << 30);
    assertThat(gb.cost(SigmodPrices.paper001())).isEqualByComparingTo("0.18001");
    assertThat(gb.cost(SigmodPrices.paper001().withoutTransfer())).isEqualByComparingTo("0.00001");
  }

  @Test
  void anotherSqsTariffChangesOnlyTheSends() {
    PriceTable p = SigmodPrices.paper001(new BigDecimal("0.10"));
    assertThat(cost(p, Operation.QUEUE_SEND)).isEqualByComparingTo("0.0001");
    assertThat(cost(p, Operation.STORAGE_PUT)).isEqualByComparingTo("0.00001");
    assertThat(p.name()).contains("0.1");
    assertThat(SigmodPrices.paper001().name()).isEqualTo("paper 001 prices");
  }
}
