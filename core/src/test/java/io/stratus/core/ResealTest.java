package io.stratus.core;

import static io.stratus.core.Fixture.bytes;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.stratus.InvalidRequestException;
import io.stratus.cloudapi.CloudFutures;
import io.stratus.cloudapi.ItemSummary;
import io.stratus.cloudapi.Operation;
import io.stratus.cloudapi.StorageService;
import io.stratus.cloudapi.crypto.Encryption;
import io.stratus.cloudapi.decorate.Call;
import io.stratus.cloudapi.decorate.CallInterceptor;
import io.stratus.cloudapi.testing.Seed;
import io.stratus.cloudapi.testing.SeedExtension;
import io.stratus.pagemanager.PageCodec;
import io.stratus.protocols.DeadLetters;
import io.stratus.protocols.ProtocolKind;
import io.stratus.protocols.ProtocolOption;
import io.stratus.protocols.Settings;
import io.stratus.protocols.StorageLayout;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Supplier;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Re-sealing after a key rotation: a database written under k1, the keyring rotated to k2 with k1
 * kept; a dry run counts what k1 sealed, a run rewrites it, and a client holding only k2 then
 * reads every record, every index entry and every dead letter. A checkpoint of another client
 * racing the re-seal (in either order, scheduled with an interceptor) loses nothing; storage
 * without conditional puts is refused unless the database is declared quiescent.
 */
@ExtendWith(SeedExtension.class)
class ResealTest {
  private static final StorageLayout LAYOUT = new StorageLayout(Fixture.DB);
  private static final String ROOT = LAYOUT.collectionRoot("items");
  private static final String QUEUE = Fixture.DB + "/pu/" + ROOT;

  private static Keyring k1(long seed) {
    return Keyring.builder().key("k1", EncryptionTest.material(seed)).defaultKey("k1").build();
  }

  /** k1 kept for reading, k2 active. */
  private static Keyring rotated(long seed) {
    return k1(seed).toBuilder()
        .key("k2", EncryptionTest.material(seed + 1))
        .defaultKey("k2")
        .build();
  }

  private static Keyring k2Only(long seed) {
    return Keyring.builder().key("k2", EncryptionTest.material(seed + 1)).defaultKey("k2").build();
  }

  private static DatabaseConfig.Builder config(
      Fixture f, ProtocolKind kind, String client, Keyring keys, CallInterceptor... interceptors) {
    DatabaseConfig.Builder b =
        f.config(interceptors).protocol(kind).clientId(client).encryption(keys);
    return kind.accepts(ProtocolOption.CHECKPOINTS) ? b.checkpointExecutor(task -> {}) : b;
  }

  /** Writes {@code n} records and their index under {@code keys}, applied to the pages. */
  private static Map<Long, String> populate(Database db, int n) {
    db.createCollection("items");
    db.createIndex("items", "byCategory", Fixture.BY_CATEGORY);
    Map<Long, String> expected = new TreeMap<>();
    for (int round = 0; round < 3; round++) {
      int r = round;
      db.run(
          tx -> {
            for (long k = r * (long) n; k < (r + 1L) * n; k++) {
              String v = (char) ('a' + k % 26) + "-record-" + k;
              tx.create("items", Key.of(k), bytes(v));
              expected.put(k, v);
            }
            return null;
          });
    }
    db.admin().checkpointAll();
    db.admin().checkpointAll();
    return expected;
  }

