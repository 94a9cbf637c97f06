package io.stratus.core;

import static io.stratus.core.BasicProtocolTest.load;
import static io.stratus.core.BasicProtocolTest.read;
import static io.stratus.core.BasicProtocolTest.update;
import static org.assertj.core.api.Assertions.assertThat;

import io.stratus.cloudapi.CloudFutures;
import io.stratus.cloudapi.Operation;
import io.stratus.cloudapi.decorate.Call;
import io.stratus.cloudapi.decorate.CallInterceptor;
import io.stratus.cloudapi.inprocess.QueueBehavior;
import io.stratus.cloudapi.testing.Seed;
import io.stratus.cloudapi.testing.SeedExtension;
import io.stratus.protocols.ProtocolKind;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Supplier;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Writer lanes: one database handle's concurrent commits under MONOTONIC and ATOMIC do not wait
 * for one another, and a commit that began after another completed is applied after it even when
 * the two went out on different lanes and the queue delivers them the other way round.
 */
@ExtendWith(SeedExtension.class)
class WriterLanesTest {

  /**
   * Holds the PU or ATOMIC queue sends of a named thread until the test lets them go; the held
   * thread blocks inside its commit, holding its writer lane. No timing: latches only.
   */
  static final class HoldSends implements CallInterceptor {
    private final Map<String, CountDownLatch> reached = new ConcurrentHashMap<>();
    private final Map<String, CountDownLatch> release = new ConcurrentHashMap<>();

    /** Makes the next sends of thread {@code name} wait for {@link #release}. */
    void hold(String name) {
      reached.put(name, new CountDownLatch(1));
      release.put(name, new CountDownLatch(1));
    }

    void awaitReached(String name) throws InterruptedException {
      assertThat(reached.get(name).await(10, TimeUnit.SECONDS)).as("%s sent", name).isTrue();
    }

    void release(String name) {
      release.remove(name).countDown();
    }

    @Override
    public <T> CompletableFuture<T> intercept(
        Call<T> call, Supplier<CompletableFuture<T>> proceed) {
      String name = Thread.currentThread().getName();
      CountDownLatch gate = release.get(name);
      if (gate != null
          && call.operation() == Operation.QUEUE_SEND_BATCH
          && (call.target().startsWith(Fixture.DB + "/pu/")
              || call.target().startsWith(Fixture.DB + "/atomic/"))) {
        reached.get(name).countDown();
        try {
          if (!gate.await(10, TimeUnit.SECONDS)) {
            throw new AssertionError(name + " was held for more than 10 s");
          }
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
          throw new AssertionError(e);
        }
      }
      return proceed.get();
    }
  }

  /** Runs {@code update(db, key, value)} on a new thread named {@code name}. */
  private static CompletableFuture<Void> updateOn(
      String name, Database db, long key, String value) {
    CompletableFuture<Void> done = new CompletableFuture<>();
    Thread t =
        new Thread(
            () -> {
              try {
                update(db, key, value);
                done.complete(null);
              } catch (Throwable e) {
                done.completeExceptionally(e);
              }
            },
            name);
    t.start();
    return done;
  }

  @Test
  void concurrentCommitsOfOneHandleDoNotWaitForEachOther(@Seed long seed) throws Exception {
    for (ProtocolKind kind : List.of(ProtocolKind.MONOTONIC, ProtocolKind.ATOMIC)) {
      try (Fixture f = new Fixture(seed)) {
        HoldSends hold = new HoldSends();
        ManualExecutor ex = new ManualExecutor();
        Database db = f.open(f.config(hold).protocol(kind).clientId("a").checkpointExecutor(ex));
        load(db, 10);
        hold.hold("slow");
        CompletableFuture<Void> slow = updateOn("slow", db, 3, "s");
        hold.awaitReached("slow"); // inside its commit, holding a lane
        update(db, 4, "fast"); // commits while the slow one is still in flight
        assertThat(slow).as("%s: the slow commit is still held", kind).isNotDone();
        hold.release("slow");
        slow.get(10, TimeUnit.SECONDS);
        ex.runAll();
        BasicProtocolTest.quiesce(f, db);
        Database other = f.open(f.config().protocol(kind).clientId("b").checkpointExecutor(ex));
        assertThat(read(other, 3)).as("%s", kind).isEqualTo("s");
        assertThat(read(other, 4)).as("%s", kind).isEqualTo("fast");
      }
    }
  }

