package io.stratus.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.stratus.cloudapi.CloudFutures;
import io.stratus.cloudapi.CloudServices;
import io.stratus.cloudapi.Operation;
import io.stratus.cloudapi.StoredItem;
import io.stratus.cloudapi.decorate.CloudMeter;
import io.stratus.cloudapi.decorate.Decorators;
import io.stratus.cloudapi.decorate.MeterSnapshot;
import io.stratus.cloudapi.decorate.MeteringInterceptor;
import io.stratus.cloudapi.decorate.OperationStats;
import io.stratus.cloudapi.inprocess.InProcessCloud;
import io.stratus.cloudapi.inprocess.QueueBehavior;
import io.stratus.cloudapi.time.ManualClock;
import io.stratus.core.Database;
import io.stratus.core.DatabaseConfig;
import io.stratus.core.Key;
import io.stratus.core.Record;
import io.stratus.core.Transaction;
import io.stratus.protocols.ProtocolKind;
import io.stratus.protocols.StorageLayout;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Executor;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The operator commands run in-process against a prepared in-process cloud on a manual clock:
 * exit codes, text and JSON output, and that maintenance through the command line does what the
 * library call does.
 */
class StratusCliTest {
  private static final String DB = "db/shop";
  private static final StorageLayout LAYOUT = new StorageLayout(DB);

  /** Background checkpoints never run: the tests decide when pending updates are applied. */
  private static final Executor NEVER = task -> {};

  private final ManualClock clock = new ManualClock();
  private final InProcessCloud cloud =
      InProcessCloud.builder().clock(clock).queueBehavior(QueueBehavior.reliable()).build();
  private final List<Database> opened = new ArrayList<>();
  private final StringWriter out = new StringWriter();
  private final StringWriter err = new StringWriter();

  /** Every cloud call the commands make, as the command's services see them. */
  private final CloudMeter calls = new CloudMeter();

  /** The environment the commands see. */
  private final Map<String, String> env = new HashMap<>();

  @AfterEach
  void close() {
    opened.forEach(Database::close);
  }

  /** A database under {@code protocol} with 100 records in "items"; pages of 1 KiB. */
  private Database app(ProtocolKind protocol) {
    DatabaseConfig.Builder b =
        DatabaseConfig.builder(cloud.services(), DB)
            .protocol(protocol)
            .clock(clock)
            .pageSize(1024)
            .clientId("app");
    if (protocol != ProtocolKind.NAIVE) {
      b.checkpointExecutor(NEVER);
    }
    Database db = Database.open(b.build());
    opened.add(db);
    db.createCollection("items");
    List<Record> records = new ArrayList<>();
    for (int i = 0; i < 100; i++) {
      records.add(new Record(Key.of((long) i), bytes("item " + i)));
    }
    db.bulkLoad("items", records);
    return db;
  }

  private int run(String... args) {
    CloudOpener opener =
        new CloudOpener() {
          @Override
          public CloudServices open(ConnectionOptions options) {
            // The command closes what it opens; the test's cloud must outlive it.
            return Decorators.wrap(
                CloudServices.builder()
                    .storage(cloud.services().storage())
                    .simpleQueues(cloud.services().simpleQueues())
                    .advancedQueues(cloud.services().advancedQueues())
                    .locks(cloud.services().locks())
                    .counters(cloud.services().counters())
                    .build(),
                new MeteringInterceptor(calls));
          }

          @Override
          public String environment(String name) {
            return env.get(name);
          }

          @Override
          public Clock clock() {
            return clock;
          }
        };
    return StratusCli.run(args, new PrintWriter(out, true), new PrintWriter(err, true), opener);
  }

  @Test
  void verifyOfACleanDatabaseExitsZero() {
    app(ProtocolKind.NAIVE);

    int code = run("verify", "--db", DB, "--protocol", "naive");

    assertThat(code).as(out + "\n" + err).isZero();
    assertThat(out.toString()).contains("CLEAN").contains("database " + DB + ": 1 trees");
  }

