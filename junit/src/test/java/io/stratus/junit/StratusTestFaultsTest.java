package io.stratus.junit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.stratus.InvalidConfigurationException;
import io.stratus.StratusException;
import io.stratus.cloudapi.Operation;
import io.stratus.cloudapi.decorate.Decorators;
import io.stratus.cloudapi.decorate.FaultInterceptor;
import io.stratus.cloudapi.decorate.FaultKind;
import io.stratus.cloudapi.decorate.FaultPlan;
import io.stratus.cloudapi.decorate.InjectedFault;
import io.stratus.cloudapi.time.ManualClock;
import io.stratus.core.Database;
import io.stratus.core.Key;
import io.stratus.protocols.ProtocolKind;
import java.lang.annotation.Annotation;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/** The fault knobs of {@link StratusTest} reach the test's handle, and only once it is open. */
class StratusTestFaultsTest {
  private static final int WRITES = 40;

  private static byte[] bytes(String s) {
    return s.getBytes(StandardCharsets.UTF_8);
  }

  @Test
  @StratusTest(seed = 7, failureRate = 0.2)
  void failingCallsAreRetriedOnTheTestsClock(
      Database db, ManualClock clock, StratusTestContext context) {
    Instant start = clock.instant();
    db.run(tx -> db.createCollection("items"));
    for (long i = 1; i <= WRITES; i++) {
      long k = i;
      db.run(tx -> tx.put("items", Key.of(k), bytes("v" + k)));
    }
    List<InjectedFault> injected = context.faults().injectedFaults();
    assertThat(injected).isNotEmpty().allMatch(f -> f.kind() == FaultKind.FAIL_RETRYABLE);
    assertThat(db.stats().retries()).isPositive();
    // The back-offs moved the test's clock rather than sleeping.
    assertThat(clock.instant()).isAfter(start);
    for (long i = 1; i <= WRITES; i++) {
      long k = i;
      Optional<byte[]> read = db.read(tx -> tx.read("items", Key.of(k)));
      assertThat(read).isPresent();
    }
  }

  @Test
  @StratusTest(seed = 8, lostReplyRate = 0.2)
  void lostRepliesReachTheApplicationAsUnknownOutcomes(Database db, StratusTestContext context) {
    List<StratusException> unknown = new ArrayList<>();
    for (long i = 1; i <= WRITES; i++) {
      long k = i;
      try {
        db.run(
            tx -> {
              db.createCollection("items"); // idempotent: settles a creation of unknown outcome
              return tx.put("items", Key.of(k), bytes("v" + k));
            });
      } catch (StratusException e) {
        if (!e.isOutcomeUnknown()) {
          throw e;
        }
        unknown.add(e);
      }
    }
    assertThat(unknown).isNotEmpty();
    assertThat(context.faults().injectedFaults())
        .isNotEmpty()
        .allMatch(f -> f.kind() == FaultKind.LOSE_REPLY);
  }

  @Test
  @StratusTest(failureRate = 1)
  void theHandleOpensWithoutFaultsAndEveryCallFailsAfterwards(Database db, StratusTestContext c) {
    assertThat(db.isClosed()).isFalse();
    assertThat(c.faults().injectedFaults()).isEmpty();
    assertThatThrownBy(() -> db.createCollection("items"))
        .isInstanceOfSatisfying(StratusException.class, e -> assertThat(e.isRetryable()).isTrue());
    assertThat(c.faults().injectedFaults()).isNotEmpty();
  }

  @Test
  @StratusTest(seed = 9)
  void aTestsOwnFaultPlanActsThroughConfigOfItsServices(StratusTestContext context) {
    FaultInterceptor faults =
        new FaultInterceptor(
            FaultPlan.builder()
                .onNthCall(Operation.STORAGE_GET, "db/test/catalog", 1, FaultPlan.Fault.fail())
                .build(),
            context.seed(),
            context.clock());
    Database db =
        context.open(
            context
                .config(Decorators.wrap(context.cloud().services(), faults))
                .clientId("own-faults"));
    assertThat(faults.injectedFaults())
        .singleElement()
        .satisfies(f -> assertThat(f.operation()).isEqualTo(Operation.STORAGE_GET));
    db.createCollection("items");
    assertThat(db.collections()).contains("items");
    assertThat(context.faults().injectedFaults()).isEmpty();
  }

  @Test
  void aRateOutsideZeroToOneIsRefusedNamingTheAttribute() {
    // The rates are checked when the context is made, i.e. when a parameter first asks for it.
    assertThatThrownBy(() -> new StratusTestContext(new Settings(ProtocolKind.MONOTONIC, 1.5), 1))
        .isInstanceOf(InvalidConfigurationException.class)
        .hasMessageContaining("failureRate = 1.5")
        .hasMessageContaining("from 0 to 1");
    assertThatThrownBy(() -> new StratusTestContext(new Settings(ProtocolKind.MONOTONIC, -0.1), 1))
        .hasMessageContaining("failureRate = -0.1");
  }

  @ParameterizedTest
  @EnumSource(ProtocolKind.class)
  void theSameSeedInjectsTheSameFaultsOnTheSameCallsUnderEveryProtocol(ProtocolKind protocol) {
    List<InjectedFault> first = faultsOfARun(protocol, 99);
    assertThat(first).isNotEmpty();
    assertThat(faultsOfARun(protocol, 99)).isEqualTo(first);
  }

  /** The faults a run of a few transactions suffered, on a context made as the extension does. */
  private static List<InjectedFault> faultsOfARun(ProtocolKind protocol, long seed) {
    StratusTestContext context = new StratusTestContext(new Settings(protocol, 0.1), seed);
    try {
      Database db = context.database();
      for (long i = 1; i <= 20; i++) {
        long k = i;
        try {
          db.run(tx -> db.createCollection("items"));
          db.run(tx -> tx.put("items", Key.of(k), bytes("v" + k)));
          db.read(tx -> tx.read("items", Key.of(k)));
        } catch (StratusException e) {
          // a failure the retries did not outlast: part of what the seed decides
        }
      }
      return context.faults().injectedFaults();
    } finally {
      context.close();
    }
  }

  /** {@code @StratusTest(protocol = ..., failureRate = ...)}, made in code. */
  @SuppressWarnings("BadAnnotationImplementation") // equals/hashCode are not needed here
  private record Settings(ProtocolKind protocol, double failureRate) implements StratusTest {
    @Override
    public String databaseUri() {
      return "db/test";
    }

    @Override
    public long seed() {
      return RANDOM_SEED;
    }

    @Override
    public double lostReplyRate() {
      return 0;
    }

    @Override
    public Class<? extends Annotation> annotationType() {
      return StratusTest.class;
    }
  }
}
