package io.stratus.cloudapi;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.Test;

/** The synchronous helpers over the asynchronous Cloud API. */
class CloudFuturesTest {

  @Test
  void awaitEachWaitsForEveryCallBeforeThrowingTheFirstCloudFailure() {
    CompletableFuture<Void> ok1 = new CompletableFuture<>();
    CompletableFuture<Void> refused = new CompletableFuture<>();
    CompletableFuture<Void> lateFailure = new CompletableFuture<>();
    CompletableFuture<Void> ok2 = new CompletableFuture<>();
    ok1.complete(null);
    refused.completeExceptionally(new ServiceUnavailableException("first"));
    ok2.complete(null);
    List<Integer> succeeded = new ArrayList<>();
    // The third call ends on another thread, whenever it gets there: it must still be waited for.
    new Thread(() -> lateFailure.completeExceptionally(new ServiceUnavailableException("late")))
        .start();

    assertThatThrownBy(
            () -> CloudFutures.awaitEach(List.of(ok1, refused, lateFailure, ok2), succeeded::add))
        .isInstanceOf(ServiceUnavailableException.class)
        .hasMessageContaining("first")
        .satisfies(
            e -> {
              assertThat(e.getSuppressed()).hasSize(1);
              assertThat(e.getSuppressed()[0]).hasMessageContaining("late");
            });
    assertThat(lateFailure).isDone();
    assertThat(succeeded).containsExactly(0, 3);
  }

  @Test
  void awaitEachReturnsWhenEveryCallSucceeded() {
    List<Integer> succeeded = new ArrayList<>();
    CloudFutures.awaitEach(
        List.of(CompletableFuture.completedFuture(1), CompletableFuture.completedFuture(2)),
        succeeded::add);
    assertThat(succeeded).containsExactly(0, 1);
  }
}
