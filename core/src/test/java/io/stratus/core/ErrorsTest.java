package io.stratus.core;

import static io.stratus.core.Fixture.bytes;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowable;

import io.stratus.DatabaseClosedException;
import io.stratus.DuplicateKeyException;
import io.stratus.IndexNotAttachedException;
import io.stratus.InvalidConfigurationException;
import io.stratus.InvalidRequestException;
import io.stratus.NoSuchCollectionException;
import io.stratus.NoSuchIndexException;
import io.stratus.RecordTooLargeException;
import io.stratus.StratusException;
import io.stratus.TransactionClosedException;
import io.stratus.cloudapi.inprocess.QueueBehavior;
import io.stratus.cloudapi.inprocess.StorageConsistency;
import io.stratus.cloudapi.testing.Seed;
import io.stratus.cloudapi.testing.SeedExtension;
import io.stratus.pagemanager.BufferPoolConfig;
import io.stratus.protocols.Guarantee;
import io.stratus.protocols.ProtocolKind;
import io.stratus.protocols.ProtocolOption;
import io.stratus.protocols.Settings;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.function.Consumer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/** Every error the record manager reports, and that each leaves the state unchanged. */
@ExtendWith(SeedExtension.class)
class ErrorsTest {

  @Test
  void unknownCollectionsAndIndexes(@Seed long seed) throws Exception {
    try (Fixture f = new Fixture(seed)) {
      Database db = f.open();
      db.createCollection("items");
      try (Transaction tx = db.begin()) {
        assertThatThrownBy(() -> tx.read("nope", Key.of(1L)))
            .isInstanceOf(NoSuchCollectionException.class)
            .hasMessageContaining("nope");
        assertThatThrownBy(() -> tx.create("nope", Key.of(1L), new byte[0]))
            .isInstanceOf(NoSuchCollectionException.class);
        assertThatThrownBy(() -> tx.scan("nope")).isInstanceOf(NoSuchCollectionException.class);
        assertThatThrownBy(() -> tx.probe("items", "nope", Key.of(1L)))
            .isInstanceOf(NoSuchIndexException.class);
        assertThatThrownBy(() -> tx.probe("nope", "nope", Key.of(1L)))
            .isInstanceOf(NoSuchCollectionException.class);
        assertThat(tx.isOpen()).isTrue(); // a wrong request does not end the transaction
      }
      assertThatThrownBy(() -> db.attachIndex("items", "nope", Fixture.BY_CATEGORY))
          .isInstanceOf(NoSuchIndexException.class);
      assertThatThrownBy(() -> db.createIndex("nope", "i", Fixture.BY_CATEGORY))
          .isInstanceOf(NoSuchCollectionException.class);
      assertThatThrownBy(() -> db.indexes("nope")).isInstanceOf(NoSuchCollectionException.class);
      assertThat(new NoSuchIndexException("a", "b")).isInstanceOf(InvalidRequestException.class);
    }
  }

  /**
   * A protocol opened on cloud services that lack one it uses is refused before anything is
   * touched, with every missing service named; a protocol that needs only what is there opens.
   */
  @Test
  void aProtocolWhoseServicesAreMissingIsRefusedNamingThemAll(@Seed long seed) {
    try (Fixture f = new Fixture(seed)) {
      io.stratus.cloudapi.CloudServices storageAndQueues =
          io.stratus.cloudapi.CloudServices.builder()
              .storage(f.services().storage())
              .simpleQueues(f.services().simpleQueues())
              .build();
      assertThatThrownBy(
              () ->
                  Database.open(
                      DatabaseConfig.builder(storageAndQueues, Fixture.DB)
                          .protocol(ProtocolKind.SNAPSHOT_ISOLATION)
                          .clock(f.clock)
                          .build()))
          .isInstanceOf(InvalidConfigurationException.class)
          .hasMessageContaining("SNAPSHOT_ISOLATION")
          .hasMessageContaining("lack the advanced queue, lock, advanced counter");
      assertThat(f.services().storage().list(Fixture.DB, Optional.empty(), 10).join().items())
          .as("nothing was written")
          .isEmpty();
      assertThat(ProtocolKind.NAIVE.services())
          .containsExactly(io.stratus.cloudapi.Operation.Service.STORAGE);
      try (Database naive =
          Database.open(
              DatabaseConfig.builder(storageAndQueues, Fixture.DB)
                  .protocol(ProtocolKind.NAIVE)
                  .clock(f.clock)
                  .build())) {
        naive.createCollection("items");
      }
    }
  }

