package io.stratus.bench.tpcw.harness;

import static org.assertj.core.api.Assertions.assertThat;

import io.stratus.aws.LocalStackFixture;
import io.stratus.core.Database;
import io.stratus.core.Key;
import io.stratus.core.Record;
import io.stratus.core.Transaction;
import io.stratus.protocols.ProtocolKind;
import java.io.IOException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.curator.test.TestingServer;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * The isolating protocols across separate client processes on real services: S3 on LocalStack
 * (found or started by the AWS adapter's fixture) and locks, counters and advanced queues on a
 * real ZooKeeper. Three client JVMs ({@link BankClient}) move money between ten accounts and audit
 * the total with read-only transactions; every audit must see the starting total, and so must the
 * end state, read by a fourth client after a checkpoint of everything.
 */
class MultiProcessIsolationTest {
  private static final int CLIENTS = 3;
  private static final int TRANSACTIONS = 12;
  private static final int ACCOUNTS = 10;
  private static final long START = 100;
  private static final Pattern RESULT =
      Pattern.compile("transfers (\\d+) audits (\\d+) bad (\\d+)");

  @ParameterizedTest
  @EnumSource(names = {"SNAPSHOT_ISOLATION", "SERIALIZABLE_SNAPSHOT", "TWO_PHASE_LOCKING"})
  void clientProcessesKeepTheTotalForEveryAudit(ProtocolKind kind, @TempDir Path dir)
      throws Exception {
    LocalStackFixture localstack = LocalStackFixture.get();
    URI endpoint = localstack.config().build().endpoint().orElseThrow();
    String runId =
        "bank-"
            + kind.name().substring(0, 4).toLowerCase(Locale.ROOT).replace('_', '-')
            + Long.toHexString(System.nanoTime() & 0xffffL);
    try (TestingServer zookeeper = new TestingServer(true)) {
      String zk = zookeeper.getConnectString();
      try (CloudConnection cloud = BankClient.connect(endpoint, localstack.bucket(), zk, runId);
          Database db = Database.open(BankClient.config(cloud, runId, kind, "loader").build())) {
        db.createCollection(BankClient.COLLECTION);
        db.run(
            tx -> {
              for (long a = 0; a < ACCOUNTS; a++) {
                tx.create(BankClient.COLLECTION, Key.of(a), BankClient.amount(START));
              }
              return null;
            });
      }
      List<Process> clients = new ArrayList<>();
      for (int c = 0; c < CLIENTS; c++) {
        clients.add(start(dir, c, endpoint, localstack.bucket(), zk, runId, kind));
      }
      int transfers = 0;
      for (int c = 0; c < CLIENTS; c++) {
        Process p = clients.get(c);
        boolean ended = p.waitFor(5, TimeUnit.MINUTES);
        String out = Files.readString(dir.resolve("client-" + c + ".out"));
        String err = Files.readString(dir.resolve("client-" + c + ".err"));
        if (!ended) {
          p.destroyForcibly();
        }
        assertThat(ended && p.exitValue() == 0).as("client %d: %s%n%s", c, out, err).isTrue();
        Matcher m = RESULT.matcher(out);
        assertThat(m.find()).as("client %d printed its result: %s%n%s", c, out, err).isTrue();
        assertThat(Integer.parseInt(m.group(3))).as("client %d's bad audits: %s", c, err).isZero();
        assertThat(Integer.parseInt(m.group(2))).isEqualTo(TRANSACTIONS / 4);
        transfers += Integer.parseInt(m.group(1));
      }
      assertThat(transfers).isEqualTo(CLIENTS * (TRANSACTIONS - TRANSACTIONS / 4));
      try (CloudConnection cloud = BankClient.connect(endpoint, localstack.bucket(), zk, runId);
          Database db = Database.open(BankClient.config(cloud, runId, kind, "checker").build())) {
        db.admin().checkpointAll();
        long total = 0;
        try (Transaction tx = db.begin()) {
          for (Record r : toList(tx)) {
            total += Long.parseLong(new String(r.payload(), StandardCharsets.UTF_8));
          }
        }
        assertThat(total).as("the end state's total").isEqualTo(ACCOUNTS * START);
      }
    }
  }

  private static List<Record> toList(Transaction tx) {
    List<Record> out = new ArrayList<>();
    try (var c = tx.scan(BankClient.COLLECTION)) {
      while (c.hasNext()) {
        out.add(c.next());
      }
    }
    return out;
  }

  private static Process start(
      Path dir, int client, URI endpoint, String bucket, String zk, String runId, ProtocolKind kind)
      throws IOException {
    String java = ProcessHandle.current().info().command().orElse("java");
    List<String> cmd =
        List.of(
            java,
            // Each client lives for seconds and mostly loads classes, with two others beside it:
            // the C1 compiler alone and a single-threaded collector spare the shared cores the
            // optimizing compiler's and G1's threads, whose work only pays off in longer runs.
            "-XX:TieredStopAtLevel=1",
            "-XX:+UseSerialGC",
            "-cp",
            System.getProperty("java.class.path"),
            BankClient.class.getName(),
            endpoint.toString(),
            bucket,
            zk,
            runId,
            kind.name(),
            "client-" + client,
            Long.toString(1000 + client),
            Integer.toString(TRANSACTIONS),
            Integer.toString(ACCOUNTS),
            Long.toString(ACCOUNTS * START));
    return new ProcessBuilder(cmd)
        .redirectOutput(dir.resolve("client-" + client + ".out").toFile())
        .redirectError(dir.resolve("client-" + client + ".err").toFile())
        .start();
  }
}