  @ParameterizedTest
  @EnumSource(
      value = ProtocolKind.class,
      names = {"NAIVE", "MONOTONIC"})
  void aDryRunCountsTheOldKeyARunRewritesAndAClientWithOnlyTheNewKeyReadsEverything(
      ProtocolKind kind, @Seed long seed) {
    try (Fixture f = new Fixture(seed)) {
      Database writer = f.open(config(f, kind, "w", k1(seed)));
      Map<Long, String> expected = populate(writer, 20);
      String dead = LAYOUT.deadLetter(QUEUE, "m-1");
      CloudFutures.await(
          writer
              .config()
              .services()
              .storage()
              .put(dead, DeadLetters.encode(QUEUE, "m-1", "test", 5, bytes("held")), Map.of()));
      Map<String, Long> stampsBefore = pageStamps(f, k1(seed));
      long objects = rawItems(f).size();
      assertThat(objects).isGreaterThan(5);
      assertThat(keyIds(f).values()).containsOnly("k1");

      DatabaseConfig rotated = config(f, kind, "ops", rotated(seed)).build();
      ResealReport dry = DatabaseAdmin.reseal(rotated, ResealOptions.dryRunOnly());
      assertThat(dry.dryRun()).isTrue();
      assertThat(dry.foundByKeyId()).isEqualTo(Map.of("k1", objects));
      assertThat(dry.sealedByKeyId()).isEqualTo(Map.of("k1", objects));
      assertThat(dry.stale()).isEqualTo(objects);
      assertThat(dry.remaining()).isEqualTo(objects);
      assertThat(dry.rewritten()).isZero();
      assertThat(dry.isComplete()).isFalse();
      assertThat(dry.unusedKeyIds()).containsExactly("k2");
      assertThat(keyIds(f).values()).as("a dry run writes nothing").containsOnly("k1");

      Database ops = f.open(config(f, kind, "ops", rotated(seed)));
      ResealReport run = ops.admin().reseal(ResealOptions.defaults());
      assertThat(run.foundByKeyId()).isEqualTo(Map.of("k1", objects));
      assertThat(run.sealedByKeyId()).isEqualTo(Map.of("k2", objects));
      assertThat(run.rewritten()).isEqualTo(objects);
      assertThat(run.conflicts()).isZero();
      assertThat(run.problems()).isEmpty();
      assertThat(run.isComplete()).isTrue();
      assertThat(run.unusedKeyIds()).containsExactly("k1");
      assertThat(run.queueRetention().isPresent()).isEqualTo(kind != ProtocolKind.NAIVE);
      run.queueMessagesGoneBy()
          .ifPresent(by -> assertThat(by).isEqualTo(run.startedAt().plus(Duration.ofDays(4))));
      assertThat(keyIds(f).values()).containsOnly("k2");
      Map<String, Long> stampsAfter = pageStamps(f, k2Only(seed));
      assertThat(stampsAfter.keySet()).isEqualTo(stampsBefore.keySet());
      stampsBefore.forEach((uri, s) -> assertThat(stampsAfter.get(uri)).as(uri).isGreaterThan(s));

      f.clock.advance(Fixture.TTL.plusSeconds(1));
      DatabaseConfig onlyK2 = config(f, kind, "r", k2Only(seed)).build();
      Database reader = f.open(config(f, kind, "r", k2Only(seed)));
      assertEverythingReadable(reader, expected);
      assertThat(reader.admin().deadLetters())
          .singleElement()
          .satisfies(e -> assertThat(Fixture.string(e.payload())).isEqualTo("held"));
      assertThat(
              DatabaseAdmin.verify(onlyK2, VerifyOptions.defaults())
                  .findings(Finding.Severity.ERROR))
          .isEmpty();
      assertEverythingReadable(ops, expected);

      ResealReport again = DatabaseAdmin.reseal(onlyK2, ResealOptions.dryRunOnly());
      assertThat(again.isComplete()).isTrue();
      assertThat(again.sealedByKeyId()).isEqualTo(Map.of("k2", objects));
    }
  }

