package io.stratus.core;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.stratus.InvalidRequestException;
import io.stratus.cloudapi.CloudServices;
import io.stratus.cloudapi.inprocess.InProcessCloud;
import io.stratus.protocols.CheckpointWrites;
import io.stratus.protocols.ProtocolKind;
import io.stratus.protocols.Settings;
import java.time.Duration;
import java.util.Map;
import java.util.Properties;
import org.junit.jupiter.api.Test;

class DatabasePropertiesTest {
  private final CloudServices cloud = InProcessCloud.create().services();

  @Test
  void everyKeyReachesTheConfiguration() {
    Properties p = new Properties();
    p.setProperty(Settings.DATABASE_URI.key(), "db/shop");
    p.setProperty(Settings.PROTOCOL.key(), "Atomic");
    p.setProperty(Settings.PAGE_SIZE.key(), "64k");
    p.setProperty(Settings.TTL.key(), "30s");
    p.setProperty(Settings.POOL_BYTES.key(), "16m");
    p.setProperty(Settings.MONOTONIC_READS.key(), "true");
    p.setProperty(Settings.CHECKPOINT_INTERVAL.key(), "PT20S");
    p.setProperty(Settings.CHECKPOINT_LOCK_TIMEOUT.key(), "40s");
    p.setProperty(Settings.PROPAGATION_PERIOD.key(), "4000ms");
    p.setProperty(Settings.MAX_RECORDS_PER_CHECKPOINT.key(), "128");
    p.setProperty(Settings.CHECKPOINT_WRITES.key(), "timing-only");
    p.setProperty(Settings.CLOSE_TIMEOUT.key(), "5s");
    p.setProperty(Settings.WRITER_LANES.key(), "8");
    p.setProperty(Settings.ATOMIC_TIMEOUT.key(), "2m");
    p.setProperty(Settings.CLIENT_ID.key(), "web-1");
    p.setProperty(Settings.CHECKPOINT_SEED.key(), "7");
    p.setProperty("spring.other", "ignored");

    DatabaseConfig c = DatabaseProperties.builder(cloud, p).build();

    assertThat(c.databaseUri()).isEqualTo("db/shop");
    assertThat(c.protocol()).isEqualTo(ProtocolKind.ATOMIC);
    assertThat(c.pageSize()).isEqualTo(64 * 1024);
    assertThat(c.ttl()).isEqualTo(Duration.ofSeconds(30));
    assertThat(c.poolBytes()).isEqualTo(16L << 20);
    assertThat(c.monotonicReads()).isTrue();
    assertThat(c.checkpointInterval()).isEqualTo(Duration.ofSeconds(20));
    assertThat(c.checkpoints().lockTimeout()).isEqualTo(Duration.ofSeconds(40));
    assertThat(c.checkpoints().propagationPeriod()).isEqualTo(Duration.ofSeconds(4));
    assertThat(c.checkpoints().maxRecordsPerCheckpoint()).isEqualTo(128);
    assertThat(c.checkpoints().writes()).isEqualTo(CheckpointWrites.TIMING_ONLY);
    assertThat(c.checkpoints().closeTimeout()).isEqualTo(Duration.ofSeconds(5));
    assertThat(c.writerLanes()).isEqualTo(8);
    assertThat(c.checkpoints().atomicTimeout()).isEqualTo(Duration.ofMinutes(2));
    assertThat(c.clientId()).isEqualTo("web-1");
    assertThat(c.checkpoints().seed()).isEqualTo(7);
    assertThat(DatabaseProperties.keys()).hasSize(19);
  }

  @Test
  void isolationKeysReachTheConfiguration() {
    Properties p = new Properties();
    p.setProperty(Settings.DATABASE_URI.key(), "db/shop");
    p.setProperty(Settings.PROTOCOL.key(), "snapshot_isolation");
    p.setProperty(Settings.TRANSACTION_TIMEOUT.key(), "5s");
    p.setProperty(Settings.ISOLATION_LEASE_TIMEOUT.key(), "3m");
    p.setProperty(Settings.SNAPSHOT_REUSE.key(), "0ms");

    DatabaseConfig c = DatabaseProperties.builder(cloud, p).build();

    assertThat(c.isolation().transactionTimeout()).isEqualTo(Duration.ofSeconds(5));
    assertThat(c.isolation().leaseTimeout()).isEqualTo(Duration.ofMinutes(3));
    assertThat(c.isolation().snapshotReuse()).isZero();
  }

  @Test
  void defaultsApplyToWhatIsNotSet() {
    DatabaseConfig c =
        DatabaseProperties.builder(cloud, Map.of(Settings.DATABASE_URI.key(), "db/shop")).build();
    assertThat(c.protocol()).isEqualTo(Settings.PROTOCOL.defaultValue());
    assertThat(c.pageSize()).isEqualTo(Settings.PAGE_SIZE.defaultValue());
    assertThat(c.ttl()).isEqualTo(Settings.TTL.defaultValue());
    assertThat(c.checkpointInterval()).isEqualTo(Settings.CHECKPOINT_INTERVAL.defaultValue());
    assertThat(c.writerLanes()).isEqualTo(Settings.WRITER_LANES.defaultValue());
    assertThat(c.checkpoints().closeTimeout()).isEqualTo(Settings.CLOSE_TIMEOUT.defaultValue());
  }

  @Test
  void mistakesAreErrorsThatNameTheKey() {
    assertThatThrownBy(() -> DatabaseProperties.builder(cloud, Map.of()))
        .isInstanceOf(InvalidRequestException.class)
        .hasMessageContaining(Settings.DATABASE_URI.key());
    assertThatThrownBy(
            () ->
                DatabaseProperties.builder(
                    cloud, Map.of(Settings.DATABASE_URI.key(), "db/shop", "stratus.ttll", "10s")))
        .isInstanceOf(InvalidRequestException.class)
        .hasMessageContaining("stratus.ttll");
    assertThatThrownBy(
            () ->
                DatabaseProperties.builder(
                    cloud,
                    Map.of(Settings.DATABASE_URI.key(), "db/shop", Settings.TTL.key(), "soon")))
        .isInstanceOf(InvalidRequestException.class)
        .hasMessageContaining("stratus.ttl")
        .hasMessageContaining("not a duration");
    assertThatThrownBy(
            () ->
                DatabaseProperties.builder(
                    cloud,
                    Map.of(Settings.DATABASE_URI.key(), "db/shop", Settings.PROTOCOL.key(), "gsi")))
        .isInstanceOf(InvalidRequestException.class)
        .hasMessageContaining("naive, basic");
    assertThatThrownBy(
            () ->
                DatabaseProperties.builder(
                    cloud,
                    Map.of(
                        Settings.DATABASE_URI.key(), "db/shop", Settings.WRITER_LANES.key(), "0")))
        .isInstanceOf(InvalidRequestException.class)
        .hasMessageContaining(Settings.WRITER_LANES.key());
    assertThatThrownBy(
            () -> DatabaseProperties.builder(cloud, Map.of(Settings.DATABASE_URI.key(), "../x")))
        .isInstanceOf(InvalidRequestException.class);
  }
}
