package io.stratus.core;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.stratus.InvalidRequestException;
import io.stratus.cloudapi.CloudServices;
import io.stratus.cloudapi.inprocess.InProcessCloud;
import io.stratus.protocols.CheckpointWrites;
import io.stratus.protocols.ProtocolKind;
import java.time.Duration;
import java.util.Map;
import java.util.Properties;
import org.junit.jupiter.api.Test;

class DatabasePropertiesTest {
  private final CloudServices cloud = InProcessCloud.create().services();

  @Test
  void everyKeyReachesTheConfiguration() {
    Properties p = new Properties();
    p.setProperty(DatabaseProperties.DATABASE_URI, "db/shop");
    p.setProperty(DatabaseProperties.PROTOCOL, "Atomic");
    p.setProperty(DatabaseProperties.PAGE_SIZE, "64k");
    p.setProperty(DatabaseProperties.TTL, "30s");
    p.setProperty(DatabaseProperties.POOL_BYTES, "16m");
    p.setProperty(DatabaseProperties.MONOTONIC_READS, "true");
    p.setProperty(DatabaseProperties.CHECKPOINT_INTERVAL, "PT20S");
    p.setProperty(DatabaseProperties.CHECKPOINT_LOCK_TIMEOUT, "40s");
    p.setProperty(DatabaseProperties.PROPAGATION_PERIOD, "4000ms");
    p.setProperty(DatabaseProperties.MAX_RECORDS_PER_CHECKPOINT, "128");
    p.setProperty(DatabaseProperties.CHECKPOINT_WRITES, "timing-only");
    p.setProperty(DatabaseProperties.CLOSE_TIMEOUT, "5s");
    p.setProperty(DatabaseProperties.WRITER_LANES, "8");
    p.setProperty(DatabaseProperties.ATOMIC_TIMEOUT, "2m");
    p.setProperty(DatabaseProperties.CLIENT_ID, "web-1");
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
    assertThat(DatabaseProperties.keys()).hasSize(18);
  }

  @Test
  void isolationKeysReachTheConfiguration() {
    Properties p = new Properties();
    p.setProperty(DatabaseProperties.DATABASE_URI, "db/shop");
    p.setProperty(DatabaseProperties.PROTOCOL, "snapshot_isolation");
    p.setProperty(DatabaseProperties.TRANSACTION_TIMEOUT, "5s");
    p.setProperty(DatabaseProperties.ISOLATION_LEASE, "3m");
    p.setProperty(DatabaseProperties.SNAPSHOT_REUSE, "0ms");

    DatabaseConfig c = DatabaseProperties.builder(cloud, p).build();

    assertThat(c.isolation().transactionTimeout()).isEqualTo(Duration.ofSeconds(5));
    assertThat(c.isolation().leaseTimeout()).isEqualTo(Duration.ofMinutes(3));
    assertThat(c.isolation().snapshotReuse()).isZero();
  }

  @Test
  void defaultsApplyToWhatIsNotSet() {
    DatabaseConfig c =
        DatabaseProperties.builder(cloud, Map.of(DatabaseProperties.DATABASE_URI, "db/shop"))
            .build();
    assertThat(c.protocol()).isEqualTo(DatabaseProperties.PROTOCOL_DEFAULT);
    assertThat(c.pageSize()).isEqualTo(DatabaseProperties.PAGE_SIZE_DEFAULT);
    assertThat(c.ttl()).isEqualTo(DatabaseProperties.TTL_DEFAULT);
    assertThat(c.checkpointInterval()).isEqualTo(DatabaseProperties.CHECKPOINT_INTERVAL_DEFAULT);
    assertThat(c.writerLanes()).isEqualTo(DatabaseProperties.WRITER_LANES_DEFAULT);
    assertThat(c.checkpoints().closeTimeout()).isEqualTo(DatabaseProperties.CLOSE_TIMEOUT_DEFAULT);
  }

  @Test
  void mistakesAreErrorsThatNameTheKey() {
    assertThatThrownBy(() -> DatabaseProperties.builder(cloud, Map.of()))
        .isInstanceOf(InvalidRequestException.class)
        .hasMessageContaining(DatabaseProperties.DATABASE_URI);
    assertThatThrownBy(
            () ->
                DatabaseProperties.builder(
                    cloud,
                    Map.of(DatabaseProperties.DATABASE_URI, "db/shop", "stratus.ttll", "10s")))
        .isInstanceOf(InvalidRequestException.class)
        .hasMessageContaining("stratus.ttll");
    assertThatThrownBy(
            () ->
                DatabaseProperties.builder(
                    cloud,
                    Map.of(
                        DatabaseProperties.DATABASE_URI,
                        "db/shop",
                        DatabaseProperties.TTL,
                        "soon")))
        .isInstanceOf(InvalidRequestException.class)
        .hasMessageContaining("stratus.ttl")
        .hasMessageContaining("not a duration");
    assertThatThrownBy(
            () ->
                DatabaseProperties.builder(
                    cloud,
                    Map.of(
                        DatabaseProperties.DATABASE_URI,
                        "db/shop",
                        DatabaseProperties.PROTOCOL,
                        "gsi")))
        .isInstanceOf(InvalidRequestException.class)
        .hasMessageContaining("naive, basic");
    assertThatThrownBy(
            () ->
                DatabaseProperties.builder(
                    cloud,
                    Map.of(
                        DatabaseProperties.DATABASE_URI,
                        "db/shop",
                        DatabaseProperties.WRITER_LANES,
                        "0")))
        .isInstanceOf(InvalidRequestException.class)
        .hasMessageContaining(DatabaseProperties.WRITER_LANES);
    assertThatThrownBy(
            () ->
                DatabaseProperties.builder(cloud, Map.of(DatabaseProperties.DATABASE_URI, "../x")))
        .isInstanceOf(InvalidRequestException.class);
  }
}
