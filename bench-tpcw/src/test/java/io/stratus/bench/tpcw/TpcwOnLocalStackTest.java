package io.stratus.bench.tpcw;

import static org.assertj.core.api.Assertions.assertThat;

import io.stratus.aws.DynamoFixture;
import io.stratus.aws.LocalStackFixture;
import io.stratus.bench.tpcw.workload.Interaction;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.apache.curator.test.TestingServer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A short TPC-W run of two application servers (clients) against real services, through the
 * command line as a user would start it:
 * S3 and SQS on LocalStack (found or started by the AWS adapter's fixture), locks and counters on
 * a real ZooKeeper. It runs a fixed number of interactions per browser, so it takes the same work
 * on a fast or a slow machine.
 */
class TpcwOnLocalStackTest {

  @Test
  void twoClientsRunTheBookstoreOnLocalStackAndZooKeeperUnderBasicAndAtomic(@TempDir Path dir)
      throws Exception {
    String printed =
        runOnLocalStack(dir, "--protocols", "basic,atomic", "--clients", "2", "--seed", "11");

    assertThat(printed)
        .contains("[1/2] protocol=basic")
        .contains("[2/2] protocol=atomic")
        .contains("client 1:");
    assertThat(Files.readString(dir.resolve("results.csv"))).contains("localstack");
  }

  /**
   * The SDB configuration on real services: the bookstore's secondary indexes in the
   * DynamoDB-compatible server (moto, started by the AWS adapter's fixture) while pages and queues
   * are on LocalStack and locks on ZooKeeper; every interaction type runs without an error.
   */
  @Test
  void theBookstoreRunsWithItsIndexesInTheDynamoDbCompatibleServer(@TempDir Path dir)
      throws Exception {
    String dynamo = DynamoFixture.get().endpoint().toString();

    runOnLocalStack(
        dir, "--index", "sdb", "--index-endpoint", dynamo, "--protocols", "basic", "--seed", "12");

    String csv = Files.readString(dir.resolve("results.csv"));
    assertThat(csv).contains("localstack").contains("sdb");
  }

  /**
   * Runs the bench on LocalStack and a fresh ZooKeeper with a small bookstore (2 browsers of 25
   * interactions each, no warm-up) and the given options, checks that it succeeded with every
   * interaction type and no error, and returns what it printed.
   */
  private static String runOnLocalStack(Path dir, String... options) throws Exception {
    LocalStackFixture localstack = LocalStackFixture.get();
    String endpoint = localstack.config().build().endpoint().orElseThrow().toString();
    StringWriter out = new StringWriter();
    StringWriter err = new StringWriter();
    try (TestingServer zookeeper = new TestingServer(true)) {
      List<String> args =
          new ArrayList<>(
              List.of(
                  "--cloud",
                  "localstack",
                  "--endpoint",
                  endpoint,
                  "--bucket",
                  localstack.bucket(),
                  "--zookeeper",
                  zookeeper.getConnectString(),
                  "--ebs",
                  "2",
                  "--items",
                  "50",
                  "--customers-per-eb",
                  "10",
                  "--warm-up",
                  "0",
                  "--duration",
                  "10m",
                  "--interactions-per-eb",
                  "25",
                  "--out",
                  dir.toString()));
      args.addAll(List.of(options));
      int code =
          StratusBench.run(
              args.toArray(String[]::new), new PrintWriter(out, true), new PrintWriter(err, true));

      assertThat(code).as(err + "\n" + out).isZero();
    }
    String printed = out.toString();
    assertThat(printed).contains("localstack").contains("(0 errors)");
    assertThat(printed).doesNotContain(" 0.00 interactions/s");
    for (Interaction wi : Interaction.values()) {
      assertThat(printed).contains(wi.label());
    }
    return printed;
  }
}