  @Test
  void aCheckpointThatWritesThePageFirstMakesTheResealRereadAndLosesNothing(@Seed long seed) {
    try (Fixture f = new Fixture(seed)) {
      Database writer = f.open(config(f, ProtocolKind.MONOTONIC, "w", k1(seed)));
      writer.createCollection("items");
      for (long k = 1; k <= 5; k++) {
        TwoHandlesTest.commitCreate(writer, "items", k, "v" + k);
      }
      writer.admin().checkpointAll();
      Database other = f.open(config(f, ProtocolKind.MONOTONIC, "other", rotated(seed)));
      TwoHandlesTest.commitUpdate(other, "items", 3, "changed during the re-seal");

      // The re-seal's conditional put of the root lets the other client's checkpoint go first.
      AtomicBoolean raced = new AtomicBoolean();
      CallInterceptor race =
          new CallInterceptor() {
            @Override
            public <T> CompletableFuture<T> intercept(
                Call<T> call, Supplier<CompletableFuture<T>> proceed) {
              if (call.operation() == Operation.STORAGE_PUT_IF_VERSION
                  && call.target().equals(ROOT)
                  && raced.compareAndSet(false, true)) {
                assertThat(other.admin().checkpointAll().recordsApplied()).isPositive();
              }
              return proceed.get();
            }
          };
      ResealReport report =
          DatabaseAdmin.reseal(
              config(f, ProtocolKind.MONOTONIC, "ops", rotated(seed), race).build(),
              ResealOptions.defaults());

      assertThat(raced).isTrue();
      assertThat(report.conflicts()).isEqualTo(1);
      assertThat(report.stale()).isEqualTo(2); // catalog and root
      assertThat(report.rewritten()).isEqualTo(1); // the root was re-sealed by the checkpoint
      assertThat(report.isComplete()).isTrue();
      assertThat(keyIds(f).values()).containsOnly("k2");
      Database reader = f.open(config(f, ProtocolKind.MONOTONIC, "r", k2Only(seed)));
      assertThat(Fixture.itemsByKey(reader))
          .containsEntry("3", "changed during the re-seal")
          .containsEntry("1", "v1")
          .containsEntry("5", "v5")
          .hasSize(5);
    }
  }

  @Test
  void aResealThatWritesThePageFirstMakesTheCheckpointRetryAndLosesNothing(@Seed long seed) {
    try (Fixture f = new Fixture(seed)) {
      Database writer = f.open(config(f, ProtocolKind.MONOTONIC, "w", k1(seed)));
      writer.createCollection("items");
      for (long k = 1; k <= 5; k++) {
        TwoHandlesTest.commitCreate(writer, "items", k, "v" + k);
      }
      writer.admin().checkpointAll();
      long stampBefore = pageStamps(f, k1(seed)).get(ROOT);
      DatabaseConfig ops = config(f, ProtocolKind.MONOTONIC, "ops", rotated(seed)).build();

      // The checkpoint's conditional put of the root lets the re-seal go first.
      AtomicBoolean raced = new AtomicBoolean();
      ResealReport[] report = new ResealReport[1];
      CallInterceptor race =
          new CallInterceptor() {
            @Override
            public <T> CompletableFuture<T> intercept(
                Call<T> call, Supplier<CompletableFuture<T>> proceed) {
              if (call.operation() == Operation.STORAGE_PUT_IF_VERSION
                  && call.target().equals(ROOT)
                  && raced.compareAndSet(false, true)) {
                report[0] = DatabaseAdmin.reseal(ops, ResealOptions.defaults());
              }
              return proceed.get();
            }
          };
      Database other = f.open(config(f, ProtocolKind.MONOTONIC, "other", rotated(seed), race));
      TwoHandlesTest.commitUpdate(other, "items", 3, "changed during the re-seal");
      other.admin().checkpointAll(); // its put of the root fails: the record stays in its queue
      // Hidden by that checkpoint's receive until the lock times out, then applied.
      f.clock.advance(Settings.CHECKPOINT_LOCK_TIMEOUT.defaultValue().plusSeconds(1));
      other.admin().checkpointAll();

      assertThat(raced).isTrue();
      assertThat(report[0].rewritten()).isEqualTo(2);
      assertThat(report[0].isComplete()).isTrue();
      assertThat(pageStamps(f, k2Only(seed)).get(ROOT)).isGreaterThan(stampBefore + 1);
      Database reader = f.open(config(f, ProtocolKind.MONOTONIC, "r", k2Only(seed)));
      assertThat(Fixture.itemsByKey(reader))
          .containsEntry("3", "changed during the re-seal")
          .hasSize(5);
      assertThat(keyIds(f).values()).containsOnly("k2");
    }
  }

