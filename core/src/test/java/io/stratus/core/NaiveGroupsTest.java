package io.stratus.core;

import static io.stratus.core.Fixture.PAGE_SIZE;
import static io.stratus.core.Fixture.bytes;
import static org.assertj.core.api.Assertions.assertThat;

import io.stratus.cloudapi.CloudFutures;
import io.stratus.cloudapi.Operation;
import io.stratus.cloudapi.decorate.Call;
import io.stratus.cloudapi.decorate.CallInterceptor;
import io.stratus.cloudapi.testing.Seed;
import io.stratus.cloudapi.testing.SeedExtension;
import io.stratus.pagemanager.Page;
import io.stratus.pagemanager.PageCodec;
import io.stratus.pagemanager.PageTransaction;
import io.stratus.protocols.StorageLayout;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.Callable;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.FutureTask;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Group commit of the naive protocol on a real B-link tree, where a group's replay reaches a page
 * it did not reserve and another group holds.
 *
 * <p>The schedule, on one handle over a tree with an inner root and several leaves:
 *
 * <ol>
 *   <li>Y creates a record on leaf L2 that fits there: its write set changes L2 only. Y does not
 *       commit yet.
 *   <li>X creates records on leaf L1 until L1 splits, so X also changes the root. A gate holds X's
 *       first put: X's group is running and holds L1 and the root.
 *   <li>Z creates a record on L2 that fits there as well; Z's group (L2 only) is written and
 *       installed meanwhile, so the L2 that Y read is no longer the pool's.
 *   <li>Y commits. Its group reserves L2 and replays Y's insert on the current L2, which with Z's
 *       record no longer has room: the replay splits L2 and changes the root, which X holds. The
 *       group lets go of L2 and waits, having put nothing.
 *   <li>X's puts go through; Y prepares again on X's root and is written.
 * </ol>
 *
 * Record sizes come from the leaves' fill (the page size and the page format's size bound are
 * known), so the splits happen exactly where the schedule needs them. Afterwards every record is
 * found by point reads and by scans, on this handle and on a fresh one, and the root lists every
 * leaf of the chain: had Y put its root while X held it, one of the two separators would be lost.
 */
@ExtendWith(SeedExtension.class)
class NaiveGroupsTest {
  private static final String ROOT = new StorageLayout(Fixture.DB).collectionRoot("items");

  @Test
  void aReplayThatSplitsIntoAPageAnotherGroupHoldsLetsGoAndWaitsForIt(@Seed long seed)
      throws Exception {
    try (Fixture f = new Fixture(seed)) {
      Gate gate = new Gate();
      Database db = f.open(f.config(gate));
      db.createCollection("items");
      Map<Long, String> expected = new TreeMap<>();
      for (long k = 0; k < 2400; k += 100) { // appends: leaves split at their byte median
        create(db, k, text("loaded-" + k, 100), expected);
      }
      Page root = page(db, ROOT);
      List<String> children = children(root);
      assertThat(root.level()).as("an inner root over leaves").isEqualTo(1);
      assertThat(children).hasSizeGreaterThanOrEqualTo(4);
      Page l1 = page(db, children.get(0));
      Page l2 = page(db, children.get(2));

      // Y and Z: each fits into L2 alone, not both (sizes exact: inserts carry no write stamps).
      long yKey = firstKey(l2) + 1;
      long zKey = firstKey(l2) + 2;
      int each = (PAGE_SIZE - l2.encodedSizeBound()) * 3 / 5 - 8;
      String yText = text("y", each);
      String zText = text("z", each);
      Page withZ = l2.withPut(Key.of(zKey).toBytes(), bytes(zText));
      assertThat(withZ.encodedSizeBound()).isLessThan(PAGE_SIZE - 16);
      assertThat(l2.withPut(Key.of(yKey).toBytes(), bytes(yText)).encodedSizeBound())
          .isLessThan(PAGE_SIZE - 16);
      assertThat(withZ.withPut(Key.of(yKey).toBytes(), bytes(yText)).encodedSizeBound())
          .isGreaterThan(PAGE_SIZE + 16);
      // X: records on L1 until the last one does not fit: one split of L1, one new separator.
      Map<Long, String> xRecords = new TreeMap<>();
      Page grown = l1;
      for (long k = firstKey(l1) + 1; grown.encodedSizeBound() <= PAGE_SIZE; k++) {
        String t = text("x" + k, 120);
        xRecords.put(k, t);
        grown = grown.withPut(Key.of(k).toBytes(), bytes(t));
      }

      Transaction y = db.begin();
      y.create("items", Key.of(yKey), bytes(yText));
      gate.close();
      FutureTask<Void> x = start(() -> createAll(db, xRecords));
      Gate.Held xFirst = gate.next();
      assertThat(xFirst.uri()).as("X's first put: the new half of L1").isNotIn(children);

      FutureTask<Void> z = start(() -> createAll(db, Map.of(zKey, zText)));
      Gate.Held zPut = gate.next();
      assertThat(zPut.uri()).as("Z changes L2 only, beside X").isEqualTo(children.get(2));
      zPut.go().run();
      z.get(10, TimeUnit.SECONDS);

      FutureTask<Void> yCommit =
          new FutureTask<>(
              () -> {
                y.commit();
                return null;
              });
      Thread yThread = new Thread(yCommit, "commit-y");
      yThread.start();
      awaitWaiting(yThread);
      assertThat(gate.anyWaiting()).as("Y puts nothing while X holds the root").isFalse();
      assertThat(yCommit.isDone()).isFalse();
      assertThat(x.isDone()).isFalse();

      gate.open();
      xFirst.go().run();
      x.get(10, TimeUnit.SECONDS);
      yCommit.get(10, TimeUnit.SECONDS);
      expected.putAll(xRecords);
      expected.put(yKey, yText);
      expected.put(zKey, zText);

      assertWhole(f, db, expected);
      assertThat(children(stored(f, ROOT)))
          .as("the root after both splits: X's separator and Y's")
          .hasSize(children.size() + 2);
      f.clock.advance(Fixture.TTL.plusSeconds(1));
      assertWhole(f, f.open(), expected);
    }
  }

