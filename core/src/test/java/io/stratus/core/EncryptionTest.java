package io.stratus.core;

import static io.stratus.core.Fixture.bytes;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.stratus.CorruptPageException;
import io.stratus.InvalidConfigurationException;
import io.stratus.cloudapi.AdvancedMessage;
import io.stratus.cloudapi.CloudFutures;
import io.stratus.cloudapi.CloudLimits;
import io.stratus.cloudapi.CloudServices;
import io.stratus.cloudapi.ItemSummary;
import io.stratus.cloudapi.QueueMessage;
import io.stratus.cloudapi.StorageService;
import io.stratus.cloudapi.StoredItem;
import io.stratus.cloudapi.crypto.Encryption;
import io.stratus.cloudapi.inprocess.QueueBehavior;
import io.stratus.cloudapi.testing.Seed;
import io.stratus.cloudapi.testing.SeedExtension;
import io.stratus.protocols.ProtocolKind;
import io.stratus.protocols.ProtocolOption;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Client-side encryption under the whole database: every protocol commits, checkpoints and reads
 * back through the encrypting services, while what the provider stores — pages and every queue
 * message — holds no plaintext; payloads moved between URIs are reported as corrupt pages and
 * corrupt log messages; rotating keys keeps old data readable.
 */
@ExtendWith(SeedExtension.class)
class EncryptionTest {
  private static final String MARKER = "plaintext-marker";
  private static final String ROOT = Fixture.DB + "/c/items/root";

  static byte[] material(long seed) {
    byte[] k = new byte[32];
    new SplittableRandom(seed).nextBytes(k);
    return k;
  }

  /** Default key "db-1", collection "items" under its own key "items-1". */
  static Keyring keyring(long seed) {
    return Keyring.builder()
        .key("db-1", material(seed))
        .key("items-1", material(seed + 1))
        .defaultKey("db-1")
        .collectionKey("items", "items-1")
        .build();
  }

  private static DatabaseConfig.Builder config(
      Fixture f, ProtocolKind kind, String client, ManualExecutor ex, Keyring keyring) {
    DatabaseConfig.Builder b = f.config().protocol(kind).clientId(client).encryption(keyring);
    return kind.accepts(ProtocolOption.CHECKPOINTS) ? b.checkpointExecutor(ex) : b;
  }

  @ParameterizedTest
  @EnumSource(ProtocolKind.class)
  void everyProtocolRoundTripsAndTheCloudHoldsNoPlaintext(ProtocolKind kind, @Seed long seed) {
    try (Fixture f = new Fixture(seed)) {
      Keyring keys = keyring(seed);
      ManualExecutor ex = new ManualExecutor();
      Database writer = f.open(config(f, kind, "w", ex, keys));
      writer.createCollection("items");
      writer.createIndex("items", "byCategory", Fixture.BY_CATEGORY);
      Map<Long, String> expected = new TreeMap<>();
      for (int round = 0; round < 3; round++) {
        int r = round;
        writer.run(
            tx -> {
              for (long k = r * 30L; k < r * 30L + 30; k++) {
                String v = MARKER + "-" + k;
                tx.create("items", Key.of(k), bytes(v));
                expected.put(k, v);
              }
              return null;
            });
      }
      int messages = assertNoPlaintextInQueues(f);
      assertThat(messages > 0).as("messages checked").isEqualTo(kind != ProtocolKind.NAIVE);

      f.clock.advance(Duration.ofSeconds(61));
      writer.admin().checkpointAll();
      f.clock.advance(Duration.ofSeconds(61));
      writer.admin().checkpointAll();
      f.clock.advance(Fixture.TTL.plusSeconds(1));
      assertThat(writer.stats().corruptMessages()).isZero();

      Database reader = f.open(config(f, kind, "r", ex, keys));
      assertThat(readAll(reader)).isEqualTo(expected);
      assertThat(readAll(writer)).isEqualTo(expected);

      List<ItemSummary> items = CloudFutures.await(f.services().storage().listAll(Fixture.DB));
      assertThat(items).isNotEmpty();
      for (ItemSummary s : items) {
        byte[] stored = raw(f, s.uri()).payload();
        assertThat(latin1(stored)).as(s.uri()).doesNotContain(MARKER).doesNotContain("items/");
        String expectedKey =
            s.uri().startsWith(Fixture.DB + "/c/items/")
                    || s.uri().startsWith(Fixture.DB + "/i/items/")
                ? "items-1"
                : "db-1";
        assertThat(keyIdOf(stored)).as(s.uri()).isEqualTo(expectedKey);
      }
    }
  }