  /**
   * Where storage reads may lag behind writes, a collection another handle created moments ago
   * is reported as possibly not visible yet, retryably, and {@code Database.run} / {@code read}
   * retry until it shows; on strongly consistent storage a missing collection is not retryable.
   */
  @Test
  void aCollectionCreatedMomentsAgoOnLaggingStorageIsRetried(@Seed long seed) throws Exception {
    Duration window = Duration.ofSeconds(30);
    try (Fixture f =
        new Fixture(
            seed,
            true,
            QueueBehavior.reliable(),
            b -> b.storageConsistency(new StorageConsistency(window, 1.0)))) {
      f.open().createCollection("items");
      Database fresh = f.open();
      Throwable missing =
          catchThrowable(
              () -> {
                try (Transaction tx = fresh.begin()) {
                  tx.read("items", Key.of(1L));
                }
              });
      assertThat(missing)
          .isInstanceOf(NoSuchCollectionException.class)
          .hasMessageContaining("\"items\"")
          .hasMessageContaining("created moments ago");
      assertThat(((StratusException) missing).isRetryable()).isTrue();

      List<Duration> waits = new ArrayList<>();
      RetryPolicy policy =
          RetryPolicy.builder()
              .seed(seed)
              .sleeper(
                  d -> {
                    waits.add(d);
                    f.clock.advance(Duration.ofSeconds(10));
                  })
              .build();
      Optional<byte[]> value = fresh.read(policy, tx -> tx.read("items", Key.of(1L)));
      assertThat(value).isEmpty();
      assertThat(waits).as("retried until the collection showed").isNotEmpty();
    }
    try (Fixture f = new Fixture(seed)) {
      Throwable missing =
          catchThrowable(
              () -> {
                try (Transaction tx = f.open().begin()) {
                  tx.read("items", Key.of(1L));
                }
              });
      assertThat(missing).isInstanceOf(NoSuchCollectionException.class);
      assertThat(((StratusException) missing).isRetryable()).isFalse();
    }
  }

  @Test
  void invalidNamesAreRefused(@Seed long seed) throws Exception {
    try (Fixture f = new Fixture(seed)) {
      Database db = f.open();
      for (String bad : new String[] {"", "a/b", "..", "a b", "x".repeat(101), "ü"}) {
        assertThatThrownBy(() -> db.createCollection(bad))
            .isInstanceOf(InvalidRequestException.class);
      }
      assertThat(db.createCollection("Ok_name-1.2")).isTrue();
      assertThatThrownBy(() -> db.createIndex("Ok_name-1.2", "bad/index", Fixture.BY_CATEGORY))
          .isInstanceOf(InvalidRequestException.class);
      assertThat(db.collections()).containsExactly("Ok_name-1.2");
    }
  }

  @Test
  void missingArgumentsAreInvalidRequestsNotNullPointers(@Seed long seed) {
    try (Fixture f = new Fixture(seed)) {
      Database db = f.open();
      db.createCollection("items");
      try (Transaction tx = db.begin()) {
        List<org.assertj.core.api.ThrowableAssert.ThrowingCallable> calls =
            List.of(
                () -> tx.create("items", null, bytes("x")),
                () -> tx.create("items", Key.of(1L), null),
                () -> tx.create(null, Key.of(1L), bytes("x")),
                () -> tx.update("items", null, bytes("x")),
                () -> tx.put("items", Key.of(1L), null),
                () -> tx.delete("items", null),
                () -> tx.read("items", null),
                () -> tx.scan("items", null),
                () -> tx.probe("items", "byCategory", null),
                () -> tx.probeRange("items", "byCategory", null));
        for (org.assertj.core.api.ThrowableAssert.ThrowingCallable call : calls) {
          assertThatThrownBy(call).isInstanceOf(InvalidRequestException.class);
        }
        assertThat(tx.isOpen()).isTrue();
      }
    }
  }

