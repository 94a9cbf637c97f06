package io.stratus.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.stratus.cloudapi.CloudFutures;
import io.stratus.cloudapi.CloudServices;
import io.stratus.cloudapi.ItemSummary;
import io.stratus.cloudapi.crypto.Encryption;
import io.stratus.cloudapi.inprocess.InProcessCloud;
import io.stratus.cloudapi.inprocess.QueueBehavior;
import io.stratus.cloudapi.testing.Seed;
import io.stratus.cloudapi.testing.SeedExtension;
import io.stratus.cloudapi.time.ManualClock;
import io.stratus.core.Database;
import io.stratus.core.DatabaseConfig;
import io.stratus.core.Key;
import io.stratus.core.Keyring;
import io.stratus.core.Record;
import io.stratus.core.RecordCursor;
import io.stratus.core.Transaction;
import io.stratus.protocols.ProtocolKind;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Clock;
import java.util.ArrayList;
import java.util.Base64;
import java.util.HashMap;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code stratus reseal} in-process: keys from a file or an environment variable, a dry run that
 * counts what the old key sealed, a run after which a client with only the new key reads
 * everything, the refusal on storage without conditional puts, and that no key material ever
 * appears in what the command line prints, whatever goes wrong.
 */
@ExtendWith(SeedExtension.class)
class ResealCommandTest {
  private static final String DB = "db/shop";
  private static final String ENV = "STRATUS_TEST_KEYRING";

  private final ManualClock clock = new ManualClock();
  private final List<Database> opened = new ArrayList<>();
  private final Map<String, String> environment = new HashMap<>();
  private final StringBuilder everything = new StringBuilder();
  private InProcessCloud cloud;
  private String out;
  private String err;
  private byte[] k1;
  private byte[] k2;
  private Path keys;
  private Path k2Only;

  @TempDir Path dir;

  @BeforeEach
  void setUp(@Seed long seed) throws IOException {
    k1 = material(seed);
    k2 = material(seed + 1);
    keys = secretFile("keys", "# rotated: k2 active, k1 kept\nk1=" + b64(k1) + "\n\nk2=" + b64(k2));
    k2Only = secretFile("k2", "k2=" + b64(k2) + "   # the only key left\n");
  }

  @AfterEach
  void close() {
    opened.forEach(Database::close);
  }

  @Test
  void aDryRunCountsTheOldKeyARunRewritesAndOnlyTheNewKeyIsNeededAfterwards() {
    Map<Long, String> expected = app(true);

    assertThat(run("reseal", "--dry-run", "--keyring-file", keys.toString(), "--default-key", "k2"))
        .as(err)
        .isEqualTo(1);
    long objects = stored().size();
    assertThat(out)
        .contains("reseal --dry-run of " + DB + ": " + objects + " objects")
        .contains("found per key:  {k1=" + objects + "}")
        .contains(objects + " to rewrite")
        .contains("NOT COMPLETE");
    assertThat(keyIds()).containsOnly("k1");

    environment.put(ENV, "k1=" + b64(k1) + ",k2=" + b64(k2));
    assertThat(run("reseal", "--json", "--keyring-env", ENV, "--default-key", "k2")).isZero();
    assertThat(out.trim())
        .startsWith("{")
        .endsWith("}")
        .contains("\"status\":\"complete\"")
        .contains("\"foundByKeyId\":{\"k1\":" + objects + "}")
        .contains("\"sealedByKeyId\":{\"k2\":" + objects + "}")
        .contains("\"rewritten\":" + objects)
        .contains("\"unusedKeyIds\":[\"k1\"]")
        .contains("\"queueRetentionSeconds\":null");
    assertThat(keyIds()).containsOnly("k2");

    assertThat(run("reseal", "--dry-run", "--keyring-file", k2Only.toString())).isZero();
    assertThat(out)
        .contains("found per key:  {k2=" + objects + "}")
        .contains("COMPLETE: no stored object needs a key of this keyring");
    assertThat(
            run("verify", "--db", DB, "--protocol", "naive", "--keyring-file", k2Only.toString()))
        .as(out)
        .isZero();
    assertThat(readAll(Keyring.builder().key("k2", k2).defaultKey("k2").build()))
        .isEqualTo(expected);
  }

