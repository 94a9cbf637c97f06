package io.stratus.core;

import static io.stratus.core.Fixture.bytes;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.stratus.CloudServiceException;
import io.stratus.DatabaseClosedException;
import io.stratus.DeadLetter;
import io.stratus.cloudapi.Operation;
import io.stratus.cloudapi.OutcomeUnknownException;
import io.stratus.cloudapi.decorate.FaultInterceptor;
import io.stratus.cloudapi.decorate.FaultPlan;
import io.stratus.cloudapi.decorate.FaultPlan.Selector;
import io.stratus.cloudapi.testing.Seed;
import io.stratus.cloudapi.testing.SeedExtension;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.assertj.core.api.ThrowableAssert.ThrowingCallable;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The operator's facet of a handle ({@link Database#admin()}) is guarded like the handle's own
 * calls: it fails on a closed handle, and reports a cloud failure as one {@link
 * CloudServiceException} that says whether the call is safe to run again.
 */
@ExtendWith(SeedExtension.class)
class DatabaseAdminTest {
  private static final String DEAD = Fixture.DB + "/dead/";

  private static DeadLetter letter(String item) {
    return new DeadLetter(item, "q", "m-1", "unreadable", Instant.EPOCH, bytes("x"));
  }

  @Test
  void everyCallOfAClosedHandlesFacetFailsAsTheHandleDoes(@Seed long seed) {
    try (Fixture f = new Fixture(seed)) {
      Database db = f.open();
      db.createCollection("items");
      DatabaseAdmin admin = db.admin();
      assertThat(db.admin()).as("one facet per handle").isSameAs(admin);
      db.close();
      assertThat(db.admin()).as("the facet is handed out after close too").isSameAs(admin);
      DeadLetter entry = letter(DEAD + "0");
      Map<String, ThrowingCallable> calls =
          Map.of(
              "checkpointAll",
              admin::checkpointAll,
              "recoverAbandonedClients",
              admin::recoverAbandonedClients,
              "deadLetters",
              admin::deadLetters,
              "replayDeadLetter",
              () -> admin.replayDeadLetter(entry),
              "discardDeadLetter",
              () -> admin.discardDeadLetter(entry),
              "skipDeadLetter",
              () -> admin.skipDeadLetter(entry),
              "verify",
              admin::verify,
              "reseal",
              () -> admin.reseal(ResealOptions.dryRunOnly()));
      calls.forEach(
          (name, call) ->
              assertThatThrownBy(call)
                  .as(name)
                  .isInstanceOf(DatabaseClosedException.class)
                  .hasMessageContaining(Fixture.DB));
      // Without a handle, the static calls still work.
      assertThat(
              DatabaseAdmin.verify(f.config().build(), VerifyOptions.defaults())
                  .findings(Finding.Severity.ERROR))
          .isEmpty();
    }
  }

  @Test
  void aFailedListingOfDeadLettersIsSafeToRetry(@Seed long seed) {
    try (Fixture f = new Fixture(seed)) {
      FaultPlan plan =
          FaultPlan.builder()
              .unavailable(Selector.operations(Operation.STORAGE_LIST).withTargetPrefix(DEAD), 1.0)
              .build();
      Database db = f.open(f.config(new FaultInterceptor(plan, seed, f.clock)));
      assertThatThrownBy(() -> db.admin().deadLetters())
          .isInstanceOfSatisfying(
              CloudServiceException.class,
              e -> {
                assertThat(e.isRetryable()).as("a listing changes nothing").isTrue();
                assertThat(e.isOutcomeUnknown()).isFalse();
                assertThat(e.getMessage()).contains("listing dead letters");
              });
      assertThat(f.open().admin().deadLetters()).isEqualTo(List.of());
    }
  }

  @Test
  void aDiscardWhoseReplyIsLostHasAnUnknownOutcome(@Seed long seed) {
    try (Fixture f = new Fixture(seed)) {
      FaultPlan plan =
          FaultPlan.builder()
              .loseReply(Selector.operations(Operation.STORAGE_DELETE).withTargetPrefix(DEAD), 1.0)
              .build();
      Database db = f.open(f.config(new FaultInterceptor(plan, seed, f.clock)));
      DeadLetter entry = letter(DEAD + "lost");
      assertThatThrownBy(() -> db.admin().discardDeadLetter(entry))
          .isInstanceOfSatisfying(
              CloudServiceException.class,
              e -> {
                assertThat(e.isOutcomeUnknown()).as("a delete may have happened").isTrue();
                assertThat(e.isRetryable()).isFalse();
                assertThat(e.getCause()).isInstanceOf(OutcomeUnknownException.class);
                assertThat(e.getMessage()).contains("discarding " + entry.item());
              });
    }
  }
}
