package io.stratus.core;

import static io.stratus.core.Fixture.bytes;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.stratus.IndexNotAttachedException;
import io.stratus.cloudapi.Operation;
import io.stratus.cloudapi.decorate.Call;
import io.stratus.cloudapi.decorate.CallInterceptor;
import io.stratus.cloudapi.testing.Seed;
import io.stratus.cloudapi.testing.SeedExtension;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Supplier;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Two database handles (two client processes) over one cloud: data and catalog changes of one
 * reach the other through storage and the TTL; the naive protocol loses concurrent updates to one
 * page; concurrent catalog changes are merged.
 */
@ExtendWith(SeedExtension.class)
class TwoHandlesTest {

  @Test
  void eachSeesTheOthersCommitsAfterTheTtl(@Seed long seed) throws Exception {
    try (Fixture f = new Fixture(seed)) {
      Database a = f.open();
      a.createCollection("items");
      commitCreate(a, "items", 1, "a1");
      Database b = f.open();
      assertThat(read(b, "items", 1)).isEqualTo("a1"); // b's pool is empty: it reads storage

      commitUpdate(b, "items", 1, "b1");
      commitCreate(b, "items", 2, "b2");
      // a has the page cached and trusts it for the TTL: it still sees its own version.
      assertThat(read(a, "items", 1)).isEqualTo("a1");
      f.clock.advance(Fixture.TTL.plus(Duration.ofMillis(1)));
      assertThat(read(a, "items", 1)).isEqualTo("b1");
      assertThat(read(a, "items", 2)).isEqualTo("b2");

      commitCreate(a, "items", 3, "a3");
      f.clock.advance(Fixture.TTL.plus(Duration.ofMillis(1)));
      assertThat(read(b, "items", 3)).isEqualTo("a3");
      assertThat(a.stats().bufferPool().refreshes()).isPositive();
    }
  }

  @Test
  void catalogChangesOfOneAreVisibleToTheOther(@Seed long seed) throws Exception {
    try (Fixture f = new Fixture(seed)) {
      Database a = f.open();
      Database b = f.open();
      a.createCollection("orders");
      commitCreate(a, "orders", 1, "o1");
      assertThat(a.createIndex("orders", "byFirstByte", firstByte())).isTrue();

      // b learns of a collection it has never heard of at once (a miss re-reads the catalog).
      assertThat(read(b, "orders", 1)).isEqualTo("o1");
      assertThat(b.indexes("orders")).containsExactly("byFirstByte");
      // b may not write without the index's extractor, but may probe.
      try (Transaction tx = b.begin()) {
        assertThatThrownBy(() -> tx.create("orders", Key.of(2L), bytes("o2")))
            .isInstanceOf(IndexNotAttachedException.class);
        assertThat(tx.probe("orders", "byFirstByte", Key.ofBytes(bytes("o"))))
            .extracting(Record::key)
            .containsExactly(Key.of(1L));
      }
      b.attachIndex("orders", "byFirstByte", firstByte());
      commitCreate(b, "orders", 2, "o2");

      // A third process opening later sees the whole catalog, with the extractor configured.
      Database c = f.open(f.config().indexExtractor("orders", "byFirstByte", firstByte()));
      assertThat(c.collections()).containsExactly("orders");
      try (Transaction tx = c.begin()) {
        assertThat(tx.probe("orders", "byFirstByte", Key.ofBytes(bytes("o"))))
            .extracting(Record::key)
            .containsExactly(Key.of(1L), Key.of(2L));
      }
      commitCreate(c, "orders", 3, "o3");

      b.createCollection("customers");
      f.clock.advance(Fixture.TTL.plus(Duration.ofMillis(1)));
      assertThat(a.collections()).containsExactlyInAnyOrder("orders", "customers");
      assertThat(a.createCollection("customers")).isFalse(); // idempotent across processes
    }
  }