  @Test
  void storageWithoutConditionalPutsIsRefusedUnlessQuiescent() {
    app(false);
    String[] reseal = {"reseal", "--keyring-file", keys.toString(), "--default-key", "k2"};

    assertThat(run(reseal)).isEqualTo(StratusCli.EXIT_FAILED);
    assertThat(err).contains("no conditional puts").contains("--quiescent");
    assertThat(keyIds()).containsOnly("k1");

    assertThat(run(concat(reseal, "--quiescent"))).as(err).isZero();
    assertThat(out).contains("COMPLETE: no stored object needs key [k1]");
    assertThat(keyIds()).containsOnly("k2");
  }

  @Test
  void keyOptionsAreCheckedAndNoKeyMaterialIsEverPrinted() throws IOException {
    app(true);
    String file = keys.toString();
    Path shortKey = secretFile("short", "k3=" + b64(new byte[] {1, 2, 3}) + "\nk1=" + b64(k1));
    Path notBase64 = secretFile("bad", "k1=" + b64(k1) + "\nk9=" + b64(k2) + "!*\n");
    Path noId = secretFile("noid", b64(k2));
    environment.put(ENV, "k1=" + b64(k1));

    assertThat(run("reseal")).isEqualTo(StratusCli.EXIT_FAILED);
    assertThat(err).contains("needs the database's keyring");
    assertThat(run("reseal", "--keyring-file", file)).isEqualTo(StratusCli.EXIT_FAILED);
    assertThat(err).contains("--default-key");
    assertThat(run("reseal", "--default-key", "k2")).isEqualTo(StratusCli.EXIT_FAILED);
    assertThat(err).contains("need keys");
    assertThat(run("reseal", "--keyring-file", file, "--default-key", "k7"))
        .isEqualTo(StratusCli.EXIT_FAILED);
    assertThat(err).contains("k7");
    assertThat(run("reseal", "--keyring-file", shortKey.toString(), "--default-key", "k1"))
        .isEqualTo(StratusCli.EXIT_FAILED);
    assertThat(err).contains("k3").contains("16, 24 or 32");
    assertThat(run("reseal", "--keyring-file", notBase64.toString(), "--default-key", "k1"))
        .isEqualTo(StratusCli.EXIT_FAILED);
    assertThat(err).contains("key k9: the key material is not base64");
    assertThat(run("reseal", "--keyring-file", noId.toString())).isEqualTo(StratusCli.EXIT_FAILED);
    assertThat(err).contains("entry 1: expected KEY_ID=BASE64");
    assertThat(run("reseal", "--keyring-env", "UNSET_VARIABLE")).isEqualTo(StratusCli.EXIT_FAILED);
    assertThat(err).contains("UNSET_VARIABLE").contains("not set");
    assertThat(run("reseal", "--keyring-file", dir.resolve("missing").toString()))
        .isEqualTo(StratusCli.EXIT_FAILED);
    assertThat(err).contains("cannot read the keyring file");
    assertThat(run("verify", "--db", DB, "--protocol", "naive", "--keyring-env", ENV)).isZero();
    assertThat(run("inspect", "page", DB + "/catalog", "--db", DB, "--keyring-env", ENV)).isZero();
    assertThat(out).contains(DB + "/catalog");
    assertThat(run("reseal", "--help")).isZero();
    assertThat(run("reseal", "--json", "--keyring-file", file, "--default-key", "k2")).isZero();
    assertThat(run("reseal", "--keyring-env", ENV)).as("k2 is gone").isEqualTo(1);
    assertThat(out).contains("PROBLEM").contains("\"k2\"");

    String printed = everything.toString();
    for (byte[] m : List.of(k1, k2)) {
      assertThat(printed)
          .doesNotContain(b64(m))
          .doesNotContain(b64(m).substring(0, 16))
          .doesNotContain(HexFormat.of().formatHex(m).substring(0, 16))
          .doesNotContain(Base64.getUrlEncoder().encodeToString(m).substring(0, 16));
    }
    assertThat(printed).doesNotContain(new String(k1, StandardCharsets.ISO_8859_1));
  }

  @Test
  void aKeyringFileOthersMayReadIsWarnedAbout() throws IOException {
    app(true);
    try {
      Files.setPosixFilePermissions(keys, PosixFilePermissions.fromString("rw-r--r--"));
    } catch (UnsupportedOperationException e) {
      return; // no POSIX permissions here: nothing to warn about
    }
    assertThat(run("reseal", "--dry-run", "--keyring-file", keys.toString(), "--default-key", "k2"))
        .isEqualTo(1);
    assertThat(err).contains("warning").contains("readable by other users");
  }

