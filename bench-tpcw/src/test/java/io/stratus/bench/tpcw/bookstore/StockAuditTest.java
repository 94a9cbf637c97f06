package io.stratus.bench.tpcw.bookstore;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.stratus.CommitStateUnknownException;
import io.stratus.StratusException;
import io.stratus.bench.tpcw.bookstore.CartPage.Action;
import io.stratus.bench.tpcw.bookstore.Rows.ItemRow;
import io.stratus.bench.tpcw.bookstore.Work.StockChange;
import io.stratus.bench.tpcw.workload.Interaction;
import io.stratus.cloudapi.testing.Seed;
import io.stratus.cloudapi.testing.SeedExtension;
import io.stratus.protocols.ProtocolKind;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The stock audit: every item's stock against its loaded stock plus the committed Buy Confirms'
 * changes. Clean under an isolating protocol, off when an update is lost, lenient towards buys
 * whose commit outcome was unknown.
 */
@ExtendWith(SeedExtension.class)
class StockAuditTest {
  @Test
  void theLedgerAddsUpCommittedChangesAndExplainsUncertainOnes() {
    StockLedger ledger = new StockLedger();
    ledger.committed(List.of(new StockChange(1, -3), new StockChange(2, 20)));
    ledger.committed(List.of(new StockChange(1, -2)));
    ledger.uncertain(List.of(new StockChange(3, -4), new StockChange(1, -1)));
    ledger.uncertain(List.of());
    Map<Long, Integer> loaded = Map.of(1L, 20, 2L, 10, 3L, 15, 4L, 12);

    StockAudit clean = ledger.audit(Map.of(1L, 15, 2L, 30, 3L, 11, 4L, 12), loaded::get);
    assertThat(clean).isEqualTo(new StockAudit(4, 0, 0, 2, 1));
    assertThat(clean.clean()).isTrue();
    StockAudit uncertainNotApplied =
        ledger.audit(Map.of(1L, 14, 2L, 30, 3L, 15, 4L, 12), loaded::get);
    assertThat(uncertainNotApplied.clean()).as("1 applied the uncertain -1, 3 did not").isTrue();

    StockAudit lost = ledger.audit(Map.of(1L, 18, 2L, 30, 3L, 9, 4L, 13), loaded::get);
    // item 1: 18 - 15 = 3, not 0 or -1; item 3: 9 - 15 = -6, not 0 or -4; item 4: +1
    assertThat(lost).isEqualTo(new StockAudit(4, 3, 3 + 6 + 1, 2, 1));
    assertThat(lost.clean()).isFalse();
  }

  @Test
  void subsetsOfUncertainChangesExplainADifference() {
    assertThat(StockLedger.explains(List.of(-1, -3, 20), 0)).isTrue();
    assertThat(StockLedger.explains(List.of(-1, -3, 20), 16)).isTrue();
    assertThat(StockLedger.explains(List.of(-1, -3, 20), -2)).isFalse();
    List<Integer> many = new ArrayList<>();
    for (int i = 0; i <= StockLedger.MAX_SUBSETS_OF; i++) {
      many.add(-1);
    }
    assertThat(StockLedger.explains(many, -many.size())).isTrue();
    assertThat(StockLedger.explains(many, 1)).isFalse();
  }

  @Test
  void theLoadedStockIsRecomputedFromTheSeed(@Seed long seed) {
    try (BookstoreFixture f = new BookstoreFixture(seed, ProtocolKind.NAIVE)) {
      for (long id = 1; id <= f.scale.items(); id++) {
        assertThat(f.item(id).stock())
            .as("item " + id)
            .isEqualTo(DataGenerator.loadedStock(seed, id))
            .isBetween(10, 30);
      }
      StockAudit untouched = f.store.auditStock();
      assertThat(untouched).isEqualTo(new StockAudit(100, 0, 0, 0, 0));
    }
  }