  /** Checks every message waiting in the database's queues; returns how many there were. */
  private static int assertNoPlaintextInQueues(Fixture f) {
    CloudServices raw = f.services();
    int n = 0;
    for (String q : CloudFutures.await(raw.simpleQueues().listQueues(Fixture.DB))) {
      for (QueueMessage m : CloudFutures.await(raw.simpleQueues().receive(q, 10, Duration.ZERO))) {
        assertThat(latin1(m.payload())).as(q).doesNotContain(MARKER);
        assertThat(m.payload()[0]).isEqualTo((byte) Encryption.FORMAT_VERSION);
        n++;
      }
    }
    for (String q : CloudFutures.await(raw.advancedQueues().listQueues(Fixture.DB))) {
      for (AdvancedMessage m : CloudFutures.await(raw.advancedQueues().receiveAfterId(q, 100, 0))) {
        assertThat(latin1(m.payload())).as(q).doesNotContain(MARKER);
        n++;
      }
    }
    return n;
  }

  @Test
  void aPageCopiedToAnotherUriIsACorruptPage(@Seed long seed) {
    try (Fixture f = new Fixture(seed)) {
      Keyring keys = keyring(seed);
      Database writer = f.open(f.config().encryption(keys));
      writer.createCollection("items");
      TwoHandlesTest.commitCreate(writer, "items", 1, "one");
      StorageService storage = f.services().storage();
      StoredItem catalog = raw(f, Fixture.DB + "/catalog");
      StoredItem good = raw(f, ROOT);
      CloudFutures.await(storage.put(ROOT, catalog.payload(), Map.of()));

      Database reader = f.open(f.config().encryption(keys));
      try (Transaction tx = reader.begin()) {
        assertThatThrownBy(() -> tx.read("items", Key.of(1L)))
            .isInstanceOfSatisfying(
                CorruptPageException.class,
                e -> {
                  assertThat(e.uri()).isEqualTo(ROOT);
                  assertThat(e.getMessage()).contains("failed authentication");
                });
      }
      CloudFutures.await(storage.put(ROOT, good.payload(), Map.of())); // the repair
      try (Transaction tx = reader.begin()) {
        assertThat(tx.read("items", Key.of(1L)).map(Fixture::string)).contains("one");
      }
    }
  }

  @Test
  void aLogMessageMovedToAnotherQueueIsCountedAsCorruptAndBlocksNothingElse(@Seed long seed) {
    try (Fixture f = new Fixture(seed, true, QueueBehavior.reliable())) {
      Database db =
          f.open(
              f.config()
                  .protocol(ProtocolKind.BASIC)
                  .checkpointExecutor(task -> {})
                  .encryption(keyring(seed)));
      BasicProtocolTest.load(db, 200);
      BasicProtocolTest.update(db, 4, "first");
      BasicProtocolTest.update(db, 150, "other");
      var queues = f.services().simpleQueues();
      List<String> names = CloudFutures.await(queues.listQueues(Fixture.DB + "/pu/"));
      assertThat(names).hasSizeGreaterThan(1);
      byte[] sealed =
          CloudFutures.await(queues.receive(names.get(0), 1, Duration.ZERO)).get(0).payload();
      CloudFutures.await(queues.send(names.get(1), sealed));

      db.admin().checkpointAll();
      db.admin().checkpointAll();
      assertThat(db.stats().corruptMessages()).isEqualTo(1);
      assertThat(BasicProtocolTest.read(db, 4)).isEqualTo("first");
      assertThat(BasicProtocolTest.read(db, 150)).isEqualTo("other");
    }
  }