  @Test
  void concurrentCatalogChangesAreMergedWithConditionalPuts(@Seed long seed) throws Exception {
    try (Fixture f = new Fixture(seed)) {
      Database b = f.open();
      // a's catalog write is held until b has changed the catalog: a's conditional put then
      // fails, and a must re-read and merge instead of overwriting b's collection.
      AtomicBoolean raced = new AtomicBoolean();
      CallInterceptor race =
          new CallInterceptor() {
            @Override
            public <T> CompletableFuture<T> intercept(
                Call<T> call, Supplier<CompletableFuture<T>> proceed) {
              boolean conditional =
                  call.operation() == Operation.STORAGE_PUT_IF_ABSENT
                      || call.operation() == Operation.STORAGE_PUT_IF_VERSION;
              if (conditional
                  && call.target().endsWith("/catalog")
                  && raced.compareAndSet(false, true)) {
                b.createCollection("fromB");
              }
              return proceed.get();
            }
          };
      Database a = f.open(f.config(race));
      assertThat(a.createCollection("fromA")).isTrue();
      assertThat(raced).isTrue();
      Database c = f.open();
      assertThat(c.collections()).containsExactlyInAnyOrder("fromA", "fromB");
    }
  }

  @Test
  void withoutConditionalPutsSequentialCatalogChangesStillAccumulate(@Seed long seed)
      throws Exception {
    try (Fixture f = new Fixture(seed, false)) {
      Database a = f.open();
      Database b = f.open();
      a.createCollection("x");
      b.createCollection("y");
      a.createIndex("x", "i", firstByte());
      commitCreate(a, "x", 1, "x1");
      assertThat(f.open().collections()).containsExactlyInAnyOrder("x", "y");
      assertThat(b.createCollection("x")).isFalse();
      assertThat(read(b, "x", 1)).isEqualTo("x1"); // the root was not overwritten
    }
  }

  /**
   * The naive protocol's lost update (paper 000, section 4): two clients change different records
   * on the same page; each writes its whole copy of the page, and the later put erases the other's
   * change. This is what the queue-based protocols exist to prevent.
   */
  @Test
  void naiveProtocolLosesOneOfTwoConcurrentUpdatesToOnePage(@Seed long seed) throws Exception {
    try (Fixture f = new Fixture(seed)) {
      Database setup = f.open();
      setup.createCollection("items");
      try (Transaction tx = setup.begin()) {
        tx.create("items", Key.of(1), bytes("one"));
        tx.create("items", Key.of(2), bytes("two"));
        tx.commit();
      }
      Database a = f.open();
      Database b = f.open();
      Transaction ta = a.begin();
      Transaction tb = b.begin();
      // Both read (the same single leaf page), both write different records, both commit.
      assertThat(ta.read("items", Key.of(1)).map(Fixture::string)).contains("one");
      assertThat(tb.read("items", Key.of(2)).map(Fixture::string)).contains("two");
      assertThat(ta.update("items", Key.of(1), bytes("ONE by a"))).isTrue();
      assertThat(tb.update("items", Key.of(2), bytes("TWO by b"))).isTrue();
      ta.commit();
      tb.commit(); // no error: the naive protocol cannot notice

      Database observer = f.open();
      try (Transaction tx = observer.begin()) {
        assertThat(tx.read("items", Key.of(2)).map(Fixture::string)).contains("TWO by b");
        // a's committed update has disappeared: b's put of the page overwrote it.
        assertThat(tx.read("items", Key.of(1)).map(Fixture::string)).contains("one");
      }
    }
  }

  private static IndexKeyExtractor firstByte() {
    return (key, payload) ->
        payload.length == 0
            ? java.util.Optional.empty()
            : java.util.Optional.of(new byte[] {payload[0]});
  }

  static void commitCreate(Database db, String coll, long key, String value) {
    try (Transaction tx = db.begin()) {
      tx.create(coll, Key.of(key), bytes(value));
      tx.commit();
    }
  }

  static void commitUpdate(Database db, String coll, long key, String value) {
    try (Transaction tx = db.begin()) {
      assertThat(tx.update(coll, Key.of(key), bytes(value))).isTrue();
      tx.commit();
    }
  }

  static String read(Database db, String coll, long key) {
    try (Transaction tx = db.begin()) {
      return tx.read(coll, Key.of(key)).map(Fixture::string).orElse(null);
    }
  }
}
