package io.stratus.core;

import static io.stratus.core.Fixture.bytes;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.stratus.NoSuchCollectionException;
import io.stratus.cloudapi.testing.Seed;
import io.stratus.cloudapi.testing.SeedExtension;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * A transaction finds a collection by its name's value, whatever string object names it: the one
 * it found last is remembered by the identity of the name it was found by, and an equal name of
 * another object, or another collection's, is looked up again.
 */
@ExtendWith(SeedExtension.class)
class CollectionNamesTest {

  @Test
  void equalNamesOfOtherObjectsAndOtherCollectionsAreFoundByValue(@Seed long seed) {
    try (Fixture f = new Fixture(seed)) {
      Database db = f.open();
      db.createCollection("items");
      db.createCollection("orders");
      try (Transaction tx = db.begin()) {
        tx.put("items", Key.of(1), bytes("item"));
        tx.put("orders", Key.of(1), bytes("order"));
        tx.commit();
      }
      try (Transaction tx = db.begin()) {
        for (int round = 0; round < 3; round++) {
          assertThat(tx.read("items", Key.of(1))).contains(bytes("item"));
          assertThat(tx.read(new String("items"), Key.of(1))).contains(bytes("item"));
          assertThat(tx.read("orders", Key.of(1))).contains(bytes("order"));
          assertThat(tx.read(new String("orders"), Key.of(1))).contains(bytes("order"));
        }
        assertThatThrownBy(() -> tx.read(new String("nothing"), Key.of(1)))
            .isInstanceOf(NoSuchCollectionException.class);
        assertThat(tx.read("items", Key.of(1))).contains(bytes("item"));
      }
    }
  }
}
