package io.stratus.core;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.stratus.CloudServiceException;
import io.stratus.InvalidRequestException;
import io.stratus.cloudapi.CloudException;
import io.stratus.cloudapi.testing.Seed;
import io.stratus.cloudapi.testing.SeedExtension;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentLinkedQueue;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/** Sequences: unique ids from counter blocks, across threads, handles, restarts of both. */
@ExtendWith(SeedExtension.class)
class SequenceTest {

  @Test
  void idsAreUniqueAcrossThreadsAndHandles(@Seed long seed) throws Exception {
    try (Fixture f = new Fixture(seed)) {
      List<Database> handles = List.of(f.open(), f.open());
      ConcurrentLinkedQueue<Long> ids = new ConcurrentLinkedQueue<>();
      List<Thread> threads = new ArrayList<>();
      for (int t = 0; t < 4; t++) {
        Sequence s = handles.get(t % 2).sequence("orders", 7);
        threads.add(
            new Thread(
                () -> {
                  for (int i = 0; i < 500; i++) {
                    ids.add(s.next());
                  }
                }));
      }
      threads.forEach(Thread::start);
      for (Thread t : threads) {
        t.join();
      }
      assertThat(ids).hasSize(2_000).allMatch(id -> id > 0);
      assertThat(new HashSet<>(ids)).hasSize(2_000);
      // 2,000 ids in blocks of 7 from two handles: at most one partial block per handle.
      assertThat(f.services().counters().increment(Fixture.DB + "/seq/orders").join())
          .isLessThanOrEqualTo(2_000 / 7 + 2 + 1);
    }
  }

  @Test
  void aHandleOpenedLaterNeverRepeatsAnId(@Seed long seed) {
    try (Fixture f = new Fixture(seed)) {
      Database first = f.open();
      Set<Long> seen = new HashSet<>();
      long last = 0;
      for (int i = 0; i < 15; i++) {
        last = first.sequence("users").next();
        assertThat(seen.add(last)).isTrue();
      }
      first.close();
      long after = f.open().sequence("users").next();
      assertThat(after).isGreaterThan(last); // the rest of the first handle's block is a gap
    }
  }

  @Test
  void aRestartedCounterServiceRefusesForAWhileThenContinuesAbove(@Seed long seed) {
    try (Fixture f = new Fixture(seed)) {
      f.services().counters().setTimeout(Fixture.DB + "/seq/", Duration.ofSeconds(5)).join();
      Sequence s = f.open().sequence("orders", 1);
      long before = s.next();
      f.cloud.restartCounterService();
      assertThatThrownBy(s::next)
          .isInstanceOfSatisfying(
              CloudServiceException.class,
              e -> {
                assertThat(e.isRetryable()).isTrue();
                assertThat(e.isOutcomeUnknown()).isFalse();
                assertThat(e.getCause()).isInstanceOf(CloudException.class);
              });
      f.clock.advance(Duration.ofMinutes(5));
      assertThat(s.next()).isGreaterThan(before);
    }
  }

  @Test
  void badNamesAndBlockSizesAreRefused(@Seed long seed) {
    try (Fixture f = new Fixture(seed)) {
      Database db = f.open();
      assertThatThrownBy(() -> db.sequence("../x")).isInstanceOf(InvalidRequestException.class);
      assertThatThrownBy(() -> db.sequence("x", 0)).isInstanceOf(InvalidRequestException.class);
      db.sequence("x", 10);
      assertThat(db.sequence("x", 10)).isSameAs(db.sequence("x", 10));
      assertThatThrownBy(() -> db.sequence("x", 11))
          .isInstanceOf(InvalidRequestException.class)
          .hasMessageContaining("block size");
    }
  }
}