  @Test
  void storageWithoutConditionalPutsIsRefusedUnlessTheDatabaseIsQuiescent(@Seed long seed) {
    try (Fixture f = new Fixture(seed, false)) {
      Database writer = f.open(config(f, ProtocolKind.NAIVE, "w", k1(seed)));
      Map<Long, String> expected = populate(writer, 10);
      DatabaseConfig rotated = config(f, ProtocolKind.NAIVE, "ops", rotated(seed)).build();

      assertThatThrownBy(() -> DatabaseAdmin.reseal(rotated, ResealOptions.defaults()))
          .isInstanceOf(InvalidRequestException.class)
          .hasMessageContaining("no conditional puts")
          .hasMessageContaining("quiescent");
      assertThat(keyIds(f).values()).containsOnly("k1");
      assertThat(DatabaseAdmin.reseal(rotated, ResealOptions.dryRunOnly()).stale())
          .isEqualTo(rawItems(f).size());

      ResealReport run =
          DatabaseAdmin.reseal(rotated, ResealOptions.builder().quiescent(true).build());
      assertThat(run.isComplete()).isTrue();
      assertThat(keyIds(f).values()).containsOnly("k2");
      assertEverythingReadable(f.open(config(f, ProtocolKind.NAIVE, "r", k2Only(seed))), expected);
    }
  }

  @Test
  void aDatabaseWithoutEncryptionIsRefused(@Seed long seed) {
    try (Fixture f = new Fixture(seed)) {
      Database db = f.open();
      assertThatThrownBy(() -> db.admin().reseal(ResealOptions.dryRunOnly()))
          .isInstanceOf(InvalidRequestException.class)
          .hasMessageContaining("encryption");
      assertThatThrownBy(() -> db.admin().reseal(null)).isInstanceOf(InvalidRequestException.class);
    }
  }

  @Test
  void objectsItCannotOpenAreReportedAndLeftAndTheRestIsRewritten(@Seed long seed) {
    try (Fixture f = new Fixture(seed)) {
      Keyring k0 =
          Keyring.builder().key("k0", EncryptionTest.material(seed - 1)).defaultKey("k0").build();
      Database writer = f.open(config(f, ProtocolKind.NAIVE, "w", k1(seed)));
      writer.createCollection("items");
      TwoHandlesTest.commitCreate(writer, "items", 1, "one");
      String lost = LAYOUT.deadLetter(QUEUE, "under-k0");
      byte[] letter = DeadLetters.encode(QUEUE, "under-k0", "test", 5, bytes("x"));
      CloudFutures.await(
          config(f, ProtocolKind.NAIVE, "x", k0)
              .build()
              .services()
              .storage()
              .put(lost, letter, Map.of()));
      String plain = LAYOUT.deadLetter(QUEUE, "plain");
      CloudFutures.await(f.services().storage().put(plain, letter, Map.of()));

      ResealReport run =
          DatabaseAdmin.reseal(
              config(f, ProtocolKind.NAIVE, "ops", rotated(seed)).build(),
              ResealOptions.defaults());

      assertThat(run.foundByKeyId()).isEqualTo(Map.of("k0", 1L, "k1", 2L));
      assertThat(run.sealedByKeyId()).isEqualTo(Map.of("k0", 1L, "k2", 2L));
      assertThat(run.rewritten()).isEqualTo(2);
      assertThat(run.remaining()).isEqualTo(1);
      assertThat(run.problemCount()).isEqualTo(2);
      assertThat(run.isComplete()).isFalse();
      assertThat(run.problems())
          .anySatisfy(
              p -> {
                assertThat(p.uri()).isEqualTo(lost);
                assertThat(p.message()).contains("\"k0\"").contains("not in the keyring");
              })
          .anySatisfy(
              p -> {
                assertThat(p.uri()).isEqualTo(plain);
                assertThat(p.message()).contains("no encryption header");
              });
      assertThat(run.unusedKeyIds()).containsExactly("k1");
    }
  }