  @Test
  void rotationWritesWithTheNewKeyAndOldPagesStayReadable(@Seed long seed) {
    try (Fixture f = new Fixture(seed)) {
      Keyring k1 = Keyring.builder().key("k1", material(seed)).defaultKey("k1").build();
      Database before = f.open(f.config().clientId("before").encryption(k1));
      before.createCollection("items");
      before.createCollection("other");
      TwoHandlesTest.commitCreate(before, "items", 1, "one");
      TwoHandlesTest.commitCreate(before, "other", 1, "kept");
      assertThat(keyIdOf(raw(f, ROOT).payload())).isEqualTo("k1");

      Keyring k2 = k1.toBuilder().key("k2", material(seed + 7)).defaultKey("k2").build();
      Database after = f.open(f.config().clientId("after").encryption(k2));
      TwoHandlesTest.commitCreate(after, "items", 2, "two");
      assertThat(keyIdOf(raw(f, ROOT).payload())).isEqualTo("k2");
      assertThat(keyIdOf(raw(f, Fixture.DB + "/c/other/root").payload())).isEqualTo("k1");
      try (Transaction tx = after.begin()) {
        assertThat(tx.read("other", Key.of(1L)).map(Fixture::string)).contains("kept");
        assertThat(tx.read("items", Key.of(1L)).map(Fixture::string)).contains("one");
        assertThat(tx.read("items", Key.of(2L)).map(Fixture::string)).contains("two");
      }

      // A client that was never given k2 cannot read what k2 sealed, and is told which key.
      f.clock.advance(Fixture.TTL.plusSeconds(1));
      try (Transaction tx = before.begin()) {
        assertThatThrownBy(() -> tx.read("items", Key.of(2L)))
            .isInstanceOf(CorruptPageException.class)
            .hasMessageContaining("\"k2\"")
            .hasMessageContaining("not in the keyring");
      }
    }
  }

  @Test
  void encryptionIsOffByDefault(@Seed long seed) {
    try (Fixture f = new Fixture(seed)) {
      DatabaseConfig plain = f.config().build();
      assertThat(plain.encryption()).isEmpty();
      assertThat(plain.services()).isSameAs(f.services());
      DatabaseConfig on = f.config().encryption(keyring(seed)).build();
      assertThat(on.encryption()).isPresent();
      assertThat(on.services().storage().limits().maxObjectSize())
          .isEqualTo(f.services().storage().limits().maxObjectSize() - Encryption.OVERHEAD);
    }
  }

  /**
   * A configuration whose encryption does not fit the stored database is refused at open as a
   * configuration error that says what is stored and what to change, not as a corrupt catalog:
   * no keyring for an encrypted database, a keyring without the catalog's key, a keyring for a
   * database written without encryption.
   */
  @Test
  void aConfigurationWhoseEncryptionDoesNotFitTheDatabaseIsRefusedAtOpen(@Seed long seed) {
    try (Fixture f = new Fixture(seed)) {
      f.open(f.config().encryption(keyring(seed))).createCollection("items");

      assertThatThrownBy(() -> f.open(f.config()))
          .isInstanceOf(InvalidConfigurationException.class)
          .hasMessageContaining("is encrypted")
          .hasMessageContaining("\"db-1\"")
          .hasMessageContaining("no keyring")
          .hasMessageContaining("DatabaseConfig.Builder.encryption")
          .hasCauseInstanceOf(CorruptPageException.class);

      Keyring other =
          Keyring.builder().key("other-1", material(seed + 7)).defaultKey("other-1").build();
      assertThatThrownBy(() -> f.open(f.config().encryption(other)))
          .isInstanceOf(InvalidConfigurationException.class)
          .hasMessageContaining("is encrypted with key \"db-1\"")
          .hasMessageContaining("lacks")
          .hasMessageContaining("other-1")
          .hasMessageContaining("add that key");
    }
    try (Fixture f = new Fixture(seed)) {
      f.open(f.config()).createCollection("items");
      assertThatThrownBy(() -> f.open(f.config().encryption(keyring(seed))))
          .isInstanceOf(InvalidConfigurationException.class)
          .hasMessageContaining("is not encrypted")
          .hasMessageContaining("without DatabaseConfig.Builder.encryption");
    }
  }

