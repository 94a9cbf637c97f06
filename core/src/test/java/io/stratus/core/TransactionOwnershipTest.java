package io.stratus.core;

import static io.stratus.core.Fixture.bytes;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.stratus.ConcurrentTransactionUseException;
import io.stratus.cloudapi.Operation;
import io.stratus.cloudapi.decorate.Call;
import io.stratus.cloudapi.decorate.CallInterceptor;
import io.stratus.cloudapi.testing.Seed;
import io.stratus.cloudapi.testing.SeedExtension;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * A transaction belongs to one thread at a time: a second thread that calls it while the first is
 * inside fails loudly and changes nothing, and the first goes on unharmed.
 */
@ExtendWith(SeedExtension.class)
class TransactionOwnershipTest {
  private static final String ROOT = Fixture.DB + "/c/items/root";

  /** Holds the first storage get of the collection's root until released. */
  static final class HoldFirstRootRead implements CallInterceptor {
    final CountDownLatch entered = new CountDownLatch(1);
    final CountDownLatch release = new CountDownLatch(1);
    private boolean held;

    @Override
    public synchronized <T> CompletableFuture<T> intercept(
        Call<T> call, Supplier<CompletableFuture<T>> proceed) {
      if (held || call.operation() != Operation.STORAGE_GET || !call.target().equals(ROOT)) {
        return proceed.get();
      }
      held = true;
      entered.countDown();
      return CompletableFuture.runAsync(
              () -> {
                try {
                  release.await(10, TimeUnit.SECONDS);
                } catch (InterruptedException e) {
                  Thread.currentThread().interrupt();
                }
              })
          .thenCompose(v -> proceed.get());
    }
  }

  @Test
  void aSecondThreadInsideTheSameTransactionFailsAndChangesNothing(@Seed long seed)
      throws Exception {
    try (Fixture f = new Fixture(seed)) {
      Database setup = f.open();
      setup.createCollection("items");
      setup.run(
          tx -> {
            tx.create("items", Key.of(1L), bytes("one"));
            return null;
          });
      HoldFirstRootRead gate = new HoldFirstRootRead();
      Database db = f.open(f.config(gate));
      Transaction tx = db.begin();
      CompletableFuture<Optional<byte[]>> first =
          CompletableFuture.supplyAsync(() -> tx.read("items", Key.of(1L)));
      assertThat(gate.entered.await(10, TimeUnit.SECONDS)).isTrue();

      assertThatThrownBy(() -> tx.create("items", Key.of(2L), bytes("two")))
          .isInstanceOf(ConcurrentTransactionUseException.class)
          .hasMessageContaining(tx.id());
      assertThatThrownBy(tx::commit).isInstanceOf(ConcurrentTransactionUseException.class);

      gate.release.countDown();
      assertThat(first.get(10, TimeUnit.SECONDS)).isPresent();
      // Handed over (not shared), the transaction works from this thread, and the refused
      // create left nothing behind.
      assertThat(tx.read("items", Key.of(2L))).isEmpty();
      tx.create("items", Key.of(3L), bytes("three"));
      tx.commit();
      boolean two = db.read(t -> t.read("items", Key.of(2L)).isPresent());
      boolean three = db.read(t -> t.read("items", Key.of(3L)).isPresent());
      assertThat(two).isFalse();
      assertThat(three).isTrue();
    }
  }
}