  @Test
  void verifyOfACorruptPageExitsTwoAndSaysSoInJson() {
    app(ProtocolKind.NAIVE);
    String root = LAYOUT.collectionRoot("items");
    StoredItem item = CloudFutures.await(cloud.services().storage().get(root)).orElseThrow();
    byte[] bad = item.payload();
    bad[bad.length - 1] ^= 0x01;
    CloudFutures.await(cloud.services().storage().put(root, bad, Map.of()));

    int code = run("verify", "--db", DB, "--protocol", "naive", "--json");

    assertThat(code).isEqualTo(2);
    String json = out.toString().trim();
    assertThat(json)
        .startsWith("{")
        .endsWith("}")
        .contains("\"status\":\"errors\"")
        .contains("\"exitCode\":2")
        .contains("\"kind\":\"CORRUPT_PAGE\"")
        .contains("\"uri\":\"" + root + "\"");
  }

  @Test
  void aLateBacklogWarnsAndCheckpointAllClearsIt() {
    Database db = app(ProtocolKind.MONOTONIC);
    try (Transaction tx = db.begin()) {
      tx.update("items", Key.of(5L), bytes("changed"));
      tx.commit();
    }
    clock.advance(Duration.ofMinutes(10));

    assertThat(run("verify", "--db", DB, "--checkpoint-interval", "30"))
        .as(out.toString())
        .isEqualTo(1);
    assertThat(out.toString()).contains("QUEUE_BACKLOG").contains("1 messages");

    assertThat(run("checkpoint-all", "--db", DB)).as(out + "\n" + err).isZero();
    assertThat(out.toString()).contains("1 records applied").contains("quiescent");
    assertThat(run("verify", "--db", DB, "--checkpoint-interval", "30")).isZero();
  }

  @Test
  void inspectShowsAPageAndAQueueWithoutConsumingIt() {
    Database db = app(ProtocolKind.MONOTONIC);
    try (Transaction tx = db.begin()) {
      tx.update("items", Key.of(5L), bytes("changed"));
      tx.commit();
    }
    String root = LAYOUT.collectionRoot("items");

    assertThat(run("inspect", "page", root, "--db", DB, "--limit", "2")).isZero();
    assertThat(out.toString())
        .contains(root + ": INNER, level 1")
        .contains("[0] (empty)")
        .contains("more entries");

    List<String> queues =
        CloudFutures.await(
            cloud.services().simpleQueues().listQueues(LAYOUT.pendingUpdatePrefix()));
    assertThat(queues).hasSize(1);
    clock.advance(Duration.ofSeconds(90));
    assertThat(run("inspect", "queue", queues.get(0), "--db", DB)).as(err.toString()).isZero();
    assertThat(out.toString())
        .contains("1 messages (1 visible, 0 in flight), oldest 90 s")
        .contains("0 deliveries");
    assertThat(db.admin().checkpointAll().recordsApplied())
        .as("the peek took nothing")
        .isEqualTo(1);
  }

  @Test
  void aDamagedMessageIsListedAsADeadLetterAndSkipped() {
    Database db = app(ProtocolKind.MONOTONIC);
    try (Transaction tx = db.begin()) {
      tx.update("items", Key.of(5L), bytes("changed"));
      tx.commit();
    }
    String queue =
        CloudFutures.await(cloud.services().simpleQueues().listQueues(LAYOUT.pendingUpdatePrefix()))
            .get(0);
    CloudFutures.await(cloud.services().simpleQueues().send(queue, bytes("not a log message")));

    assertThat(run("checkpoint-all", "--db", DB)).as(out + "\n" + err).isZero();
    assertThat(run("dead-letters", "list", "--db", DB)).as(err.toString()).isEqualTo(1);
    assertThat(out.toString()).contains("queue=" + queue).contains("1 dead letter(s)");
    assertThat(run("verify", "--db", DB)).isEqualTo(1);
    assertThat(out.toString()).contains("DEAD_LETTER");

    String item = db.admin().deadLetters().get(0).item();
    clock.advance(Duration.ofMinutes(1)); // past the checkpoint's hiding of what it received
    assertThat(run("dead-letters", "skip", item, "--db", DB)).as(out + "\n" + err).isZero();
    assertThat(out.toString()).contains("skipped " + item);
    assertThat(db.admin().deadLetters()).isEmpty();
    assertThat(run("dead-letters", "discard", item, "--db", DB)).isEqualTo(1);
    assertThat(err.toString()).contains("no dead letter " + item);
  }