  /**
   * Under basic, two sessions buy the same item before a checkpoint: the second reads the stock
   * the first had already changed in its commit (not yet applied), so after the checkpoint one
   * sale is lost. The audit finds it, as does the version check of the tracker.
   */
  @Test
  void aLostStockUpdateUnderBasicIsFound(@Seed long seed) {
    try (BookstoreFixture f = new BookstoreFixture(seed, ProtocolKind.BASIC)) {
      long item = 5;
      BookstoreSession a = f.session(seed);
      BookstoreSession b = f.session(seed + 1);
      for (BookstoreSession s : List.of(a, b)) {
        s.lastItemId = item;
        f.page(s, w -> f.store.order().shoppingCart(w, Action.ADD));
      }
      f.checkpoint(); // both carts visible: each orders one of the item
      ItemRow loaded = f.item(item);
      f.page(a, w -> f.store.order().buyConfirm(w, false));
      f.page(b, w -> f.store.order().buyConfirm(w, false));
      f.checkpoint();

      int oneSale = loaded.afterSale(1).stock() - loaded.stock();
      assertThat(f.store.stockLedger().committedChange(item)).isEqualTo(2L * oneSale);
      assertThat(f.item(item).stock())
          .as("only one sale applied")
          .isEqualTo(loaded.stock() + oneSale);
      StockAudit audit = f.store.auditStock();
      assertThat(audit.itemsChecked()).isEqualTo(100);
      assertThat(audit.itemsOff()).isEqualTo(1);
      assertThat(audit.unitsOff()).isEqualTo(Math.abs(oneSale));
      assertThat(audit.clean()).isFalse();
      assertThat(f.store.tracker().lostUpdates(BookstoreSchema.ITEM)).isEqualTo(1);
    }
  }

  /** Under snapshot isolation concurrent buys of a few items conflict and retry; none is lost. */
  @Test
  void concurrentBuysUnderSnapshotIsolationAuditClean(@Seed long seed) throws Exception {
    try (BookstoreFixture f = new BookstoreFixture(seed, ProtocolKind.SNAPSHOT_ISOLATION)) {
      int threads = 4;
      ExecutorService pool = Executors.newFixedThreadPool(threads);
      try {
        List<Future<Integer>> done = new ArrayList<>();
        for (int t = 0; t < threads; t++) {
          long sessionSeed = seed + t;
          done.add(
              pool.submit(
                  () -> {
                    BookstoreSession s = f.session(sessionSeed);
                    SplittableRandom r = new SplittableRandom(sessionSeed);
                    int bought = 0;
                    for (int round = 0; round < 12; round++) {
                      s.lastItemId = r.nextLong(1, 4); // three hot items
                      s.previous = Interaction.PRODUCT_DETAIL;
                      try {
                        f.store.execute(Interaction.SHOPPING_CART, s);
                        if (f.store.execute(Interaction.BUY_CONFIRM, s).wrote()) {
                          bought++;
                        }
                      } catch (StratusException e) {
                        // conflicts beyond the retries: the interaction failed and changed nothing
                      }
                    }
                    return bought;
                  }));
        }
        int bought = 0;
        for (Future<Integer> d : done) {
          bought += d.get();
        }
        assertThat(bought).isPositive();
      } finally {
        pool.shutdownNow();
      }
      StockAudit audit = f.store.auditStock();
      assertThat(audit.itemsChecked()).isEqualTo(100);
      assertThat(audit).as("no lost update").isEqualTo(new StockAudit(100, 0, 0, 0, 0));
      assertThat(
              f.store.stockLedger().committedChange(1)
                  + f.store.stockLedger().committedChange(2)
                  + f.store.stockLedger().committedChange(3))
          .isNotZero();
    }
  }

  /**
   * A Buy Confirm whose commit outcome is unknown is recorded as uncertain: the audit accepts the
   * item's stock with or without its change.
   */
  @Test
  void anUnknownCommitOutcomeIsNotHeldAgainstTheProtocol(@Seed long seed) {
    try (BookstoreFixture f = new BookstoreFixture(seed, ProtocolKind.NAIVE)) {
      BookstoreSession s = f.session(seed);
      s.lastItemId = 9;
      f.page(s, w -> f.store.order().shoppingCart(w, Action.ADD));
      assertThatThrownBy(
              () ->
                  f.store.execute(
                      Interaction.BUY_CONFIRM,
                      s,
                      w -> {
                        f.store.order().buyConfirm(w, false);
                        throw new CommitStateUnknownException("injected: the reply was lost", null);
                      }))
          .isInstanceOf(CommitStateUnknownException.class);
      assertThat(s.previous).isNull();

      StockAudit audit = f.store.auditStock();
      assertThat(audit.clean()).isTrue();
      assertThat(audit.itemsUncertain()).isEqualTo(1);
      assertThat(audit.uncertainBuys()).isEqualTo(1);
      assertThat(f.store.stockLedger().committedChange(9)).isZero();
    }
  }
}
