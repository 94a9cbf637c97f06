package io.stratus.core;

import static io.stratus.core.Fixture.bytes;
import static org.assertj.core.api.Assertions.assertThat;

import io.stratus.cloudapi.testing.Seed;
import io.stratus.cloudapi.testing.SeedExtension;
import io.stratus.protocols.ProtocolKind;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * A checkpoint installs what it wrote into its own pool only if nothing newer is cached there:
 * between this client's put of a page and its install, another client's tree checkpoint rewrites
 * the page and this client loads that newer version; the late install must not replace it (a read
 * would see the other client's key, and the next read would not).
 */
@ExtendWith(SeedExtension.class)
class CheckpointInstallTest {

  @Test
  void aLateInstallNeverReplacesANewerCachedPage(@Seed long seed) {
    try (Fixture f = new Fixture(seed)) {
      AtomicReference<Runnable> atInstall = new AtomicReference<>(() -> {});
      AtomicBoolean armed = new AtomicBoolean();
      Database a =
          f.open(
              f.config()
                  .protocol(ProtocolKind.BASIC)
                  .clientId("a")
                  .checkpointExecutor(new ManualExecutor())
                  .crashPoints(
                      point -> {
                        if (point.equals("checkpoint.page.after-delete")
                            && armed.compareAndSet(true, false)) {
                          atInstall.get().run();
                        }
                      }));
      Database b =
          f.open(
              f.config()
                  .protocol(ProtocolKind.BASIC)
                  .clientId("b")
                  .checkpointExecutor(new ManualExecutor()));
      a.createCollection("items");
      a.run(
          tx -> {
            tx.create("items", Key.of(1L), bytes("one"));
            return null;
          });
      a.admin().checkpointAll();
      a.run(tx -> tx.update("items", Key.of(1L), bytes("uno"))); // to the data page's queue

      atInstall.set(
          () -> {
            // A has put the page and deleted its messages; before it installs its copy, B inserts
            // key 2 and its tree checkpoint rewrites the same leaf ...
            b.run(
                tx -> {
                  tx.create("items", Key.of(2L), bytes("two"));
                  return null;
                });
            b.admin().checkpointAll();
            // ... and A loads that newer version once its cached copy's TTL has run out.
            f.clock.advance(Fixture.TTL.plusSeconds(1));
            boolean seen = a.read(tx -> tx.read("items", Key.of(2L)).isPresent());
            assertThat(seen).as("A sees B's key once its copy expired").isTrue();
          });
      armed.set(true);
      a.admin().checkpointAll();
      assertThat(armed).as("the install hook ran").isFalse();

      boolean stillSeen = a.read(tx -> tx.read("items", Key.of(2L)).isPresent());
      String one = a.read(tx -> Fixture.string(tx.read("items", Key.of(1L)).orElseThrow()));
      assertThat(stillSeen).as("the late install did not take A's pool back in time").isTrue();
      assertThat(one).isEqualTo("uno");
    }
  }
}
