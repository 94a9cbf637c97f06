package io.stratus.core;

import static io.stratus.core.Fixture.bytes;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.stratus.CommitFailedException;
import io.stratus.CommitStateUnknownException;
import io.stratus.TransactionClosedException;
import io.stratus.cloudapi.Operation;
import io.stratus.cloudapi.decorate.FaultInterceptor;
import io.stratus.cloudapi.decorate.FaultPlan;
import io.stratus.cloudapi.testing.Seed;
import io.stratus.cloudapi.testing.SeedExtension;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Commit failures as the application sees them: the transaction ends, the pool forgets what may
 * have changed, and the types say whether re-running is safe.
 */
@ExtendWith(SeedExtension.class)
class CommitFailureTest {
  private static final String ROOT = Fixture.DB + "/c/items/root";

  @Test
  void aRetryableFailureChangesNothingAndTheRetrySucceeds(@Seed long seed) throws Exception {
    try (Fixture f = new Fixture(seed)) {
      f.open().createCollection("items");
      // The database's first put of the collection's root (its first commit, conditional on the
      // version read) fails.
      FaultPlan plan =
          FaultPlan.builder()
              .onNthCall(Operation.STORAGE_PUT_IF_VERSION, ROOT, 1, FaultPlan.Fault.fail())
              .build();
      Database db = f.open(f.config(new FaultInterceptor(plan, seed, f.clock)));
      Transaction tx = db.begin();
      tx.create("items", Key.of(1L), bytes("one"));
      assertThatThrownBy(tx::commit)
          .isInstanceOfSatisfying(
              CommitFailedException.class, e -> assertThat(e.isRetryable()).isTrue());
      assertThat(tx.isOpen()).isFalse();
      assertThatThrownBy(tx::commit).isInstanceOf(TransactionClosedException.class);
      assertThat(TwoHandlesTest.read(db, "items", 1)).isNull();
      assertThat(TwoHandlesTest.read(f.open(), "items", 1)).isNull();
      assertThat(db.stats().failedCommits()).isEqualTo(1);
      assertThat(db.stats().unknownCommits()).isZero(); // it failed: nothing in doubt

      TwoHandlesTest.commitCreate(db, "items", 1, "one"); // the application's retry
      assertThat(TwoHandlesTest.read(f.open(), "items", 1)).isEqualTo("one");
    }
  }

  @Test
  void aLostReplyLeavesTheOutcomeToBeReadFromStorage(@Seed long seed) throws Exception {
    try (Fixture f = new Fixture(seed)) {
      Database setup = f.open();
      setup.createCollection("items");
      TwoHandlesTest.commitCreate(setup, "items", 1, "one");
      FaultPlan plan =
          FaultPlan.builder()
              .onNthCall(Operation.STORAGE_PUT_IF_VERSION, ROOT, 1, FaultPlan.Fault.loseReply())
              .build();
      Database db = f.open(f.config(new FaultInterceptor(plan, seed, f.clock)));
      assertThat(TwoHandlesTest.read(db, "items", 1)).isEqualTo("one"); // cached now
      Transaction tx = db.begin();
      tx.update("items", Key.of(1L), bytes("uno"));
      assertThatThrownBy(tx::commit).isInstanceOf(CommitStateUnknownException.class);
      // The put did happen; the handle forgot its cached copy, so it reads the outcome at once
      // instead of trusting the old page for a TTL.
      assertThat(TwoHandlesTest.read(db, "items", 1)).isEqualTo("uno");
    }
  }
}