  @Test
  void aRejectedNameIsEchoedShortAndWithItsControlCharactersEscaped(@Seed long seed) {
    try (Fixture f = new Fixture(seed)) {
      Database db = f.open();
      String flood = "a\nFAKE LOG LINE\r\u0000" + "x".repeat(10_000);
      assertThatThrownBy(() -> db.createCollection(flood))
          .isInstanceOf(InvalidRequestException.class)
          .satisfies(
              e -> {
                assertThat(e.getMessage())
                    .hasSizeLessThan(200)
                    .doesNotContain("\n")
                    .doesNotContain("\r")
                    .doesNotContain("\u0000")
                    .contains("\\u000a")
                    .contains("(10017 characters)");
              });
    }
  }

  @Test
  void tooLargeRecordsChangeNothing(@Seed long seed) throws Exception {
    try (Fixture f = new Fixture(seed)) {
      Database db =
          f.open(f.config().indexExtractor("items", "byPayload", (k, p) -> Optional.of(p)));
      db.createCollection("items");
      db.createIndex("items", "byPayload", (k, p) -> Optional.of(p));
      try (Transaction tx = db.begin()) {
        tx.create("items", Key.of(1L), bytes("small"));
        tx.commit();
      }
      long pagesBefore = db.stats().pagesWritten();
      try (Transaction tx = db.begin()) {
        byte[] huge = new byte[Fixture.PAGE_SIZE];
        assertThatThrownBy(() -> tx.create("items", Key.of(2L), huge))
            .isInstanceOf(RecordTooLargeException.class);
        // The record itself would fit, but its index entry (the payload as search key) does not:
        // refused before the primary tree is touched.
        byte[] medium = new byte[300];
        assertThatThrownBy(() -> tx.create("items", Key.of(3L), medium))
            .isInstanceOf(RecordTooLargeException.class);
        assertThatThrownBy(() -> tx.update("items", Key.of(1L), medium))
            .isInstanceOf(RecordTooLargeException.class);
        assertThat(tx.read("items", Key.of(2L))).isEmpty();
        assertThat(tx.read("items", Key.of(3L))).isEmpty();
        assertThat(tx.read("items", Key.of(1L)))
            .hasValueSatisfying(v -> assertThat(v).isEqualTo(bytes("small")));
        tx.commit();
      }
      assertThat(db.stats().pagesWritten()).isEqualTo(pagesBefore);
    }
  }

  @Test
  void duplicateKeysAreRefused(@Seed long seed) throws Exception {
    try (Fixture f = new Fixture(seed)) {
      Database db = f.open();
      db.createCollection("items");
      try (Transaction tx = db.begin()) {
        tx.create("items", Key.of("k"), bytes("first"));
        // The transaction sees its own uncommitted create.
        assertThatThrownBy(() -> tx.create("items", Key.of("k"), bytes("second")))
            .isInstanceOf(DuplicateKeyException.class);
        tx.commit();
      }
      try (Transaction tx = db.begin()) {
        assertThatThrownBy(() -> tx.create("items", Key.of("k"), bytes("third")))
            .isInstanceOf(DuplicateKeyException.class);
        assertThat(tx.read("items", Key.of("k")).map(Fixture::string)).contains("first");
        assertThat(tx.delete("items", Key.of("k"))).isTrue();
        tx.create("items", Key.of("k"), bytes("again")); // fine after a delete
        tx.commit();
      }
      try (Transaction tx = db.begin()) {
        assertThat(tx.read("items", Key.of("k")).map(Fixture::string)).contains("again");
      }
    }
  }

