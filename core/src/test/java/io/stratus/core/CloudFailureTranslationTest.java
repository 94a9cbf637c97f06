package io.stratus.core;

import static io.stratus.core.Fixture.bytes;
import static io.stratus.core.Fixture.string;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.stratus.CloudServiceException;
import io.stratus.StratusException;
import io.stratus.cloudapi.CloudException;
import io.stratus.cloudapi.Operation;
import io.stratus.cloudapi.OutcomeUnknownException;
import io.stratus.cloudapi.decorate.FaultInterceptor;
import io.stratus.cloudapi.decorate.FaultPlan;
import io.stratus.cloudapi.decorate.FaultPlan.Selector;
import io.stratus.cloudapi.testing.Seed;
import io.stratus.cloudapi.testing.SeedExtension;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Failures of the cloud services reach the application as one exception root: {@link
 * CloudServiceException}, the service's exception as the cause, saying whether running the work
 * again is safe (reads, and a transaction's work before its commit, change nothing shared) or
 * whether its outcome is unknown (creating a collection whose reply was lost).
 */
@ExtendWith(SeedExtension.class)
class CloudFailureTranslationTest {
  private static final String ROOT = Fixture.DB + "/c/items/root";

  private static Selector storagePuts() {
    return Selector.operations(
        Operation.STORAGE_PUT, Operation.STORAGE_PUT_IF_ABSENT, Operation.STORAGE_PUT_IF_VERSION);
  }

  @Test
  void aFailedReadIsARetryableStratusExceptionAndDbReadRetriesIt(@Seed long seed) {
    try (Fixture f = new Fixture(seed)) {
      Database setup = f.open();
      setup.createCollection("items");
      setup.run(
          tx -> {
            tx.create("items", Key.of(1L), bytes("one"));
            return null;
          });
      for (FaultPlan.Fault fault :
          List.of(FaultPlan.Fault.unavailable(), FaultPlan.Fault.loseReply())) {
        FaultPlan plan =
            FaultPlan.builder().onNthCall(Operation.STORAGE_GET, ROOT, 1, fault).build();
        Database db = f.open(f.config(new FaultInterceptor(plan, seed, f.clock)));
        try (Transaction tx = db.begin()) {
          assertThatThrownBy(() -> tx.read("items", Key.of(1L)))
              .as("%s", fault.kind())
              .isInstanceOfSatisfying(
                  CloudServiceException.class,
                  e -> {
                    assertThat(e.isRetryable()).as("a read changed nothing").isTrue();
                    assertThat(e.isOutcomeUnknown()).isFalse();
                    assertThat(e.getCause()).isInstanceOf(CloudException.class);
                    assertThat(e.getMessage()).contains("read in transaction " + tx.id());
                  });
        }
        Database again =
            f.open(
                f.config(
                    new FaultInterceptor(
                        FaultPlan.builder()
                            .onNthCall(Operation.STORAGE_GET, ROOT, 1, fault)
                            .build(),
                        seed,
                        f.clock)));
        List<Duration> slept = new ArrayList<>();
        String read =
            again.read(
                RetryPolicy.builder().seed(seed).sleeper(slept::add).build(),
                tx -> string(tx.read("items", Key.of(1L)).orElseThrow()));
        assertThat(read).isEqualTo("one");
        assertThat(slept).as("one retry after the failed read").hasSize(1);
      }
    }
  }

  @Test
  void aCollectionCreatedWithoutAReplyHasAnUnknownOutcomeAndMayBeCreatedAgain(@Seed long seed) {
    try (Fixture f = new Fixture(seed)) {
      FaultPlan plan =
          FaultPlan.builder()
              .loseReply(storagePuts().withTargetPrefix(Fixture.DB + "/catalog"), 1.0)
              .build();
      Database db = f.open(f.config(new FaultInterceptor(plan, seed, f.clock)));
      assertThatThrownBy(() -> db.createCollection("items"))
          .isInstanceOfSatisfying(
              CloudServiceException.class,
              e -> {
                assertThat(e.isOutcomeUnknown()).isTrue();
                assertThat(e.isRetryable()).isFalse();
                assertThat(e.getCause()).isInstanceOf(OutcomeUnknownException.class);
                assertThat(e.getMessage()).contains("creating collection \"items\"");
              });
      // Creating is idempotent: the way to settle an unknown outcome is to create again.
      Database healthy = f.open();
      healthy.createCollection("items");
      assertThat(healthy.collections()).containsExactly("items");
    }
  }

  @Test
  void aCommitNeverEndsWithACloudServiceException(@Seed long seed) {
    try (Fixture f = new Fixture(seed)) {
      f.open().createCollection("items");
      FaultPlan plan = FaultPlan.builder().unavailable(storagePuts(), 1.0).build();
      Database db = f.open(f.config(new FaultInterceptor(plan, seed, f.clock)));
      try (Transaction tx = db.begin()) {
        tx.create("items", Key.of(1L), bytes("one"));
        assertThatThrownBy(tx::commit)
            .isInstanceOf(StratusException.class)
            .isNotInstanceOf(CloudServiceException.class)
            .satisfies(e -> assertThat(((StratusException) e).isRetryable()).isTrue());
      }
    }
  }
}