  /** A catalog damaged under the right keys is still reported as a corrupt page. */
  @Test
  void aDamagedEncryptedCatalogIsStillACorruptPage(@Seed long seed) {
    try (Fixture f = new Fixture(seed)) {
      f.open(f.config().encryption(keyring(seed))).createCollection("items");
      String catalog = Fixture.DB + "/catalog";
      byte[] stored = raw(f, catalog).payload();
      stored[stored.length - 1] ^= 1;
      CloudFutures.await(f.services().storage().put(catalog, stored, Map.of()));
      assertThatThrownBy(() -> f.open(f.config().encryption(keyring(seed))))
          .isInstanceOf(CorruptPageException.class)
          .hasMessageContaining(catalog);
    }
  }

  @Test
  void aPageSizeAboveTheEncryptedObjectLimitIsRefusedAtBuild(@Seed long seed) {
    try (Fixture f =
        new Fixture(
            seed,
            true,
            QueueBehavior.reliable(),
            b ->
                b.limits(CloudLimits.aws().toBuilder().maxObjectSize(Fixture.PAGE_SIZE).build()))) {
      f.config().build(); // fits without encryption
      assertThatThrownBy(() -> f.config().encryption(keyring(seed)).build())
          .isInstanceOf(InvalidConfigurationException.class)
          .hasMessageContaining("page size")
          .hasMessageContaining("encryption");
    }
  }

  @Test
  void aKeyringIsValidatedAndNeverShowsKeyMaterial(@Seed long seed) {
    byte[] m = material(seed);
    String hex = HexFormat.of().formatHex(m);
    Keyring k =
        Keyring.builder()
            .key("a", m)
            .key("b", material(seed + 1))
            .defaultKey("a")
            .collectionKey("items", "b")
            .build();
    assertThat(k.toString())
        .isEqualTo("Keyring{keys=[a, b], default=a, collections={items=b}}")
        .doesNotContain(hex);
    assertThat(k.activeKeyId("items")).isEqualTo("b");
    assertThat(k.activeKeyId("other")).isEqualTo("a");
    assertThat(k.toBuilder().withoutCollectionKey("items").build().activeKeyId("items"))
        .isEqualTo("a");

    assertThatThrownBy(() -> Keyring.builder().build())
        .isInstanceOf(InvalidConfigurationException.class)
        .hasMessageContaining("at least one");
    assertThatThrownBy(() -> Keyring.builder().key("a", m).build())
        .isInstanceOf(InvalidConfigurationException.class)
        .hasMessageContaining("default");
    assertThatThrownBy(() -> Keyring.builder().key("a", m).defaultKey("x").build())
        .isInstanceOf(InvalidConfigurationException.class)
        .hasMessageContaining("x");
    assertThatThrownBy(
            () -> Keyring.builder().key("a", m).defaultKey("a").collectionKey("items", "y").build())
        .isInstanceOf(InvalidConfigurationException.class)
        .hasMessageContaining("items");
    assertThatThrownBy(() -> Keyring.builder().key("a", new byte[15]))
        .isInstanceOf(InvalidConfigurationException.class)
        .hasMessageContaining("15")
        .hasMessageNotContaining(hex);
    assertThatThrownBy(() -> Keyring.builder().key("a", m).key("a", material(seed + 2)))
        .isInstanceOf(InvalidConfigurationException.class)
        .hasMessageContaining("already");
    assertThatThrownBy(() -> Keyring.builder().key("bad id", m))
        .isInstanceOf(InvalidConfigurationException.class);
    assertThatThrownBy(() -> Keyring.builder().key("a", m).collectionKey("no/slash", "a"))
        .isInstanceOf(io.stratus.InvalidRequestException.class);
  }

  private static Map<Long, String> readAll(Database db) {
    Map<Long, String> out = new TreeMap<>();
    try (Transaction tx = db.begin();
        RecordCursor c = tx.scan("items")) {
      while (c.hasNext()) {
        Record r = c.next();
        out.put(r.key().decoder().nextLong(), Fixture.string(r.payload()));
      }
    }
    return out;
  }

  private static StoredItem raw(Fixture f, String uri) {
    return CloudFutures.await(f.services().storage().get(uri)).orElseThrow();
  }

  private static String keyIdOf(byte[] sealed) {
    return new String(sealed, 2, sealed[1], StandardCharsets.US_ASCII);
  }

  private static String latin1(byte[] b) {
    return new String(b, StandardCharsets.ISO_8859_1);
  }
}