  /** A naive database of 40 records in "items" written under key k1; pages of 1 KiB. */
  private Map<Long, String> app(boolean conditionalPut) {
    cloud =
        InProcessCloud.builder()
            .clock(clock)
            .conditionalPut(conditionalPut)
            .queueBehavior(QueueBehavior.reliable())
            .build();
    Database db = Database.open(config(Keyring.builder().key("k1", k1).defaultKey("k1").build()));
    opened.add(db);
    db.createCollection("items");
    Map<Long, String> expected = new java.util.TreeMap<>();
    try (Transaction tx = db.begin()) {
      for (long i = 0; i < 40; i++) {
        tx.create("items", Key.of(i), ("item " + i).getBytes(StandardCharsets.UTF_8));
        expected.put(i, "item " + i);
      }
      tx.commit();
    }
    return expected;
  }

  private DatabaseConfig config(Keyring keyring) {
    return DatabaseConfig.builder(cloud.services(), DB)
        .protocol(ProtocolKind.NAIVE)
        .clock(clock)
        .pageSize(1024)
        .clientId("app")
        .encryption(keyring)
        .build();
  }

  private Map<Long, String> readAll(Keyring keyring) {
    Database db = Database.open(config(keyring));
    opened.add(db);
    Map<Long, String> all = new java.util.TreeMap<>();
    try (Transaction tx = db.begin();
        RecordCursor c = tx.scan("items")) {
      while (c.hasNext()) {
        Record r = c.next();
        all.put(r.key().decoder().nextLong(), new String(r.payload(), StandardCharsets.UTF_8));
      }
    }
    return all;
  }

  private List<ItemSummary> stored() {
    return CloudFutures.await(cloud.services().storage().listAll(DB + "/"));
  }

  private List<String> keyIds() {
    List<String> ids = new ArrayList<>();
    for (ItemSummary s : stored()) {
      byte[] b =
          CloudFutures.await(cloud.services().storage().get(s.uri())).orElseThrow().payload();
      ids.add(Encryption.keyIdOf(b).orElse("(none)"));
    }
    return ids;
  }

  /** Runs the command line with the database flags first; keeps its output for the leak check. */
  private int run(String... args) {
    List<String> all = new ArrayList<>(List.of(args));
    if (args[0].equals("reseal") && !all.contains("--help")) {
      all.addAll(List.of("--db", DB, "--protocol", "naive"));
    }
    StringWriter o = new StringWriter();
    StringWriter e = new StringWriter();
    CloudOpener opener =
        new CloudOpener() {
          @Override
          public CloudServices open(ConnectionOptions options) {
            // The command closes what it opens; the test's cloud must outlive it.
            return CloudServices.builder()
                .storage(cloud.services().storage())
                .simpleQueues(cloud.services().simpleQueues())
                .advancedQueues(cloud.services().advancedQueues())
                .locks(cloud.services().locks())
                .counters(cloud.services().counters())
                .build();
          }

          @Override
          public Clock clock() {
            return clock;
          }

          @Override
          public String environment(String name) {
            return environment.get(name);
          }
        };
    int code =
        StratusCli.run(
            all.toArray(String[]::new), new PrintWriter(o, true), new PrintWriter(e, true), opener);
    out = o.toString();
    err = e.toString();
    everything.append(out).append(err);
    return code;
  }

  private Path secretFile(String name, String content) throws IOException {
    Path p = dir.resolve(name);
    Files.writeString(p, content, StandardCharsets.UTF_8);
    try {
      Files.setPosixFilePermissions(p, PosixFilePermissions.fromString("rw-------"));
    } catch (UnsupportedOperationException e) {
      // Not a POSIX file system: nothing to restrict.
    }
    return p;
  }

  private static String[] concat(String[] a, String b) {
    String[] out = java.util.Arrays.copyOf(a, a.length + 1);
    out[a.length] = b;
    return out;
  }

  private static byte[] material(long seed) {
    byte[] k = new byte[32];
    new SplittableRandom(seed).nextBytes(k);
    return k;
  }

  private static String b64(byte[] b) {
    return Base64.getEncoder().encodeToString(b);
  }
}
