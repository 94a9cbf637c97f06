package io.stratus.cli;

import io.stratus.core.Database;
import io.stratus.core.DatabaseConfig;
import io.stratus.core.IndexKeyExtractor;
import io.stratus.core.Key;
import io.stratus.core.Record;
import io.stratus.core.Transaction;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * The small database {@code --demo} makes on the in-process cloud, so that every command has
 * something to show there: collection "items" of {@value #RECORDS} records with index "byColour",
 * and one committed update that, under the queue-based protocols, waits in a pending-update queue.
 */
final class Demo {
  static final int RECORDS = 200;
  private static final String[] COLOURS = {"red", "green", "blue"};

  /** The demo index's extractor: the payload's text before the first ':'. */
  static final IndexKeyExtractor BY_COLOUR =
      (key, payload) -> {
        String s = new String(payload, StandardCharsets.UTF_8);
        int colon = s.indexOf(':');
        return colon < 0 ? Optional.empty() : Optional.of(Key.of(s.substring(0, colon)).toBytes());
      };

  private Demo() {}

  static void populate(DatabaseConfig config) {
    try (Database db = Database.open(config)) {
      db.createCollection("items");
      List<Record> records = new ArrayList<>();
      for (int i = 0; i < RECORDS; i++) {
        records.add(
            new Record(Key.of((long) i), bytes(COLOURS[i % COLOURS.length] + ":item " + i)));
      }
      db.bulkLoad("items", records);
      db.createIndex("items", "byColour", BY_COLOUR);
      try (Transaction tx = db.begin()) {
        tx.update("items", Key.of(7L), bytes("red:item 7, repainted"));
        tx.commit();
      }
    }
  }

  private static byte[] bytes(String s) {
    return s.getBytes(StandardCharsets.UTF_8);
  }
}