  @Test
  void aFinishedTransactionRefusesEveryCall(@Seed long seed) throws Exception {
    try (Fixture f = new Fixture(seed)) {
      Database db = f.open();
      db.createCollection("items");
      Transaction committed = db.begin();
      committed.commit();
      Transaction aborted = db.begin();
      aborted.abort();
      Transaction closed = db.begin();
      closed.close();
      List<Consumer<Transaction>> calls =
          List.of(
              tx -> tx.create("items", Key.of(1L), new byte[0]),
              tx -> tx.read("items", Key.of(1L)),
              tx -> tx.update("items", Key.of(1L), new byte[0]),
              tx -> tx.delete("items", Key.of(1L)),
              tx -> tx.scan("items"),
              tx -> tx.probe("items", "i", Key.of(1L)),
              tx -> tx.probeRange("items", "i", Key.of(1L), Key.of(2L)),
              Transaction::commit,
              Transaction::abort);
      for (Transaction tx : List.of(committed, aborted, closed)) {
        assertThat(tx.isOpen()).isFalse();
        for (Consumer<Transaction> call : calls) {
          assertThatThrownBy(() -> call.accept(tx)).isInstanceOf(TransactionClosedException.class);
        }
        assertThatCode(tx::close).doesNotThrowAnyException();
      }
      // A cursor of a finished transaction stops working too.
      try (Transaction tx = db.begin()) {
        tx.create("items", Key.of(1L), new byte[0]);
        RecordCursor cursor = tx.scan("items");
        tx.abort();
        assertThatThrownBy(cursor::hasNext).isInstanceOf(TransactionClosedException.class);
      }
      assertThat(db.stats().commits()).isEqualTo(1);
      assertThat(db.stats().aborts()).isEqualTo(3);

      // A read that returns aborts nothing; one whose function throws does.
      Optional<byte[]> read = db.read(tx -> tx.read("items", Key.of(1L)));
      assertThat(read).isEmpty();
      assertThat(db.stats().aborts()).as("a read that returned").isEqualTo(3);
      assertThatThrownBy(
              () ->
                  db.read(
                      tx -> {
                        throw new IllegalStateException("the application gives up");
                      }))
          .hasMessageContaining("gives up");
      assertThat(db.stats().aborts()).as("a read whose function threw").isEqualTo(4);
    }
  }

  @Test
  void writesToACollectionWithAnUnattachedIndexAreRefused(@Seed long seed) throws Exception {
    try (Fixture f = new Fixture(seed)) {
      Database creator = f.open();
      creator.createCollection("items");
      creator.createIndex("items", "byCategory", Fixture.BY_CATEGORY);
      TwoHandlesTest.commitCreate(creator, "items", 1, "\u0001one");

      Database db = f.open(); // a process that did not configure the extractor
      try (Transaction tx = db.begin()) {
        assertThatThrownBy(() -> tx.create("items", Key.of(2L), bytes("\u0001two")))
            .isInstanceOf(IndexNotAttachedException.class)
            .hasMessageContaining("byCategory");
        assertThatThrownBy(() -> tx.update("items", Key.of(1L), bytes("x")))
            .isInstanceOf(IndexNotAttachedException.class);
        assertThatThrownBy(() -> tx.delete("items", Key.of(1L)))
            .isInstanceOf(IndexNotAttachedException.class);
        // Reads and probes do not need the extractor.
        assertThat(tx.probe("items", "byCategory", Key.of(1))).hasSize(1);
        assertThat(tx.read("items", Key.of(1L))).isPresent();
      }
      db.attachIndex("items", "byCategory", Fixture.BY_CATEGORY);
      TwoHandlesTest.commitCreate(db, "items", 2, "\u0001two");
      try (Transaction tx = db.begin()) {
        assertThat(tx.probe("items", "byCategory", Key.of(1)))
            .extracting(Record::key)
            .containsExactly(Key.of(1L), Key.of(2L));
      }
    }
  }

