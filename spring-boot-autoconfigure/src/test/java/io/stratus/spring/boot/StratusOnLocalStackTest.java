package io.stratus.spring.boot;

import static org.assertj.core.api.Assertions.assertThat;

import io.stratus.aws.LocalStackFixture;
import io.stratus.core.Database;
import io.stratus.core.Key;
import io.stratus.protocols.ProtocolKind;
import java.nio.charset.StandardCharsets;
import java.util.Optional;
import java.util.UUID;
import org.apache.curator.test.TestingServer;
import org.junit.jupiter.api.Test;
import org.springframework.boot.actuate.health.Status;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

/**
 * The auto-configuration on real services, from properties alone: S3 and SQS on LocalStack (the
 * AWS adapter's fixture finds or starts one), locks, counters and advanced queues on ZooKeeper
 * (an in-JVM server), under snapshot isolation, which uses all of them.
 */
class StratusOnLocalStackTest {

  @Test
  void aContextOnLocalStackAndZooKeeperCommitsAndReads() throws Exception {
    LocalStackFixture localstack = LocalStackFixture.get();
    String endpoint = localstack.config().build().endpoint().orElseThrow().toString();
    String db = "db/spring-" + UUID.randomUUID().toString().substring(0, 8);
    try (TestingServer zk = new TestingServer(true)) {
      new ApplicationContextRunner()
          .withConfiguration(
              AutoConfigurations.of(
                  StratusAutoConfiguration.class, StratusHealthAutoConfiguration.class))
          .withPropertyValues(
              "stratus.cloud.kind=localstack",
              "stratus.cloud.endpoint=" + endpoint,
              "stratus.cloud.bucket=" + localstack.bucket(),
              "stratus.cloud.zookeeper.connect-string=" + zk.getConnectString(),
              "stratus.cloud.zookeeper.fresh-namespace-refusal=0s", // a new deployment
              "stratus.database-uri=" + db,
              "stratus.protocol=snapshot_isolation")
          .run(
              ctx -> {
                assertThat(ctx).hasNotFailed();
                Database d = ctx.getBean(Database.class);
                assertThat(d.config().protocol()).isEqualTo(ProtocolKind.SNAPSHOT_ISOLATION);
                d.createCollection("books");
                d.run(tx -> tx.put("books", Key.of(7L), "Dune".getBytes(StandardCharsets.UTF_8)));
                Optional<byte[]> read = d.read(tx -> tx.read("books", Key.of(7L)));
                assertThat(read)
                    .hasValueSatisfying(
                        v -> assertThat(new String(v, StandardCharsets.UTF_8)).isEqualTo("Dune"));
                assertThat(ctx.getBean(StratusHealthIndicator.class).health().getStatus())
                    .isEqualTo(Status.UP);
              });
    }
  }
}
