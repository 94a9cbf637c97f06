package io.stratus.core;

import io.stratus.cloudapi.CloudLimits;
import io.stratus.cloudapi.CloudServices;
import io.stratus.cloudapi.decorate.CallInterceptor;
import io.stratus.cloudapi.decorate.Decorators;
import io.stratus.cloudapi.inprocess.InProcessCloud;
import io.stratus.cloudapi.inprocess.QueueBehavior;
import io.stratus.cloudapi.time.ManualClock;
import io.stratus.protocols.ProtocolKind;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.UnaryOperator;

/**
 * One in-process cloud on a manual clock, and the database handles a test opens on it (closed at
 * the end). Handles get small pages so that a few records split pages at every level.
 */
final class Fixture implements AutoCloseable {
  static final String DB = "db/shop";
  static final int PAGE_SIZE = 1024;
  static final Duration TTL = Duration.ofSeconds(10);

  /** Index "byCategory": the first payload byte mod 7 as an int key; not indexed if 0 mod 5. */
  static final IndexKeyExtractor BY_CATEGORY =
      (key, payload) ->
          payload.length == 0 || payload[0] % 5 == 0
              ? Optional.empty()
              : Optional.of(Key.of(Math.floorMod(payload[0], 7)).toBytes());

  final ManualClock clock = new ManualClock();
  final InProcessCloud cloud;
  private final List<Database> opened = new ArrayList<>();

  Fixture(long seed) {
    this(seed, true);
  }

  Fixture(long seed, boolean conditionalPut) {
    this(seed, conditionalPut, QueueBehavior.reliable());
  }

  Fixture(long seed, boolean conditionalPut, QueueBehavior queues) {
    this(seed, conditionalPut, queues, b -> b);
  }

  /** A cloud with further settings ({@code tweak}: limits, storage consistency, ...). */
  Fixture(
      long seed,
      boolean conditionalPut,
      QueueBehavior queues,
      UnaryOperator<InProcessCloud.Builder> tweak) {
    this.cloud =
        tweak
            .apply(
                InProcessCloud.builder()
                    .clock(clock)
                    .seed(seed)
                    .conditionalPut(conditionalPut)
                    .queueBehavior(queues))
            .build();
  }

  /**
   * Simple-queue messages of at most {@code bytes} (the atomic protocol then commits a
   * transaction of a few records in two steps: log records, then the commit record).
   */
  static UnaryOperator<InProcessCloud.Builder> maxMessageSize(int bytes) {
    return b -> b.limits(CloudLimits.aws().toBuilder().maxMessageSize(bytes).build());
  }

  /** The raw services (no interceptors). */
  CloudServices services() {
    return cloud.services();
  }

  /**
   * A configuration on the cloud, seen through {@code interceptors}, under the naive protocol
   * (whose commits are visible at once, which the record-manager tests rely on); tests of
   * another protocol name it.
   */
  DatabaseConfig.Builder config(CallInterceptor... interceptors) {
    CloudServices s =
        interceptors.length == 0
            ? cloud.services()
            : Decorators.wrap(cloud.services(), interceptors);
    return DatabaseConfig.builder(s, DB)
        .protocol(ProtocolKind.NAIVE)
        .clock(clock)
        .pageSize(PAGE_SIZE)
        .ttl(TTL);
  }

  Database open(DatabaseConfig.Builder config) {
    Database db = Database.open(config.build());
    opened.add(db);
    return db;
  }

  Database open() {
    return open(config());
  }

  /** Every record of collection "items": decimal key to payload text. */
  static Map<String, String> itemsByKey(Database db) {
    try (Transaction tx = db.begin()) {
      return itemsIn(tx);
    }
  }

  /** Every record of "items" as {@code tx} reads it, by one scan: decimal key to payload. */
  static Map<String, String> itemsIn(Transaction tx) {
    Map<String, String> view = new HashMap<>();
    try (RecordCursor c = tx.scan("items")) {
      while (c.hasNext()) {
        Record r = c.next();
        view.put(Long.toString(r.key().decoder().nextLong()), string(r.payload()));
      }
    }
    return view;
  }

  static byte[] bytes(String s) {
    return s.getBytes(StandardCharsets.UTF_8);
  }

  static String string(byte[] b) {
    return new String(b, StandardCharsets.UTF_8);
  }

  @Override
  public void close() {
    for (Database c : opened) {
      c.close();
    }
    cloud.close();
  }
}