  @Test
  void rotatingOneCollectionsKeyRewritesOnlyItsTrees(@Seed long seed) {
    try (Fixture f = new Fixture(seed)) {
      Keyring before =
          Keyring.builder()
              .key("db-1", EncryptionTest.material(seed))
              .key("items-1", EncryptionTest.material(seed + 1))
              .defaultKey("db-1")
              .collectionKey("items", "items-1")
              .build();
      Database writer = f.open(config(f, ProtocolKind.NAIVE, "w", before));
      populate(writer, 10);
      writer.createCollection("other");
      TwoHandlesTest.commitCreate(writer, "other", 1, "kept");
      Map<String, String> keysBefore = keyIds(f);
      long itemsObjects = keysBefore.values().stream().filter("items-1"::equals).count();
      long shared = keysBefore.size() - itemsObjects;
      Keyring after =
          before.toBuilder()
              .key("items-2", EncryptionTest.material(seed + 2))
              .collectionKey("items", "items-2")
              .build();

      ResealReport run =
          DatabaseAdmin.reseal(
              config(f, ProtocolKind.NAIVE, "ops", after).build(), ResealOptions.defaults());

      assertThat(run.foundByKeyId()).isEqualTo(Map.of("db-1", shared, "items-1", itemsObjects));
      assertThat(run.sealedByKeyId()).isEqualTo(Map.of("db-1", shared, "items-2", itemsObjects));
      assertThat(run.rewritten()).isEqualTo(itemsObjects);
      assertThat(run.unusedKeyIds()).containsExactly("items-1");
      keyIds(f)
          .forEach(
              (uri, key) ->
                  assertThat(key)
                      .as(uri)
                      .isEqualTo(keysBefore.get(uri).equals("items-1") ? "items-2" : "db-1"));
    }
  }

  /** Every record by scan and by key, and every index entry, through {@code db}. */
  private static void assertEverythingReadable(Database db, Map<Long, String> expected) {
    Map<Long, String> scanned = new TreeMap<>();
    long indexed = 0;
    try (Transaction tx = db.begin();
        RecordCursor c = tx.scan("items")) {
      while (c.hasNext()) {
        Record r = c.next();
        scanned.put(r.key().decoder().nextLong(), Fixture.string(r.payload()));
      }
      for (Map.Entry<Long, String> e : expected.entrySet()) {
        assertThat(tx.read("items", Key.of(e.getKey())).map(Fixture::string))
            .contains(e.getValue());
        if (Fixture.BY_CATEGORY
            .extract(Key.of(e.getKey()).toBytes(), bytes(e.getValue()))
            .isPresent()) {
          indexed++;
        }
      }
      assertThat(tx.probeRange("items", "byCategory", KeyRange.all())).hasSize((int) indexed);
    }
    assertThat(scanned).isEqualTo(expected);
  }

  /** Every item of the database as the provider stores it. */
  private static List<ItemSummary> rawItems(Fixture f) {
    return CloudFutures.await(f.services().storage().listAll(Fixture.DB + "/"));
  }

  /** The key id in the header of every stored item, by URI. */
  private static Map<String, String> keyIds(Fixture f) {
    StorageService raw = f.services().storage();
    Map<String, String> out = new TreeMap<>();
    for (ItemSummary s : rawItems(f)) {
      byte[] stored = CloudFutures.await(raw.get(s.uri())).orElseThrow().payload();
      out.put(s.uri(), Encryption.keyIdOf(stored).orElse("(none)"));
    }
    return out;
  }

  /** The version stamp of every page (catalog and trees), read with {@code keys}. */
  private static Map<String, Long> pageStamps(Fixture f, Keyring keys) {
    StorageService s = f.config().encryption(keys).build().services().storage();
    Map<String, Long> out = new TreeMap<>();
    for (ItemSummary item : rawItems(f)) {
      if (!item.uri().startsWith(LAYOUT.deadLetterPrefix())) {
        Optional<byte[]> bytes = CloudFutures.await(s.get(item.uri())).map(i -> i.payload());
        out.put(item.uri(), PageCodec.decode(item.uri(), bytes.orElseThrow()).versionStamp());
      }
    }
    return out;
  }
}
