package io.stratus.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.stratus.aws.AwsCloud;
import io.stratus.aws.LocalStackFixture;
import io.stratus.cloudapi.CloudFutures;
import io.stratus.cloudapi.CloudServices;
import io.stratus.cloudapi.StorageService;
import io.stratus.cloudapi.inprocess.InProcessCloud;
import io.stratus.core.Database;
import io.stratus.core.DatabaseConfig;
import io.stratus.core.Key;
import io.stratus.core.Record;
import io.stratus.core.Transaction;
import io.stratus.protocols.ProtocolKind;
import io.stratus.protocols.StorageLayout;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * {@code bin/stratus} as an operator runs it: a separate process against S3 and SQS on LocalStack
 * (found or started by the AWS adapter's fixture), looking at a database this test wrote through
 * the library. Runs after package, so the launcher finds its jar built.
 */
class StratusOnLocalStackIT {
  /** Bounds each run of the launcher (a JVM start and a few requests). */
  private static final long PROCESS_TIMEOUT_SECONDS = 120;

  private record Result(int code, String out, String err) {}

  @Test
  void verifyAndInspectThroughTheLauncher() throws Exception {
    LocalStackFixture localstack = LocalStackFixture.get();
    String endpoint = localstack.config().build().endpoint().orElseThrow().toString();
    String run = UUID.randomUUID().toString().substring(0, 8);
    String keyPrefix = "cli-" + run + "/";
    String queuePrefix = "cli" + run + "-";
    String db = "db/ops";
    List<String> connection =
        List.of(
            "--cloud",
            "localstack",
            "--endpoint",
            endpoint,
            "--bucket",
            localstack.bucket(),
            "--key-prefix",
            keyPrefix,
            "--queue-prefix",
            queuePrefix,
            "--db",
            db);
    StorageLayout layout = new StorageLayout(db);

    AwsCloud aws =
        AwsCloud.connect(
            localstack.config().keyPrefix(keyPrefix).queueNamePrefix(queuePrefix).build());
    CloudServices in = InProcessCloud.create().services();
    CloudServices services =
        aws.addTo(CloudServices.builder())
            .locks(in.locks())
            .counters(in.counters())
            .advancedQueues(in.advancedQueues())
            .build();
    try (services;
        Database app =
            Database.open(
                DatabaseConfig.builder(services, db)
                    .protocol(ProtocolKind.MONOTONIC)
                    .pageSize(2048)
                    .checkpointExecutor(task -> {})
                    .build())) {
      app.createCollection("items");
      List<Record> records = new ArrayList<>();
      for (int i = 0; i < 60; i++) {
        records.add(new Record(Key.of((long) i), bytes("item " + i)));
      }
      app.bulkLoad("items", records);
      try (Transaction tx = app.begin()) {
        tx.update("items", Key.of(3L), bytes("changed"));
        tx.commit();
      }

      Result clean = stratus(with(List.of("verify"), connection));
      assertThat(clean.code()).as(clean.out() + clean.err()).isZero();
      assertThat(clean.out()).contains("CLEAN").contains("queues:").contains("1 messages");

      String queue = layout.pendingUpdatePrefix();
      Result inspect =
          stratus(
              with(List.of("inspect", "queue"), connection, List.of(onlyQueue(services, layout))));
      assertThat(inspect.code()).as(inspect.err()).isZero();
      assertThat(inspect.out()).contains(queue).contains("1 messages");

      StorageService storage = services.storage();
      String root = layout.collectionRoot("items");
      byte[] page = CloudFutures.await(storage.get(root)).orElseThrow().payload();
      page[page.length / 2] ^= 0x40;
      CloudFutures.await(storage.put(root, page, Map.of()));

      Result damaged = stratus(with(List.of("verify", "--json"), connection));
      assertThat(damaged.code()).as(damaged.out() + damaged.err()).isEqualTo(2);
      assertThat(damaged.out())
          .contains("\"kind\":\"CORRUPT_PAGE\"")
          .contains("\"uri\":\"" + root + "\"");
    }
  }

  private static String onlyQueue(CloudServices services, StorageLayout layout) {
    List<String> queues =
        CloudFutures.await(services.simpleQueues().listQueues(layout.pendingUpdatePrefix()));
    assertThat(queues).hasSize(1);
    return queues.get(0);
  }

  @SafeVarargs
  private static List<String> with(List<String>... parts) {
    List<String> all = new ArrayList<>();
    for (List<String> p : parts) {
      all.addAll(p);
    }
    return all;
  }

  /** Runs bin/stratus with {@code args}; waits for it, bounded. */
  private static Result stratus(List<String> args) throws IOException, InterruptedException {
    Path root = projectRoot();
    List<String> command = new ArrayList<>(List.of("bash", root.resolve("bin/stratus").toString()));
    command.addAll(args);
    Path out = Files.createTempFile("stratus-cli", ".out");
    Path err = Files.createTempFile("stratus-cli", ".err");
    Process p =
        new ProcessBuilder(command)
            .directory(root.toFile())
            .redirectOutput(out.toFile())
            .redirectError(err.toFile())
            .start();
    if (!p.waitFor(PROCESS_TIMEOUT_SECONDS, TimeUnit.SECONDS)) {
      p.destroyForcibly();
      throw new AssertionError(
          "bin/stratus "
              + args
              + " did not finish within "
              + PROCESS_TIMEOUT_SECONDS
              + " s: "
              + Files.readString(err));
    }
    return new Result(p.exitValue(), Files.readString(out), Files.readString(err));
  }

  private static Path projectRoot() {
    for (Path p = Path.of("").toAbsolutePath(); p != null; p = p.getParent()) {
      if (Files.isRegularFile(p.resolve("bin/stratus"))) {
        return p;
      }
    }
    throw new IllegalStateException("bin/stratus not found above " + Path.of("").toAbsolutePath());
  }

  private static byte[] bytes(String s) {
    return s.getBytes(StandardCharsets.UTF_8);
  }
}
