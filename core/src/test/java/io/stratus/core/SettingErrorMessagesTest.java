package io.stratus.core;

import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.stratus.InvalidConfigurationException;
import io.stratus.cloudapi.CloudServices;
import io.stratus.cloudapi.inprocess.InProcessCloud;
import io.stratus.protocols.ProtocolKind;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/**
 * A configuration refused for a rule between settings names the setting the user set, not a
 * default they never touched.
 */
class SettingErrorMessagesTest {
  private final CloudServices cloud = InProcessCloud.create().services();

  private DatabaseConfig.Builder config(ProtocolKind kind) {
    return DatabaseConfig.builder(cloud, "db").protocol(kind);
  }

  @Test
  void missingServicesAreRefusedWhenTheConfigurationIsBuiltNotWhenItOpens() {
    CloudServices storageAndQueues =
        CloudServices.builder().storage(cloud.storage()).simpleQueues(cloud.simpleQueues()).build();
    assertThatThrownBy(
            () ->
                DatabaseConfig.builder(storageAndQueues, "db")
                    .protocol(ProtocolKind.TWO_PHASE_LOCKING)
                    .build())
        .isInstanceOf(InvalidConfigurationException.class)
        .hasMessageContaining("lack the advanced queue, lock, advanced counter");
  }

  @Test
  void aShortLockTimeoutUnderAtomicNamesItsMinimumNotTheDefaultPropagationPeriod() {
    // Both rules are broken; the one about the user's own setting alone is what to fix.
    assertThatThrownBy(
            () -> config(ProtocolKind.ATOMIC).checkpointLockTimeout(Duration.ofSeconds(2)).build())
        .isInstanceOf(InvalidConfigurationException.class)
        .hasMessageStartingWith("checkpointLockTimeout(PT2S) must be at least PT5S");
  }

  @Test
  void anAtomicTimeoutShorterThanTheDefaultLockTimeoutIsNamedAsSet() {
    assertThatThrownBy(
            () -> config(ProtocolKind.ATOMIC).atomicTimeout(Duration.ofSeconds(20)).build())
        .isInstanceOf(InvalidConfigurationException.class)
        .hasMessageStartingWith("atomicTimeout(PT20S) must be longer than")
        .hasMessageContaining("(PT30S, the default)");
  }

  @Test
  void aLongAtomicTimeoutUnderAnIsolatingProtocolNamesItNotTheDefaultLease() {
    assertThatThrownBy(
            () ->
                config(ProtocolKind.SNAPSHOT_ISOLATION)
                    .atomicTimeout(Duration.ofMinutes(2))
                    .build())
        .isInstanceOf(InvalidConfigurationException.class)
        .hasMessageStartingWith("atomicTimeout(PT2M)")
        .hasMessageContaining("(PT2M, the default)")
        .hasMessageContaining("isolationLeaseTimeout");
  }

  @Test
  void aLongTransactionTimeoutNamesItNotTheDefaultLease() {
    assertThatThrownBy(
            () ->
                config(ProtocolKind.TWO_PHASE_LOCKING)
                    .transactionTimeout(Duration.ofMinutes(1))
                    .build())
        .isInstanceOf(InvalidConfigurationException.class)
        .hasMessageStartingWith("transactionTimeout(PT1M)");
  }

  @Test
  void aLongLockTimeoutThatStretchesTheDefaultAtomicTimeoutIsNamed() {
    // The atomic timeout defaults to twice the lock timeout: 3 min here, past what the default
    // lease allows.
    assertThatThrownBy(
            () ->
                config(ProtocolKind.SERIALIZABLE_SNAPSHOT)
                    .checkpointLockTimeout(Duration.ofSeconds(90))
                    .build())
        .isInstanceOf(InvalidConfigurationException.class)
        .hasMessageStartingWith("checkpointLockTimeout(PT1M30S)");
  }
}
