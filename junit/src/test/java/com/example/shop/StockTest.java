package com.example.shop;

import static org.assertj.core.api.Assertions.assertThat;

import io.stratus.codec.jackson.JacksonCodec;
import io.stratus.core.Database;
import io.stratus.core.Key;
import io.stratus.core.TypedCollection;
import io.stratus.junit.StratusTest;
import io.stratus.junit.StratusTestContext;
import io.stratus.protocols.ProtocolKind;
import java.util.Optional;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

@StratusTest(protocol = ProtocolKind.SNAPSHOT_ISOLATION)
class StockTest {
  record Item(String name, int stock) {}

  static final TypedCollection<Item> ITEMS =
      TypedCollection.of("items", JacksonCodec.of(Item.class));

  @BeforeEach
  void createCollections(Database db) {
    db.run(tx -> db.createCollection("items")); // run retries it while a call fails retryably
  }

  @Test
  void aSaleLowersTheStock(Database db) {
    db.run(tx -> ITEMS.put(tx, Key.of(1L), new Item("Dune", 3)));
    db.run(tx -> ITEMS.update(tx, Key.of(1L), new Item("Dune", 2)));
    Optional<Item> item = db.read(tx -> ITEMS.get(tx, Key.of(1L)));
    assertThat(item).contains(new Item("Dune", 2));
  }

  @Test
  // Replaces the class's annotation: the same protocol, with faults.
  @StratusTest(protocol = ProtocolKind.SNAPSHOT_ISOLATION, failureRate = 0.05, seed = 42)
  void salesSurviveFailingCloudCalls(Database db, StratusTestContext stratus) {
    for (long id = 1; id <= 20; id++) {
      long key = id;
      db.run(tx -> ITEMS.put(tx, Key.of(key), new Item("book " + key, 1)));
    }
    assertThat(stratus.faults().injectedFaults()).isNotEmpty();
    assertThat(db.stats().retries()).isPositive();
  }
}