  /**
   * A: key 3 = "a" on lane 0, completed. D: held on lane 0 (another key). C: key 3 = "c", begun
   * after A completed, so on lane 1 with a dependency on A. A's message is hidden when the page
   * is checkpointed: C must wait (a lane chain alone would let it through), and the end value is
   * C's.
   */
  @Test
  void aCommitOnAnotherLaneWaitsForTheCommitsThatCompletedBeforeIt(@Seed long seed)
      throws Exception {
    for (ProtocolKind kind : List.of(ProtocolKind.MONOTONIC, ProtocolKind.ATOMIC)) {
      try (Fixture f = new Fixture(seed)) {
        HoldSends hold = new HoldSends();
        ManualExecutor ex = new ManualExecutor();
        Database db = f.open(f.config(hold).protocol(kind).clientId("a").checkpointExecutor(ex));
        Database other = f.open(f.config().protocol(kind).clientId("b").checkpointExecutor(ex));
        load(db, 10);
        update(db, 3, "a"); // lane 0
        if (kind == ProtocolKind.ATOMIC) {
          ex.runQueued(); // propagated to the page's queue; its checkpoint waits in the executor
        }
        String q = MonotonicWritesTest.pageQueue(f);
        assertThat(
                CloudFutures.await(
                    f.services().simpleQueues().receive(q, 10, Duration.ofSeconds(40))))
            .as("%s", kind)
            .hasSize(1); // A hidden 40 s
        hold.hold("slow");
        CompletableFuture<Void> d = updateOn("slow", db, 5, "d"); // lane 0, held
        hold.awaitReached("slow");
        update(db, 3, "c"); // lane 1, after A completed
        hold.release("slow");
        d.get(10, TimeUnit.SECONDS);
        ex.runAll();
        db.admin().checkpointAll();
        f.clock.advance(Fixture.TTL.plusSeconds(1));
        assertThat(read(other, 3)).as("%s: C waits for A", kind).isEqualTo("v0-3");
        f.clock.advance(Duration.ofSeconds(41)); // A visible again
        BasicProtocolTest.quiesce(f, db);
        BasicProtocolTest.quiesce(f, db);
        assertThat(read(other, 3)).as("%s: the later commit wins", kind).isEqualTo("c");
        assertThat(read(other, 5)).as("%s", kind).isEqualTo("d");
      }
    }
  }

  /** A committed update: key, value, and the logical ticks before it began and after it ended. */
  private record Write(long key, String value, long start, long end) {}

  /**
   * Four request threads share one handle and update three hot keys concurrently, under queues
   * that reorder, duplicate and return short; checkpoints run meanwhile. After quiescence each
   * key holds a value whose write no other write of the key began after (real-time order across
   * the writer lanes), as monotonic writes promise the handle's sessions.
   */
  @Test
  void concurrentSessionsOnOneHandleKeepRealTimeOrderUnderWeakQueues(@Seed long seed)
      throws Exception {
    for (ProtocolKind kind : List.of(ProtocolKind.MONOTONIC, ProtocolKind.ATOMIC)) {
      try (Fixture f = new Fixture(seed, true, QueueBehavior.weak())) {
        ManualExecutor ex = new ManualExecutor();
        Database db = f.open(f.config().protocol(kind).clientId("a").checkpointExecutor(ex));
        load(db, 10);
        AtomicLong ticks = new AtomicLong();
        ConcurrentLinkedQueue<Write> writes = new ConcurrentLinkedQueue<>();
        List<CompletableFuture<Void>> workers = new ArrayList<>();
        for (int t = 0; t < 4; t++) {
          Random random = new Random(seed + t);
          String name = "session-" + t;
          CompletableFuture<Void> done = new CompletableFuture<>();
          Thread thread =
              new Thread(
                  () -> {
                    try {
                      for (int i = 0; i < 15; i++) {
                        long key = random.nextInt(3);
                        String value = name + "-" + i;
                        long start = ticks.incrementAndGet();
                        update(db, key, value);
                        writes.add(new Write(key, value, start, ticks.incrementAndGet()));
                      }
                      done.complete(null);
                    } catch (Throwable e) {
                      done.completeExceptionally(e);
                    }
                  },
                  name);
          thread.start();
          workers.add(done);
        }
        CompletableFuture<Void> all =
            CompletableFuture.allOf(workers.toArray(new CompletableFuture<?>[0]));
        while (!all.isDone()) {
          db.admin().checkpointAll(); // checkpoints interleave with the commits
        }
        all.get(10, TimeUnit.SECONDS);
        ex.runAll();
        for (int i = 0; i < 3; i++) {
          BasicProtocolTest.quiesce(f, db);
        }
        Database other = f.open(f.config().protocol(kind).clientId("b").checkpointExecutor(ex));
        for (long k = 0; k < 3; k++) {
          final long key = k;
          String value = read(other, key);
          List<Write> ofKey = writes.stream().filter(w -> w.key() == key).toList();
          if (ofKey.isEmpty()) {
            assertThat(value).isEqualTo("v0-" + key);
            continue;
          }
          Write last =
              ofKey.stream()
                  .filter(w -> w.value().equals(value))
                  .findFirst()
                  .orElseThrow(
                      () ->
                          new AssertionError(
                              kind
                                  + ": key "
                                  + key
                                  + " holds "
                                  + value
                                  + ", which no write wrote"));
          assertThat(ofKey)
              .as(
                  "%s: key %d holds %s; no write of it may have begun after that" + " one ended",
                  kind, key, value)
              .noneMatch(w -> w.start() > last.end());
        }
      }
    }
  }
}
