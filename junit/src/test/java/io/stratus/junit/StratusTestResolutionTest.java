package io.stratus.junit;

import static org.assertj.core.api.Assertions.assertThat;

import io.stratus.cloudapi.time.ManualClock;
import io.stratus.codec.jackson.JacksonCodec;
import io.stratus.core.Database;
import io.stratus.core.Key;
import io.stratus.core.TypedCollection;
import io.stratus.protocols.ProtocolKind;
import java.time.Duration;
import java.time.Instant;
import java.util.Optional;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** What {@link StratusTest} hands a test, as a user's test class uses it. */
@StratusTest(protocol = ProtocolKind.SNAPSHOT_ISOLATION, databaseUri = "db/resolution", seed = 11)
class StratusTestResolutionTest {
  record Book(String title, long priceCents) {}

  private static final TypedCollection<Book> BOOKS =
      TypedCollection.of("books", JacksonCodec.of(Book.class));

  private Database fromBeforeEach;

  @BeforeEach
  void createTheCollections(Database db) {
    db.createCollection("books");
    fromBeforeEach = db;
  }

  @Test
  void everyParameterIsTheTestsOneInstance(
      Database db, ManualClock clock, StratusTestContext context) {
    assertThat(db).isSameAs(fromBeforeEach).isSameAs(context.database());
    assertThat(clock).isSameAs(context.clock()).isSameAs(context.cloud().clock());
    assertThat(db.config().clock()).isSameAs(clock);
    assertThat(db.config().protocol()).isEqualTo(ProtocolKind.SNAPSHOT_ISOLATION);
    assertThat(db.config().databaseUri()).isEqualTo("db/resolution");
    assertThat(context.seed()).isEqualTo(11).isEqualTo(context.cloud().seed());
    assertThat(db.config().clientId()).isEqualTo("client-1");
  }

  @Test
  void theDatabaseStoresTypedRecordsAndTheClockStandsStill(Database db, ManualClock clock) {
    Instant start = clock.instant();
    db.run(tx -> BOOKS.put(tx, Key.of(1L), new Book("Dune", 999)));
    Optional<Book> read = db.read(tx -> BOOKS.get(tx, Key.of(1L)));
    assertThat(read).contains(new Book("Dune", 999));
    assertThat(clock.instant()).isEqualTo(start);
    clock.advance(Duration.ofMinutes(5));
    assertThat(db.config().clock().instant()).isEqualTo(start.plus(Duration.ofMinutes(5)));
  }

  @Test
  @StratusTest(protocol = ProtocolKind.BASIC, seed = 12)
  void aMethodsAnnotationReplacesTheClasss(Database db, StratusTestContext context) {
    assertThat(db.config().protocol()).isEqualTo(ProtocolKind.BASIC);
    assertThat(db.config().databaseUri()).isEqualTo("db/test");
    assertThat(context.seed()).isEqualTo(12);
  }

  @Test
  void moreHandlesAreOtherClientsOfTheSameDatabase(Database db, StratusTestContext context) {
    db.run(tx -> BOOKS.put(tx, Key.of(2L), new Book("Emma", 500)));
    db.close(); // what a graceful restart does; the extension's close after the test is harmless
    Database restarted = context.open(context.config());
    assertThat(restarted.config().clientId()).isEqualTo("client-2");
    Optional<Book> read = restarted.read(tx -> BOOKS.get(tx, Key.of(2L)));
    assertThat(read).contains(new Book("Emma", 500));
  }
}
