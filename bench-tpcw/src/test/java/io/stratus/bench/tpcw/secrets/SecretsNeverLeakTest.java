package io.stratus.bench.tpcw.secrets;

import static org.assertj.core.api.Assertions.assertThat;

import io.stratus.aws.AwsCloud;
import io.stratus.aws.AwsConfig;
import io.stratus.aws.LocalStackFixture;
import io.stratus.cloudapi.CloudFutures;
import io.stratus.cloudapi.CloudServices;
import io.stratus.cloudapi.decorate.Decorators;
import io.stratus.cloudapi.decorate.FaultInterceptor;
import io.stratus.cloudapi.decorate.FaultPlan;
import io.stratus.cloudapi.time.SystemScheduler;
import io.stratus.core.Database;
import io.stratus.core.DatabaseConfig;
import io.stratus.core.Key;
import io.stratus.core.Transaction;
import io.stratus.protocols.ProtocolKind;
import io.stratus.zookeeper.ZooKeeperCloud;
import io.stratus.zookeeper.ZooKeeperConfig;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.net.ServerSocket;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import org.apache.curator.test.TestingServer;
import org.junit.jupiter.api.Test;

/**
 * No secret of a deployment appears in what Stratus logs, in the messages and string forms of
 * the exceptions it throws, or in the string forms of its configuration objects, also when things
 * go wrong: a run on LocalStack and a real ZooKeeper with static AWS credentials and ZooKeeper
 * digest credentials, with injected failures, unavailability and lost replies on every service,
 * damaged log messages, clients refused for wrong or missing ZooKeeper credentials, and services
 * that cannot be reached. Everything is captured (see {@link OutputCapture}) and searched for
 * every entry of {@link #SECRETS}.
 */
class SecretsNeverLeakTest {
  static final String AWS_ACCESS_KEY_ID = "AKIASTRATUSLEAK0TEST";
  static final String AWS_SECRET_ACCESS_KEY = "wJalrXUtnFEMI/K7MDENG/bPxRfiCYLEAKTESTKEY";
  static final String AWS_SESSION_TOKEN = "FwoGZXIvYXdzEStratusLeakTestSessionToken";
  static final String ZK_USER = "stratus-app";
  static final String ZK_PASSWORD = "zk-Leak-Test-Password-93b1";

  /**
   * Every secret the run is given; a new kind of secret (e.g. a storage encryption key) is added
   * here and to the configuration the run uses.
   */
  static final List<String> SECRETS =
      List.of(AWS_ACCESS_KEY_ID, AWS_SECRET_ACCESS_KEY, AWS_SESSION_TOKEN, ZK_PASSWORD);

  private final List<String> thrown = new ArrayList<>();
  private final List<String> printed = new ArrayList<>();

