package io.stratus.core;

import static org.assertj.core.api.Assertions.assertThat;

import io.stratus.cloudapi.testing.Seed;
import io.stratus.cloudapi.testing.SeedExtension;
import io.stratus.cloudapi.time.ManualClock;
import io.stratus.protocols.ProtocolKind;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * The reconciliation of a new index on a machine too busy to scan the whole collection within the
 * transaction timeout: it lists the keys in parts, each read-only transaction short, and the
 * checkpoint-all pass that runs it completes with every entry in the index.
 */
@ExtendWith(SeedExtension.class)
class IndexReconcilerTest {
  private static final String ITEMS = "items";
  private static final String BY_CATEGORY = "byCategory";

  /** Records of the collection: ten parts of the reconciler's listing. */
  private static final int RECORDS = 10 * IndexReconciler.KEYS_PER_READ;

  /** How much time each look at the clock finds gone by (1 KB pages: some 50 records a leaf). */
  private static final Duration TICK = Duration.ofMillis(30);

  /**
   * A machine so busy that every look at the clock finds time gone by: while ticking, each read
   * of the time advances the shared manual clock by {@code tick} first.
   */
  private static final class BusyClock extends Clock {
    private final ManualClock clock;
    private final Duration tick;
    private volatile boolean ticking;
    private long reads;

    BusyClock(ManualClock clock, Duration tick) {
      this.clock = clock;
      this.tick = tick;
    }

    @Override
    public ZoneId getZone() {
      return clock.getZone();
    }

    @Override
    public Clock withZone(ZoneId zone) {
      throw new UnsupportedOperationException("one zone");
    }

    @Override
    public Instant instant() {
      return Instant.ofEpochMilli(millis());
    }

    @Override
    public long millis() {
      if (ticking) {
        synchronized (this) {
          reads++;
          clock.advance(tick);
        }
      }
      return clock.millis();
    }
  }

  @ParameterizedTest
  @EnumSource(names = {"SNAPSHOT_ISOLATION", "SERIALIZABLE_SNAPSHOT", "TWO_PHASE_LOCKING"})
  void aCollectionTooLargeToScanWithinTheTimeoutIsReconciledInParts(
      ProtocolKind kind, @Seed long seed) {
    try (Fixture f = new Fixture(seed)) {
      BusyClock busy = new BusyClock(f.clock, TICK);
      DatabaseConfig.Builder config =
          f.config()
              .protocol(kind)
              .clientId("a")
              .clock(busy)
              .checkpointExecutor(new ManualExecutor());
      Database a = f.open(config);
      a.createCollection(ITEMS);
      List<Record> records = new ArrayList<>();
      for (int i = 0; i < RECORDS; i++) {
        records.add(new Record(Key.of((long) i), new byte[] {(byte) (1 + i % 4)}));
      }
      a.bulkLoad(ITEMS, records);
      a.createIndex(ITEMS, BY_CATEGORY, Fixture.BY_CATEGORY);
      f.clock.advance(Duration.ofMinutes(5)); // past the reconciliation's horizon
      long timeout = a.config().isolation().transactionTimeout().toMillis();

      busy.ticking = true;
      a.admin().checkpointAll();
      busy.ticking = false;

      long readsPerScan = busy.reads;
      assertThat(readsPerScan * TICK.toMillis())
          .as("time the busy clock passed in the pass: more than one transaction may take")
          .isGreaterThan(timeout);
      List<Key> found =
          a.read(
              tx -> {
                List<Key> keys = new ArrayList<>();
                for (int category = 1; category <= 4; category++) {
                  tx.probe(ITEMS, BY_CATEGORY, Key.of(category)).forEach(r -> keys.add(r.key()));
                }
                return keys;
              });
      assertThat(found).hasSize(RECORDS);
    }
  }
}