  @Test
  void unavailableProtocolsAndBadSettingsFailEarly(@Seed long seed) throws Exception {
    try (Fixture f = new Fixture(seed)) {
      for (ProtocolKind kind : ProtocolKind.values()) {
        if (!kind.isAvailable()) {
          assertThatThrownBy(() -> f.open(f.config().protocol(kind)))
              .isInstanceOf(InvalidRequestException.class)
              .hasMessageContaining("not available yet");
        }
      }
      DatabaseConfig.Builder b = f.config();
      assertThatThrownBy(() -> b.ttl(Duration.ofSeconds(-1)))
          .isInstanceOf(InvalidConfigurationException.class);
      assertThatThrownBy(() -> b.pageSize(100)).isInstanceOf(InvalidConfigurationException.class);
      assertThatThrownBy(() -> b.poolBytes(0)).isInstanceOf(InvalidConfigurationException.class);
      assertThatThrownBy(() -> b.checkpointInterval(Duration.ZERO))
          .isInstanceOf(InvalidConfigurationException.class);
      assertThatThrownBy(() -> b.clientId("has space"))
          .isInstanceOf(InvalidConfigurationException.class);
      for (String uri : new String[] {"", "/db", "db/", "a//b", "d b"}) {
        assertThatThrownBy(() -> DatabaseConfig.builder(f.services(), uri))
            .isInstanceOf(InvalidConfigurationException.class);
      }
      DatabaseConfig defaults = DatabaseConfig.builder(f.services(), "db").build();
      assertThat(defaults.protocol())
          .as("the default protocol loses no update")
          .isEqualTo(ProtocolKind.MONOTONIC);
      assertThat(defaults.pageSize()).isEqualTo(Settings.PAGE_SIZE.defaultValue());
      assertThat(defaults.checkpointInterval()).isEqualTo(Duration.ofSeconds(45));
      assertThat(defaults.checkpoints().closeTimeout())
          .isEqualTo(Settings.CLOSE_TIMEOUT.defaultValue());
      assertThatThrownBy(() -> b.closeTimeout(Duration.ofSeconds(-1)))
          .isInstanceOf(InvalidConfigurationException.class)
          .hasMessageContaining("close timeout");
      assertThatThrownBy(() -> f.config().closeTimeout(Duration.ZERO).build())
          .isInstanceOf(InvalidConfigurationException.class)
          .hasMessageContaining("closeTimeout does not apply to the naive protocol");
      assertThat(
              f.config()
                  .protocol(ProtocolKind.BASIC)
                  .closeTimeout(Duration.ZERO)
                  .build()
                  .checkpoints()
                  .closeTimeout())
          .isZero();
      assertThat(defaults.clientId())
          .isNotBlank()
          .isNotEqualTo(DatabaseConfig.builder(f.services(), "db").build().clientId());
    }
  }

  @Test
  void aPageSizeThatHoldsNoRecordIsRefusedNamingOneThatDoes(@Seed long seed) {
    try (Fixture f = new Fixture(seed)) {
      // The page manager's minimum holds no record under this database URI: refused at build,
      // naming a size that works.
      DatabaseConfig.Builder tiny =
          f.config().protocol(ProtocolKind.NAIVE).pageSize(BufferPoolConfig.MIN_PAGE_SIZE);
      assertThatThrownBy(tiny::build)
          .isInstanceOf(InvalidConfigurationException.class)
          .hasMessageContaining("use a page size of at least");
      String message = catchThrowable(tiny::build).getMessage();
      int enough = Integer.parseInt(message.replaceAll(".*at least (\\d+) bytes.*", "$1"));
      try (Database db = f.open(f.config().protocol(ProtocolKind.NAIVE).pageSize(enough))) {
        fillAndRead(db);
      }
    }
  }

  private static void fillAndRead(Database db) {
    db.createCollection("items");
    for (long k = 0; k < 50; k++) {
      long key = k;
      db.run(
          tx -> {
            tx.create("items", Key.of(key), bytes("value " + key));
            return null;
          });
    }
    Optional<byte[]> last = db.read(tx -> tx.read("items", Key.of(49L)));
    assertThat(last).isPresent();
  }

  @Test
  void settingsThatWouldBreakLaterAreRefusedWhenTheConfigurationIsBuilt(@Seed long seed) {
    try (Fixture f = new Fixture(seed)) {
      // Durations near Long.MAX_VALUE overflowed timer arithmetic later.
      Duration forever = Duration.ofSeconds(Long.MAX_VALUE);
      assertThatThrownBy(() -> f.config().ttl(forever))
          .isInstanceOf(InvalidConfigurationException.class)
          .hasMessageContaining("TTL");
      assertThatThrownBy(() -> f.config().checkpointInterval(forever))
          .isInstanceOf(InvalidConfigurationException.class)
          .hasMessageContaining("checkpoint interval");
      assertThatThrownBy(() -> f.config().checkpointLockTimeout(Duration.ofDays(400)))
          .isInstanceOf(InvalidConfigurationException.class)
          .hasMessageContaining("365 days");
      assertThatCode(() -> f.config().ttl(Settings.MAX_DURATION)).doesNotThrowAnyException();
      // A lock timeout longer than the queues can hide a message: every checkpoint would fail.
      assertThatThrownBy(
              () ->
                  f.config()
                      .protocol(ProtocolKind.BASIC)
                      .checkpointLockTimeout(Duration.ofHours(13))
                      .build())
          .isInstanceOf(InvalidConfigurationException.class)
          .hasMessageContaining("visibility timeout");
      // Under atomic, a lease of 2 s or less leaves recovery no time to receive anything.
      assertThatThrownBy(
              () ->
                  f.config()
                      .protocol(ProtocolKind.ATOMIC)
                      .checkpointLockTimeout(Duration.ofSeconds(2))
                      .propagationPeriod(Duration.ofSeconds(1))
                      .build())
          .isInstanceOf(InvalidConfigurationException.class)
          .hasMessageContaining("at least PT5S");
      assertThatCode(
              () ->
                  f.config()
                      .protocol(ProtocolKind.BASIC)
                      .checkpointLockTimeout(Duration.ofSeconds(2))
                      .propagationPeriod(Duration.ofSeconds(1))
                      .build())
          .doesNotThrowAnyException();
    }
  }