  /**
   * Every expected record by point read and by scan, nothing else, and the root's children are
   * exactly the leaf chain (no split left without its separator).
   */
  private static void assertWhole(Fixture f, Database db, Map<Long, String> expected) {
    Map<String, String> byText = new TreeMap<>();
    for (Map.Entry<Long, String> e : expected.entrySet()) {
      byText.put(Long.toString(e.getKey()), e.getValue());
      String read =
          db.read(tx -> tx.read("items", Key.of(e.getKey())).map(Fixture::string).orElse(null));
      assertThat(read).as("point read of %d", e.getKey()).isEqualTo(e.getValue());
    }
    assertThat(Fixture.itemsByKey(db)).as("scan").isEqualTo(byText);
    List<String> chain = new ArrayList<>();
    List<String> children = children(stored(f, ROOT));
    for (String uri = children.get(0); uri != null; ) {
      chain.add(uri);
      uri = stored(f, uri).rightSibling().orElse(null);
    }
    assertThat(children).as("the root's children vs the leaf chain").isEqualTo(chain);
  }

  private static void create(Database db, long key, String text, Map<Long, String> expected) {
    createAll(db, Map.of(key, text));
    expected.put(key, text);
  }

  /** One transaction creating the records. */
  private static Void createAll(Database db, Map<Long, String> records) {
    return db.run(
        tx -> {
          records.forEach((k, t) -> tx.create("items", Key.of(k), bytes(t)));
          return null;
        });
  }

  /** {@code prefix}, padded to {@code length} bytes. */
  private static String text(String prefix, int length) {
    StringBuilder b = new StringBuilder(prefix).append('-');
    while (b.length() < length) {
      b.append((char) ('a' + b.length() % 26));
    }
    return b.toString();
  }

  /** The handle's current copy of a page. */
  private static Page page(Database db, String uri) {
    try (PageTransaction tx = db.pool().begin()) {
      return tx.read(uri).orElseThrow();
    }
  }

  /** The stored page. */
  static Page stored(Fixture f, String uri) {
    byte[] payload = CloudFutures.await(f.services().storage().get(uri)).orElseThrow().payload();
    return PageCodec.decode(uri, payload);
  }

  static List<String> children(Page inner) {
    List<String> uris = new ArrayList<>();
    for (int i = 0; i < inner.entryCount(); i++) {
      uris.add(new String(inner.value(i), StandardCharsets.UTF_8));
    }
    return uris;
  }

  static long firstKey(Page leaf) {
    return Key.ofBytes(leaf.key(0)).decoder().nextLong();
  }

  private static <T> FutureTask<T> start(Callable<T> work) {
    FutureTask<T> task = new FutureTask<>(work);
    new Thread(task).start();
    return task;
  }

  /** Spins (bounded) until the thread is parked without a timeout. */
  private static void awaitWaiting(Thread t) {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
    while (t.getState() != Thread.State.WAITING) {
      if (System.nanoTime() > deadline) {
        throw new AssertionError(t.getName() + " never parked; state " + t.getState());
      }
      Thread.onSpinWait();
    }
  }

  /** While closed, holds every storage put until the test releases it; open, lets puts pass. */
  static final class Gate implements CallInterceptor {
    /** One held put: {@code go} lets it proceed. */
    record Held(String uri, Runnable go) {}

    private final LinkedBlockingQueue<Held> held = new LinkedBlockingQueue<>();
    private boolean closed; // guarded by this

    synchronized void close() {
      closed = true;
    }

    /** Lets every held and later put pass. */
    void open() {
      List<Held> release = new ArrayList<>();
      synchronized (this) {
        closed = false;
        held.drainTo(release);
      }
      release.forEach(h -> h.go().run());
    }

    @Override
    public <T> CompletableFuture<T> intercept(Call<T> call, Supplier<CompletableFuture<T>> go) {
      CompletableFuture<T> out = new CompletableFuture<>();
      synchronized (this) {
        boolean put =
            call.operation() == Operation.STORAGE_PUT
                || call.operation() == Operation.STORAGE_PUT_IF_VERSION;
        if (put && closed) {
          held.add(new Held(call.target(), () -> relay(go.get(), out)));
          return out;
        }
      }
      return go.get();
    }

    private static <T> void relay(CompletableFuture<T> from, CompletableFuture<T> to) {
      from.whenComplete(
          (v, e) -> {
            if (e != null) {
              to.completeExceptionally(e);
            } else {
              to.complete(v);
            }
          });
    }

    /** The next held put, waiting for a commit thread to issue it (bounded, so a bug fails). */
    Held next() throws InterruptedException {
      Held h = held.poll(10, TimeUnit.SECONDS);
      if (h == null) {
        throw new AssertionError("no put was issued within 10 s");
      }
      return h;
    }

    /** Whether a put is held now. */
    boolean anyWaiting() {
      return !held.isEmpty();
    }
  }
}