  @Test
  void statsListsCollectionsCountsAndCloudCalls() {
    app(ProtocolKind.NAIVE);

    assertThat(run("stats", "--db", DB, "--protocol", "naive")).isZero();

    assertThat(out.toString())
        .contains("collection items: 100 records, indexes []")
        .contains("cloud calls made by this command")
        .contains("STORAGE_GET");
  }

  @Test
  void statsOnlyReadsAndTellsAboutTheDatabaseNotItsOwnHandle() {
    Database db = app(ProtocolKind.MONOTONIC);
    try (Transaction tx = db.begin()) {
      tx.update("items", Key.of(5L), bytes("changed"));
      tx.commit();
    }
    MeterSnapshot before = calls.snapshot();

    assertThat(run("stats", "--db", DB)).as(out + "\n" + err).isZero();

    Map<Operation, OperationStats> made = calls.snapshot().minus(before).perOperation();
    List<Operation> used =
        made.entrySet().stream()
            .filter(e -> e.getValue().calls() > 0)
            .map(Map.Entry::getKey)
            .toList();
    assertThat(used).isNotEmpty().noneMatch(Operation::isMutating);
    assertThat(used)
        .allMatch(
            o ->
                o.service() == Operation.Service.STORAGE
                    || o == Operation.QUEUE_LIST
                    || o == Operation.QUEUE_INSPECT,
            "storage reads, queue listings and inspections only");
    assertThat(out.toString())
        .contains("collection items: 100 records, indexes []")
        .contains("queues: 1, 1 messages waiting")
        .doesNotContain("aborts")
        .doesNotContain("BufferPoolStats");
    assertThat(db.admin().checkpointAll().recordsApplied())
        .as("stats took no message")
        .isEqualTo(1);
  }

  @Test
  void verifyAndStatsOfAMisspeltDatabaseSayWhichOnesExist() {
    app(ProtocolKind.NAIVE);

    assertThat(run("verify", "--db", "db/shpo", "--protocol", "naive"))
        .as(out.toString())
        .isEqualTo(StratusCli.EXIT_FAILED);
    assertThat(out.toString()).doesNotContain("CLEAN");
    assertThat(err.toString())
        .contains("database db/shpo not found")
        .contains("databases found: " + DB);
    assertThat(run("stats", "--db", "db/shpo")).isEqualTo(StratusCli.EXIT_FAILED);
  }

  @Test
  void anUnreachableCloudExitsThreeNamingWhereItLooked() {
    int code =
        StratusCli.run(
            new String[] {
              "verify",
              "--cloud",
              "localstack",
              "--endpoint",
              "http://127.0.0.1:9/?token=s3cr3t",
              "--bucket",
              "bkt",
              "--db",
              DB
            },
            new PrintWriter(out, true),
            new PrintWriter(err, true),
            new RealClouds());

    assertThat(code).as(out + "\n" + err).isEqualTo(StratusCli.EXIT_FAILED);
    assertThat(out.toString()).doesNotContain("CATALOG_CORRUPT");
    assertThat(err.toString())
        .contains("cannot read the storage of LocalStack at http://127.0.0.1:9/?****, bucket bkt")
        .contains("check that the endpoint")
        .doesNotContain("s3cr3t");
  }