  @Test
  void settingsThatDoNotApplyToTheProtocolAreRefusedWhenBuilt(@Seed long seed) {
    try (Fixture f = new Fixture(seed)) {
      assertThatThrownBy(
              () ->
                  f.config()
                      .protocol(ProtocolKind.NAIVE)
                      .checkpointInterval(Duration.ofSeconds(5))
                      .build())
          .isInstanceOf(InvalidConfigurationException.class)
          .hasMessageContaining("checkpointInterval does not apply to the naive protocol");
      assertThatThrownBy(() -> f.config().protocol(ProtocolKind.BASIC).writerLanes(4).build())
          .isInstanceOf(InvalidConfigurationException.class)
          .hasMessageContaining("writerLanes")
          .hasMessageContaining("monotonic, atomic");
      assertThatThrownBy(
              () ->
                  f.config()
                      .protocol(ProtocolKind.MONOTONIC)
                      .atomicTimeout(Duration.ofMinutes(2))
                      .build())
          .isInstanceOf(InvalidConfigurationException.class)
          .hasMessageContaining("atomicTimeout");
      // The protocol may be named after its settings: the rule is checked once, when built.
      assertThat(
              f.config()
                  .atomicTimeout(Duration.ofMinutes(2))
                  .writerLanes(4)
                  .protocol(ProtocolKind.ATOMIC)
                  .build()
                  .writerLanes())
          .isEqualTo(4);
      for (ProtocolKind kind : ProtocolKind.values()) {
        for (ProtocolOption option : ProtocolOption.values()) {
          boolean isolating =
              kind.guarantees(Guarantee.SNAPSHOT_ISOLATION)
                  || kind.guarantees(Guarantee.SERIALIZABLE);
          boolean expected =
              switch (option) {
                case CHECKPOINTS -> kind != ProtocolKind.NAIVE;
                case WRITER_LANES -> kind.guarantees(Guarantee.MONOTONIC_WRITES) && !isolating;
                case ATOMIC_TIMEOUT -> kind.guarantees(Guarantee.ATOMIC);
                case ISOLATION -> isolating;
              };
          assertThat(kind.accepts(option)).as("%s %s", kind, option).isEqualTo(expected);
        }
      }
    }
  }

  @Test
  void aClosedHandleEndsItsTransactions(@Seed long seed) throws Exception {
    try (Fixture f = new Fixture(seed)) {
      Database db = f.open();
      db.createCollection("items");
      Transaction tx = db.begin();
      db.close();
      db.close(); // idempotent
      // One type for every call on a closed handle, its transactions' included.
      assertThatThrownBy(() -> tx.read("items", Key.of(1L)))
          .isInstanceOf(DatabaseClosedException.class);
      assertThatCode(tx::close).doesNotThrowAnyException();
      assertThatThrownBy(db::begin).isInstanceOf(DatabaseClosedException.class);
      assertThatThrownBy(() -> db.run(t -> null)).isInstanceOf(DatabaseClosedException.class);
      // The cloud services stay open: another handle works.
      assertThat(f.open().collections()).containsExactly("items");
      assertThat(new TransactionClosedException("x")).isInstanceOf(StratusException.class);
    }
  }
}
