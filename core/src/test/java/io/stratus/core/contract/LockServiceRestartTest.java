package io.stratus.core.contract;

import static io.stratus.core.contract.ContractCloud.read;
import static io.stratus.core.contract.ContractCloud.update;
import static org.assertj.core.api.Assertions.assertThat;

import io.stratus.CheckpointSummary;
import io.stratus.core.Database;
import io.stratus.protocols.Guarantee;
import io.stratus.protocols.ProtocolKind;
import io.stratus.protocols.Settings;
import java.time.Duration;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * A lock-service restart, for every available protocol: the service drops every lock and refuses
 * every acquire for the longest timeout it was ever configured with. Whatever a protocol keeps in
 * the lock service must not stretch that window beyond the lock timeouts its own mutual exclusion
 * needs (the checkpoint lock and the atomic timeout, which {@link ContractCloud#LEASES} outlasts;
 * the isolating protocols' record-lock lease): a handle that starts once they have passed — one
 * replacing a crashed handle, say — must find every commit that returned before the restart
 * applied by its first {@code checkpointAll}, or it starts on pages that miss them and its own
 * writes overwrite them.
 */
class LockServiceRestartTest {
  static Stream<ProtocolKind> protocols() {
    return Stream.of(ProtocolKind.values()).filter(ProtocolKind::isAvailable);
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("protocols")
  void commitsBeforeARestartAreAppliedOnceTheLockTimeoutsHavePassed(ProtocolKind kind) {
    try (ContractCloud c = new ContractCloud(kind, 1)) {
      Database a = c.open("a");
      ContractCloud.load(a, 10);
      c.settle(a);
      update(a, 3, "a-1");
      update(a, 7, "a-2");

      c.cloud.restartLockService();
      c.clock.advance(longestLockTimeout(kind));
      Database b = c.open("b");
      b.admin().recoverAbandonedClients();
      CheckpointSummary done = b.admin().checkpointAll();

      assertThat(done.failures()).as("checkpoints failed after the restart: %s", done).isZero();
      assertThat(read(b, 3)).isEqualTo("a-1");
      assertThat(read(b, 7)).isEqualTo("a-2");
    }
  }

  /** Past the longest lock lease {@code kind} itself takes (its mutual exclusion needs it). */
  private static Duration longestLockTimeout(ProtocolKind kind) {
    return kind.guarantees(Guarantee.SNAPSHOT_ISOLATION) || kind.guarantees(Guarantee.SERIALIZABLE)
        ? Settings.ISOLATION_LEASE_TIMEOUT.defaultValue().plusSeconds(1)
        : ContractCloud.LEASES;
  }
}