  @Test
  void aRealCloudWithoutBucketOrEndpointIsAUsageError() {
    assertThat(run("verify", "--cloud", "localstack", "--endpoint", "http://h:1"))
        .isEqualTo(StratusCli.EXIT_USAGE);
    assertThat(err.toString())
        .contains("--cloud localstack needs --bucket")
        .contains("Try 'stratus verify --help'.");
    assertThat(run("stats", "--cloud", "localstack", "--bucket", "b"))
        .isEqualTo(StratusCli.EXIT_USAGE);
    assertThat(err.toString()).contains("needs --endpoint");
    assertThat(run("--no-such-flag")).isEqualTo(StratusCli.EXIT_USAGE);
    assertThat(err.toString()).contains("Try 'stratus --help'.").doesNotContain("stratus  --help");
  }

  @Test
  void helpListsEveryCommandsWholeDescription() {
    assertThat(run("--help")).isZero();
    String help = out.toString().replaceAll("\\s+", " ");
    assertThat(help)
        .contains("Exit code 0 clean, 1 warnings, 2 errors")
        .contains("Read-only: collections, indexes, pages and record counts");
  }

  @Test
  void timeoutOptionsReachTheConfiguration() {
    app(ProtocolKind.ATOMIC);

    assertThat(
            run(
                "recover",
                "--db",
                DB,
                "--protocol",
                "atomic",
                "--lock-timeout",
                "7",
                "--atomic-timeout",
                "5"))
        .isEqualTo(StratusCli.EXIT_FAILED);
    assertThat(err.toString()).contains("atomicTimeout(PT5S)");
    assertThat(
            run(
                "recover",
                "--db",
                DB,
                "--protocol",
                "atomic",
                "--lock-timeout",
                "7",
                "--atomic-timeout",
                "20"))
        .as(err.toString())
        .isZero();
  }

  @Test
  void zooKeeperCredentialsComeFromTheEnvironmentAndNeverShow() {
    ConnectionOptions o = new ConnectionOptions();
    o.zkDigestEnv = ConnectionOptions.ZK_DIGEST_ENV;
    RealClouds clouds = new RealClouds(env::get);
    assertThat(clouds.digest(o)).isEmpty();
    env.put(ConnectionOptions.ZK_DIGEST_ENV, "shop-app:pa:ss");
    assertThat(clouds.digest(o))
        .hasValueSatisfying(d -> assertThat(d).containsExactly("shop-app", "pa:ss"));
    env.put(ConnectionOptions.ZK_DIGEST_ENV, "no-colon-secret");
    assertThatThrownBy(() -> clouds.digest(o))
        .isInstanceOf(UsageException.class)
        .hasMessageContaining(ConnectionOptions.ZK_DIGEST_ENV)
        .hasMessageNotContaining("no-colon-secret");
  }

  @Test
  void recoverUnderTheAtomicProtocolReportsWhatItDid() {
    app(ProtocolKind.ATOMIC);

    assertThat(run("recover", "--db", DB, "--protocol", "atomic")).as(err.toString()).isZero();
    assertThat(out.toString()).contains("recover of " + DB).contains("quiescent");
  }

  @Test
  void badFlagsAndFailuresHaveTheirOwnExitCodes() {
    assertThat(run("verify", "--no-such-flag")).isEqualTo(StratusCli.EXIT_USAGE);
    assertThat(err.toString()).contains("Unknown option");
    assertThat(run("verify", "--protocol", "nonsense")).isEqualTo(StratusCli.EXIT_FAILED);
    assertThat(err.toString()).contains("unknown protocol 'nonsense'");
    assertThat(run("inspect", "page", "db/none")).isEqualTo(StratusCli.EXIT_FAILED);
  }

  @Test
  void theDemoDatabaseVerifiesOnTheInProcessCloud() {
    int code =
        StratusCli.run(
            new String[] {"verify", "--demo", "--db", "demo"},
            new PrintWriter(out, true),
            new PrintWriter(err, true),
            new RealClouds());

    assertThat(code).as(out + "\n" + err).isZero();
    assertThat(out.toString())
        .contains("2 trees")
        .contains("INDEX_NOT_CHECKED")
        .contains("queues:");
  }

  private static byte[] bytes(String s) {
    return s.getBytes(StandardCharsets.UTF_8);
  }
}