  @Test
  void noSecretInLogsExceptionsOrConfigurationsOfAFaultyRun() throws Exception {
    LocalStackFixture localstack = LocalStackFixture.get();
    String run = "leak-" + UUID.randomUUID().toString().substring(0, 8);
    String captured;
    long projectLogRecords;
    try (TestingServer zookeeper = new TestingServer(true);
        OutputCapture capture = new OutputCapture()) {
      AwsConfig awsConfig =
          localstack
              .config()
              .keyPrefix(run + "/")
              .queueNamePrefix(run)
              .staticCredentials(AWS_ACCESS_KEY_ID, AWS_SECRET_ACCESS_KEY, AWS_SESSION_TOKEN)
              .build();
      ZooKeeperConfig zkConfig =
          ZooKeeperConfig.builder(zookeeper.getConnectString())
              .namespace(run)
              .freshNamespaceRefusal(Duration.ZERO)
              .digestCredentials(ZK_USER, ZK_PASSWORD)
              .build();
      printed.add(awsConfig.toString());
      printed.add(zkConfig.toString());
      printed.add(awsConfig.toBuilder().toString());

      try (AwsCloud aws = AwsCloud.connect(awsConfig);
          ZooKeeperCloud zk = ZooKeeperCloud.connect(zkConfig);
          SystemScheduler scheduler = new SystemScheduler()) {
        printed.add(aws.toString());
        printed.add(zk.toString());
        CloudServices raw = zk.addTo(aws.addTo(CloudServices.builder())).build();
        printed.add(raw.toString());
        FaultInterceptor faults =
            new FaultInterceptor(
                FaultPlan.builder()
                    .fail(FaultPlan.Selector.all(), 0.08)
                    .unavailable(FaultPlan.Selector.all(), 0.05)
                    .loseReply(FaultPlan.Selector.all(), 0.03)
                    .build(),
                42,
                scheduler);
        CloudServices faulty = Decorators.wrap(raw, faults);
        for (ProtocolKind protocol : List.of(ProtocolKind.BASIC, ProtocolKind.SNAPSHOT_ISOLATION)) {
          faultyWorkload(faulty, raw, "db/" + protocol.name().toLowerCase(), protocol);
        }
        assertThat(faults.injectedFaults()).as("faults were injected").isNotEmpty();
        printed.add(faults.injectedFaults().toString());

        // Clients that are refused: wrong password, no credentials.
        attempt(
            () ->
                ZooKeeperCloud.connect(
                    ZooKeeperConfig.builder(zookeeper.getConnectString())
                        .namespace(run)
                        .digestCredentials(ZK_USER, ZK_PASSWORD + "x")
                        .build()));
        attempt(
            () ->
                ZooKeeperCloud.connect(
                    ZooKeeperConfig.builder(zookeeper.getConnectString()).namespace(run).build()));
      }

      // Services that cannot be reached, with the same credentials.
      int deadPort;
      try (ServerSocket s = new ServerSocket(0)) {
        deadPort = s.getLocalPort();
      }
      attempt(
          () ->
              ZooKeeperCloud.connect(
                  ZooKeeperConfig.builder("127.0.0.1:" + deadPort)
                      .connectionTimeout(Duration.ofMillis(500))
                      .digestCredentials(ZK_USER, ZK_PASSWORD)
                      .build()));
      try (AwsCloud dead =
          AwsCloud.connect(
              AwsConfig.builder("no-such-bucket-" + run.substring(5))
                  .region("us-east-1")
                  .endpoint(URI.create("http://127.0.0.1:" + deadPort))
                  .pathStyleAccess(true)
                  .maxAttempts(1)
                  .apiCallTimeout(Duration.ofSeconds(5))
                  .staticCredentials(AWS_ACCESS_KEY_ID, AWS_SECRET_ACCESS_KEY, AWS_SESSION_TOKEN)
                  .build())) {
        attempt(() -> CloudFutures.await(dead.storage().get("x")));
        attempt(() -> CloudFutures.await(dead.simpleQueues().send("q", new byte[] {1})));
      } catch (RuntimeException e) {
        record(e); // connecting may already fail
      }
      // A bucket that does not exist on a service that answers.
      try (AwsCloud wrong =
          AwsCloud.connect(
              localstack
                  .config()
                  .bucket("no-such-bucket-" + run.substring(5))
                  .staticCredentials(AWS_ACCESS_KEY_ID, AWS_SECRET_ACCESS_KEY)
                  .build())) {
        attempt(() -> CloudFutures.await(wrong.storage().get("x")));
      } catch (RuntimeException e) {
        record(e);
      }
      captured = capture.text();
      projectLogRecords = capture.julRecords();
    }

    assertThat(projectLogRecords).as("the project's warnings were captured").isPositive();
    assertThat(captured).as("the damaged messages were warned about").contains("damaged");
    assertThat(thrown).as("failures were thrown and recorded").hasSizeGreaterThan(5);
    for (String secret : SECRETS) {
      assertThat(captured).as("logs").doesNotContain(secret);
      for (String t : thrown) {
        assertThat(t).as("an exception").doesNotContain(secret);
      }
      for (String p : printed) {
        assertThat(p).as("a toString").doesNotContain(secret);
      }
    }
  }

  /** Loads, updates under injected faults, damages the log queues, checkpoints. */
  private void faultyWorkload(
      CloudServices faulty, CloudServices raw, String name, ProtocolKind protocol) {
    DatabaseConfig config =
        DatabaseConfig.builder(faulty, name)
            .protocol(protocol)
            .clientId(name.replace('/', '-'))
            .pageSize(2048)
            .ttl(Duration.ZERO)
            .checkpointExecutor(task -> {})
            .build();
    printed.add(config.toString());
    Database db = open(config);
    try {
      printed.add(db.toString());
      attempt(() -> db.createCollection("items"));
      for (int round = 0; round < 30; round++) {
        int r = round;
        attempt(
            () -> {
              try (Transaction tx = db.begin()) {
                for (long k = 0; k < 5; k++) {
                  tx.put(
                      "items",
                      Key.of(k + 5L * (r % 4)),
                      ("v" + r).getBytes(StandardCharsets.UTF_8));
                }
                tx.commit();
              }
            });
      }
      attempt(
          () -> {
            List<String> queues = CloudFutures.await(raw.simpleQueues().listQueues(name));
            for (String q : queues) {
              CloudFutures.await(
                  raw.simpleQueues().send(q, "not a log message".getBytes(StandardCharsets.UTF_8)));
            }
          });
      for (int i = 0; i < 3; i++) {
        attempt(db.admin()::checkpointAll);
      }
      printed.add(db.stats().toString());
    } finally {
      attempt(db::close);
    }
  }

  /** Opens the database, retrying the failures the faults cause. */
  private Database open(DatabaseConfig config) {
    for (int i = 0; i < 10; i++) {
      try {
        return Database.open(config);
      } catch (RuntimeException e) {
        record(e);
      }
    }
    throw new AssertionError("the database did not open in 10 attempts under the faults");
  }

  private void attempt(ThrowingRunnable body) {
    try {
      body.run();
    } catch (Exception | Error e) {
      if (e instanceof AssertionError) {
        throw (AssertionError) e;
      }
      record(e);
    }
  }

  /** The message, string form and printed stack trace (causes and suppressed included). */
  private void record(Throwable e) {
    StringWriter trace = new StringWriter();
    e.printStackTrace(new PrintWriter(trace));
    StringBuilder all = new StringBuilder(trace.toString());
    for (Throwable t = e; t != null; t = t.getCause()) {
      all.append('\n').append(t.getMessage()).append('\n').append(t);
    }
    thrown.add(all.toString());
  }

  private interface ThrowingRunnable {
    void run() throws Exception;
  }
}
