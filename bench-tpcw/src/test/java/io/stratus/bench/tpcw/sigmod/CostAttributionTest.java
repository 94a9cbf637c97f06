package io.stratus.bench.tpcw.sigmod;

import static org.assertj.core.api.Assertions.assertThat;

import io.stratus.cloudapi.Operation;
import io.stratus.cloudapi.decorate.Call;
import io.stratus.cloudapi.decorate.CloudMeter;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.Test;

/** Calls go to the transaction that started them, or else to the current background meter. */
class CostAttributionTest {
  private final CloudMeter load = new CloudMeter();
  private final CostAttribution attribution = new CostAttribution(load);

  private CompletableFuture<Void> call(Operation op, CompletableFuture<Void> outcome) {
    return attribution.intercept(Call.of(op, "q", 10), () -> outcome);
  }

  @Test
  void callsInsideATransactionAreItsOthersTheBackgrounds() {
    CloudMeter tx = new CloudMeter();
    CloudMeter background = new CloudMeter();
    call(Operation.STORAGE_PUT, CompletableFuture.completedFuture(null));
    attribution.chargeBackgroundTo(background);

    attribution.charge(
        tx, () -> call(Operation.QUEUE_SEND, CompletableFuture.completedFuture(null)));
    call(Operation.QUEUE_RECEIVE, CompletableFuture.completedFuture(null));

    assertThat(load.snapshot().stats(Operation.STORAGE_PUT).calls()).isEqualTo(1);
    assertThat(tx.snapshot().requests()).isEqualTo(1);
    assertThat(tx.snapshot().stats(Operation.QUEUE_SEND).calls()).isEqualTo(1);
    assertThat(background.snapshot().requests()).isEqualTo(1);
    assertThat(background.snapshot().stats(Operation.QUEUE_RECEIVE).calls()).isEqualTo(1);
  }

  /**
   * A call chained on a transaction's call (a resend after creating a missing queue) starts on
   * whichever thread completes the first; it is still the transaction's.
   */
  @Test
  void aCallChainedOnATransactionsCallIsTheTransactions() {
    CloudMeter tx = new CloudMeter();
    CloudMeter background = new CloudMeter();
    attribution.chargeBackgroundTo(background);
    CompletableFuture<Void> pending = new CompletableFuture<>();

    CompletableFuture<Void> chained =
        attribution.charge(
            tx,
            () ->
                call(Operation.QUEUE_CREATE, pending)
                    .thenCompose(
                        v -> call(Operation.QUEUE_SEND, CompletableFuture.completedFuture(null))));
    pending.complete(null); // completes on this thread, outside the transaction

    assertThat(chained).isDone();
    assertThat(tx.snapshot().requests()).isEqualTo(2);
    assertThat(background.snapshot().requests()).isZero();
    call(Operation.QUEUE_DELETE_MESSAGE, CompletableFuture.completedFuture(null));
    assertThat(background.snapshot().requests()).isEqualTo(1); // the mark did not stay behind
  }
}
