package io.stratus.bench.tpcw.bookstore;

import static org.assertj.core.api.Assertions.assertThat;

import io.stratus.bench.tpcw.bookstore.StalenessTracker.Row;
import io.stratus.bench.tpcw.workload.Interaction;
import io.stratus.bench.tpcw.workload.InteractionOutcome;
import io.stratus.cloudapi.testing.Seed;
import io.stratus.cloudapi.testing.SeedExtension;
import io.stratus.core.Database;
import io.stratus.protocols.ProtocolKind;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/** Staleness: the tracker's arithmetic, and stale reads of a second client on a hand-driven clock. */
@ExtendWith(SeedExtension.class)
class StalenessTest {
  private static final Row ITEM_7 = new Row(BookstoreSchema.ITEM, 7);

  @Test
  void aReadIsAsStaleAsTheFirstVersionItMissed() {
    StalenessTracker t = new StalenessTracker();
    assertThat(t.staleness(ITEM_7, 0, 5_000)).as("never written").isZero();
    t.committed(ITEM_7, 1, 1_000);
    t.committed(ITEM_7, 2, 1_200);
    t.committed(ITEM_7, 3, 9_000); // after the read began: not missed
    assertThat(t.staleness(ITEM_7, 0, 1_500)).isEqualTo(500);
    assertThat(t.staleness(ITEM_7, 1, 1_500)).isEqualTo(300);
    assertThat(t.staleness(ITEM_7, 2, 1_500)).isZero();
    assertThat(t.staleness(ITEM_7, 2, 10_000)).isEqualTo(1_000);
    assertThat(t.staleness(ITEM_7, 3, 10_000)).isZero();
    assertThat(t.staleness(new Row(BookstoreSchema.CUSTOMER, 7), 0, 10_000)).isZero();
  }

  /** A version committed again is a lost update each time; it keeps the earlier commit time. */
  @Test
  void theSameVersionCommittedTwiceKeepsTheEarlierTimeAndCountsALostUpdate() {
    StalenessTracker t = new StalenessTracker();
    t.committed(ITEM_7, 1, 2_000);
    t.committed(ITEM_7, 1, 1_000);
    t.committed(ITEM_7, 1, 3_000);
    t.committed(ITEM_7, 2, 3_500);
    t.committed(new Row(BookstoreSchema.CUSTOMER, 7), 1, 3_000);
    assertThat(t.staleness(ITEM_7, 0, 4_000)).isEqualTo(3_000);
    assertThat(t.lostUpdates(BookstoreSchema.ITEM)).isEqualTo(2);
    assertThat(t.lostUpdates(BookstoreSchema.CUSTOMER)).isZero();
  }

  @Test
  void memoryIsBounded() {
    StalenessTracker t = new StalenessTracker(100, 60_000);
    for (long v = 1; v <= 50; v++) {
      t.committed(ITEM_7, v, v * 10);
    }
    // Only the newest versions are kept: a very old read is measured against the oldest kept.
    assertThat(t.staleness(ITEM_7, 0, 1_000))
        .isEqualTo(1_000 - (50 - StalenessTracker.VERSIONS_PER_ROW + 1) * 10);
    for (long id = 0; id < 1_000; id++) {
      t.committed(new Row(BookstoreSchema.ITEM, id), 1, 100_000 + id);
      assertThat(t.size()).isLessThanOrEqualTo(100);
    }
    assertThat(t.staleness(new Row(BookstoreSchema.ITEM, 999), 0, 200_000)).isPositive();
  }

  /**
   * Client B caches an item's page; client A changes the item (Admin Confirm); B's reads within
   * the buffer-pool TTL see the old version and are as stale as the time since A's commit; after
   * the TTL they are current again.
   */
  @Test
  void aSecondClientReadsStaleItemsUntilItsCacheExpires(@Seed long seed) {
    try (BookstoreFixture f = new BookstoreFixture(seed, ProtocolKind.NAIVE)) {
      Database other = f.open(ProtocolKind.NAIVE);
      StratusBookstore b = new StratusBookstore(other, f.scale, f.clock, seed, f.store.tracker());
      BookstoreSession bs = (BookstoreSession) b.newSession(1);
      bs.lastItemId = 42;
      assertThat(b.execute(Interaction.ADMIN_REQUEST, bs).stalenessMillis()).isZero();

      BookstoreSession as = f.session(2);
      as.lastItemId = 42;
      InteractionOutcome change = f.store.execute(Interaction.ADMIN_CONFIRM, as);
      assertThat(change.wrote()).isTrue();
      assertThat(f.item(42).version()).isEqualTo(1);

      f.clock.advance(Duration.ofSeconds(5));
      assertThat(b.execute(Interaction.ADMIN_REQUEST, bs).stalenessMillis()).isEqualTo(5_000);
      assertThat(f.store.execute(Interaction.ADMIN_REQUEST, as).stalenessMillis())
          .as("the writer sees its own commit")
          .isZero();

      f.clock.advance(Duration.ofSeconds(7));
      assertThat(b.execute(Interaction.ADMIN_REQUEST, bs).stalenessMillis()).isEqualTo(12_000);

      f.clock.advance(io.stratus.protocols.Settings.TTL.defaultValue());
      assertThat(b.execute(Interaction.ADMIN_REQUEST, bs).stalenessMillis())
          .as("after the TTL the page is read again")
          .isZero();
      other.close();
    }
  }

  @Test
  void anInteractionWithoutTrackedReadsReportsMinusOne(@Seed long seed) {
    try (BookstoreFixture f = new BookstoreFixture(seed, ProtocolKind.NAIVE)) {
      BookstoreSession s = f.session(seed);
      s.returningCustomerId = 0;
      assertThat(f.store.execute(Interaction.ORDER_INQUIRY, s).stalenessMillis()).isEqualTo(-1);
      assertThat(f.store.execute(Interaction.CUSTOMER_REGISTRATION, s).stalenessMillis())
          .isEqualTo(-1);
    }
  }
}
