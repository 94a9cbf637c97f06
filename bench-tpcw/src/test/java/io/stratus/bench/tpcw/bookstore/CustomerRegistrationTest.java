package io.stratus.bench.tpcw.bookstore;

import static org.assertj.core.api.Assertions.assertThat;

import io.stratus.bench.tpcw.workload.Interaction;
import io.stratus.bench.tpcw.workload.InteractionOutcome;
import io.stratus.cloudapi.Operation;
import io.stratus.cloudapi.decorate.CloudMeter;
import io.stratus.cloudapi.decorate.Decorators;
import io.stratus.cloudapi.decorate.MeterSnapshot;
import io.stratus.cloudapi.decorate.MeteringInterceptor;
import io.stratus.cloudapi.inprocess.InProcessCloud;
import io.stratus.cloudapi.testing.Seed;
import io.stratus.cloudapi.testing.SeedExtension;
import io.stratus.cloudapi.time.ManualClock;
import io.stratus.core.Database;
import io.stratus.core.DatabaseConfig;
import io.stratus.protocols.ProtocolKind;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Customer Registration only looks a returning customer up: it runs as a read-only transaction, so
 * the isolating protocols serve it without the locks or counters an update transaction takes.
 */
@ExtendWith(SeedExtension.class)
class CustomerRegistrationTest {

  @Test
  void isNotAnUpdateInteraction() {
    assertThat(Interaction.CUSTOMER_REGISTRATION.isUpdate()).isFalse();
  }

  @Test
  void underTwoPhaseLockingItTakesNoLock(@Seed long seed) {
    ManualClock clock = new ManualClock();
    CloudMeter meter = new CloudMeter();
    try (InProcessCloud cloud = InProcessCloud.builder().clock(clock).seed(seed).build()) {
      DatabaseConfig config =
          BookstoreSchema.configure(
                  DatabaseConfig.builder(
                      Decorators.wrap(cloud.services(), new MeteringInterceptor(meter)), "db/tpcw"))
              .protocol(ProtocolKind.TWO_PHASE_LOCKING)
              .clock(clock)
              .pageSize(8192)
              .build();
      try (Database db = Database.open(config)) {
        Scale scale = BookstoreFixture.SMALL;
        new DataGenerator(db, scale, seed, clock).load();
        StratusBookstore store = new StratusBookstore(db, scale, clock, seed);
        MeterSnapshot before = meter.snapshot();
        long read = 0;
        for (int s = 0; s < 40; s++) {
          InteractionOutcome o =
              store.execute(Interaction.CUSTOMER_REGISTRATION, store.newSession(seed * 31 + s));
          assertThat(o.wrote()).isFalse();
          read += o.recordsRead();
        }
        MeterSnapshot used = meter.snapshot().minus(before);
        assertThat(read).as("returning customers looked up").isPositive();
        assertThat(
                used.stats(Operation.LOCK_ACQUIRE_SHARED).calls()
                    + used.stats(Operation.LOCK_ACQUIRE_EXCLUSIVE).calls()
                    + used.stats(Operation.LOCK_ACQUIRE_INTENTION).calls())
            .as("lock requests of 40 registrations")
            .isZero();
      }
    }
  }
}
