package io.stratus.core;

import static io.stratus.core.BasicProtocolTest.load;
import static io.stratus.core.BasicProtocolTest.read;
import static io.stratus.core.BasicProtocolTest.update;
import static org.assertj.core.api.Assertions.assertThat;

import io.stratus.cloudapi.testing.Seed;
import io.stratus.cloudapi.testing.SeedExtension;
import io.stratus.protocols.ProtocolKind;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * A graceful close lets a running background checkpoint finish instead of interrupting it: an
 * interrupted one left the messages it had received hidden for a whole visibility timeout, and a
 * reader right after the close missed acknowledged updates.
 */
@ExtendWith(SeedExtension.class)
class GracefulCloseTest {

  @Test
  void closeLetsARunningBackgroundCheckpointFinish(@Seed long seed) throws Exception {
    try (Fixture f = new Fixture(seed)) {
      AtomicBoolean armed = new AtomicBoolean();
      CountDownLatch reached = new CountDownLatch(1);
      CountDownLatch release = new CountDownLatch(1);
      // The handle's own checkpoint threads (no test executor): what close really stops.
      Database a =
          f.open(
              f.config()
                  .protocol(ProtocolKind.BASIC)
                  .clientId("a")
                  .crashPoints(
                      point -> {
                        if (point.equals("checkpoint.page.after-receive")
                            && armed.compareAndSet(true, false)) {
                          reached.countDown();
                          try {
                            release.await(30, TimeUnit.SECONDS);
                          } catch (InterruptedException e) {
                            // As a blocking network call would: the interrupted checkpoint fails.
                            Thread.currentThread().interrupt();
                            throw new IllegalStateException(
                                "interrupted while waiting for the cloud", e);
                          }
                        }
                      }));
      load(a, 10);
      armed.set(true);
      update(a, 3, "x"); // its writer-side checkpoint starts in the background
      assertThat(reached.await(30, TimeUnit.SECONDS)).isTrue();

      Thread closer = new Thread(a::close);
      closer.start();
      while (closer.getState() != Thread.State.TIMED_WAITING
          && closer.getState() != Thread.State.TERMINATED) {
        Thread.onSpinWait(); // until close waits for the running checkpoint (or returned)
      }
      release.countDown();
      closer.join();

      // No time passes: nothing is left hidden, the update is applied.
      f.clock.advance(Fixture.TTL.plusSeconds(1)); // past the TTL only, not a lease
      Database reader =
          f.open(
              f.config()
                  .protocol(ProtocolKind.BASIC)
                  .clientId("r")
                  .checkpointExecutor(new ManualExecutor()));
      reader.admin().checkpointAll();
      assertThat(read(reader, 3)).isEqualTo("x");
    }
  }
}
