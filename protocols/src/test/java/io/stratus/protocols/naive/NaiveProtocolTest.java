package io.stratus.protocols.naive;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.stratus.CommitFailedException;
import io.stratus.CommitStateUnknownException;
import io.stratus.cloudapi.CloudFutures;
import io.stratus.cloudapi.CloudLimits;
import io.stratus.cloudapi.CloudServices;
import io.stratus.cloudapi.CrashPoints;
import io.stratus.cloudapi.LimitExceededException;
import io.stratus.cloudapi.Operation;
import io.stratus.cloudapi.OutcomeUnknownException;
import io.stratus.cloudapi.StorageService;
import io.stratus.cloudapi.StoredItem;
import io.stratus.cloudapi.decorate.CallInterceptor;
import io.stratus.cloudapi.decorate.Decorators;
import io.stratus.cloudapi.decorate.FaultInterceptor;
import io.stratus.cloudapi.decorate.FaultPlan;
import io.stratus.cloudapi.decorate.ScriptedCrashPoints;
import io.stratus.cloudapi.decorate.SimulatedCrashException;
import io.stratus.cloudapi.inprocess.InProcessCloud;
import io.stratus.cloudapi.testing.Seed;
import io.stratus.cloudapi.testing.SeedExtension;
import io.stratus.cloudapi.time.ManualClock;
import io.stratus.pagemanager.BufferPool;
import io.stratus.pagemanager.BufferPoolConfig;
import io.stratus.pagemanager.Page;
import io.stratus.pagemanager.PageCodec;
import io.stratus.pagemanager.PageKind;
import io.stratus.pagemanager.PageWrite;
import io.stratus.protocols.CommitProtocol;
import io.stratus.protocols.CommitProtocols;
import io.stratus.protocols.CommitResult;
import io.stratus.protocols.LogicalChange;
import io.stratus.protocols.ProtocolContext;
import io.stratus.protocols.ProtocolKind;
import io.stratus.protocols.ProtocolSettings;
import io.stratus.protocols.ProtocolTransaction;
import io.stratus.protocols.TransactionInfo;
import io.stratus.protocols.WriteSet;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/** The naive protocol: write order, concurrency within a step, failure mapping, crash points. */
@ExtendWith(SeedExtension.class)
class NaiveProtocolTest {
  private static final String NEW_A = "db/c/x/new-a";
  private static final String NEW_B = "db/c/x/new-b";
  private static final String LEAF = "db/c/x/leaf";
  private static final String INNER = "db/c/x/inner";
  private static final String ROOT = "db/c/x/root";

  private final ManualClock clock = new ManualClock();
  private final List<AutoCloseable> toClose = new ArrayList<>();
  private InProcessCloud cloud;

  @AfterEach
  void closeAll() throws Exception {
    for (AutoCloseable c : toClose) {
      c.close();
    }
  }

  @Test
  void writesNewPagesFirstThenModifiedPagesByAscendingLevelEachStepConcurrently(@Seed long seed)
      throws Exception {
    GateInterceptor gate = new GateInterceptor();
    CommitProtocol naive = naive(seed, CrashPoints.none(), gate);
    storeOriginals();
    WriteSet ws = splitLikeWriteSet();
    ExecutorService committer = Executors.newSingleThreadExecutor();
    try {
      Future<CommitResult> commit = committer.submit(() -> commit(naive, ws));
      // Both new pages are issued before either completes: one step, concurrently.
      GateInterceptor.Held first = gate.next();
      GateInterceptor.Held second = gate.next();
      assertThat(List.of(first.uri, second.uri)).containsExactlyInAnyOrder(NEW_A, NEW_B);
      first.release();
      assertThat(gate.anyWaiting())
          .as("no modified page before all new pages are written")
          .isFalse();
      second.release();
      List<String> rest = new ArrayList<>();
      for (int i = 0; i < 3; i++) {
        GateInterceptor.Held h = gate.next();
        assertThat(gate.anyWaiting()).as("one level at a time").isFalse();
        rest.add(h.uri);
        h.release();
      }
      assertThat(rest).containsExactly(LEAF, INNER, ROOT);
      CommitResult result = commit.get(10, TimeUnit.SECONDS);
      assertThat(result.pagesWritten()).isEqualTo(5);
      assertThat(result.newPagesWritten()).isEqualTo(2);
      assertThat(result.logRecordsSent()).isZero();
      for (PageWrite w : ws.pages()) {
        StoredItem item = stored(w.uri()).orElseThrow();
        assertThat(result.committedVersions()).containsEntry(w.uri(), item.version());
        assertThat(PageCodec.decode(w.uri(), item.payload())).isEqualTo(w.page());
      }
    } finally {
      committer.shutdownNow();
    }
  }

  @Test
  void commitsOnDisjointPagesAreWrittenTogetherAndOnOnePageOneAfterTheOther(@Seed long seed)
      throws Exception {
    GateInterceptor gate = new GateInterceptor();
    CommitProtocol naive = naive(seed, CrashPoints.none(), gate);
    Map<String, StoredItem> base = storeOriginals();
    ExecutorService committers = Executors.newFixedThreadPool(3);
    try {
      Future<CommitResult> first =
          committers.submit(() -> commit(naive, writeSet(modified(leaf(LEAF, 7), base))));
      GateInterceptor.Held firstPut = gate.next();
      assertThat(firstPut.uri).isEqualTo(LEAF);

      AtomicReference<Thread> sameLeafThread = new AtomicReference<>();
      Future<CommitResult> sameLeaf =
          committers.submit(
              () -> {
                sameLeafThread.set(Thread.currentThread());
                return commit(naive, writeSet(modified(leaf(LEAF, 9), base)));
              });
      Future<CommitResult> otherPage =
          committers.submit(() -> commit(naive, writeSet(modified(inner(INNER, 3), base))));
      GateInterceptor.Held otherPut = gate.next();
      assertThat(otherPut.uri).as("a commit of another page is written meanwhile").isEqualTo(INNER);
      otherPut.release();
      assertThat(otherPage.get(10, TimeUnit.SECONDS).pagesWritten()).isEqualTo(1);

      // Parked, either waiting for the leaf or (wrongly) for a put of it the gate holds.
      awaitParked(sameLeafThread);
      assertThat(gate.anyWaiting())
          .as("a second commit of the leaf waits: two puts of one object have no order")
          .isFalse();
      firstPut.release();
      assertThat(first.get(10, TimeUnit.SECONDS).pagesWritten()).isEqualTo(1);
      sameLeaf.get(10, TimeUnit.SECONDS);
    } finally {
      committers.shutdownNow();
    }
  }

  /** Waits (bounded) until the thread the reference names is parked. */
  private static void awaitParked(AtomicReference<Thread> thread) {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
    while (thread.get() == null || thread.get().getState() != Thread.State.WAITING) {
      if (System.nanoTime() > deadline) {
        throw new AssertionError("the commit thread never parked");
      }
      Thread.onSpinWait();
    }
  }

  @Test
  void reachesItsCrashPointsInOrder(@Seed long seed) {
    ScriptedCrashPoints points = new ScriptedCrashPoints();
    CommitProtocol naive = naive(seed, points);
    storeOriginals();
    commit(naive, splitLikeWriteSet());
    assertThat(points.reached())
        .containsExactlyInAnyOrderEntriesOf(
            Map.of("naive.before-pages", 1L, "naive.after-new-pages", 1L, "naive.after-pages", 1L));
  }

  @Test
  void aCrashAfterTheNewPagesLeavesEveryModifiedPageAsItWas(@Seed long seed) {
    ScriptedCrashPoints points = new ScriptedCrashPoints().arm("naive.after-new-pages", 1);
    CommitProtocol naive = naive(seed, points);
    Map<String, StoredItem> before = storeOriginals();
    assertThatThrownBy(() -> commit(naive, splitLikeWriteSet()))
        .isInstanceOf(SimulatedCrashException.class);
    assertThat(stored(NEW_A)).isPresent();
    assertThat(stored(NEW_B)).isPresent();
    for (String uri : List.of(LEAF, INNER, ROOT)) {
      assertThat(stored(uri)).contains(before.get(uri));
    }
  }

  @Test
  void aRetryableFailureOfTheFirstPutIsARetryableCommitFailureWithNothingStored(@Seed long seed) {
    FaultPlan plan =
        FaultPlan.builder().onNthCall(Operation.STORAGE_PUT, "", 1, FaultPlan.Fault.fail()).build();
    CommitProtocol naive = naive(seed, CrashPoints.none(), new FaultInterceptor(plan, seed, clock));
    Map<String, StoredItem> before = storeOriginals();
    WriteSet ws =
        writeSet(
            new PageWrite(leaf(NEW_A, 0), Optional.empty(), true), modified(leaf(LEAF, 0), before));
    assertThatThrownBy(() -> commit(naive, ws))
        .isInstanceOfSatisfying(
            CommitFailedException.class, e -> assertThat(e.isRetryable()).isTrue());
    assertThat(stored(NEW_A)).isEmpty();
    assertThat(stored(LEAF)).contains(before.get(LEAF));
  }

  @Test
  void aLostReplyIsAnUnknownCommitState(@Seed long seed) {
    FaultPlan plan =
        FaultPlan.builder()
            .onNthCall(Operation.STORAGE_PUT_IF_VERSION, LEAF, 1, FaultPlan.Fault.loseReply())
            .build();
    CommitProtocol naive = naive(seed, CrashPoints.none(), new FaultInterceptor(plan, seed, clock));
    Map<String, StoredItem> before = storeOriginals();
    WriteSet ws = writeSet(modified(leaf(LEAF, 0), before));
    assertThatThrownBy(() -> commit(naive, ws))
        .isInstanceOfSatisfying(
            CommitStateUnknownException.class,
            e -> {
              assertThat(e.isRetryable()).isFalse();
              assertThat(e.getCause()).isInstanceOf(OutcomeUnknownException.class);
            });
    // The put did take effect: exactly the case the caller must find out about by reading.
    assertThat(PageCodec.decode(LEAF, stored(LEAF).orElseThrow().payload()))
        .isEqualTo(ws.pages().get(0).page());
  }

  @Test
  void aRetryableFailureAfterSomePagesWereWrittenIsAnUnknownCommitState(@Seed long seed) {
    FaultPlan plan =
        FaultPlan.builder()
            .onNthCall(Operation.STORAGE_PUT_IF_VERSION, INNER, 1, FaultPlan.Fault.fail())
            .build();
    CommitProtocol naive = naive(seed, CrashPoints.none(), new FaultInterceptor(plan, seed, clock));
    storeOriginals();
    assertThatThrownBy(() -> commit(naive, splitLikeWriteSet()))
        .isInstanceOf(CommitStateUnknownException.class);
  }

  @Test
  void aNonRetryableFailureBeforeAnyWriteIsAPermanentCommitFailure(@Seed long seed) {
    cloud =
        InProcessCloud.builder()
            .clock(clock)
            .seed(seed)
            .limits(CloudLimits.builder().maxObjectSize(10).build())
            .build();
    CommitProtocol naive = CommitProtocols.create(context(cloud.services(), CrashPoints.none()));
    WriteSet ws = writeSet(new PageWrite(leaf(NEW_A, 0), Optional.empty(), true));
    assertThatThrownBy(() -> commit(naive, ws))
        .isInstanceOfSatisfying(
            CommitFailedException.class,
            e -> {
              assertThat(e.isRetryable()).isFalse();
              assertThat(e.getCause()).isInstanceOf(LimitExceededException.class);
            });
  }

  @Test
  void anEmptyWriteSetWritesNothing(@Seed long seed) {
    ScriptedCrashPoints points = new ScriptedCrashPoints();
    CommitProtocol naive = naive(seed, points);
    assertThat(commit(naive, writeSet())).isEqualTo(CommitResult.empty());
    assertThat(cloud.storedItemCount()).isZero();
    assertThat(naive.kind()).isEqualTo(ProtocolKind.NAIVE);
  }

  @Test
  void everyDeclaredProtocolIsAvailable(@Seed long seed) {
    naive(seed, CrashPoints.none());
    for (ProtocolKind kind : ProtocolKind.values()) {
      assertThat(kind.isAvailable()).as("%s", kind).isTrue();
    }
  }

  @Test
  void valueTypesCopyTheirBytes() {
    byte[] key = {1, 2};
    LogicalChange c =
        new LogicalChange(LogicalChange.Kind.INSERT, "t", key, new byte[] {3}, Optional.of("p"));
    key[0] = 9;
    assertThat(c.key()).containsExactly(1, 2);
    c.key()[1] = 9;
    assertThat(c.key()).containsExactly(1, 2);
    assertThat(c)
        .isEqualTo(
            new LogicalChange(
                LogicalChange.Kind.INSERT,
                "t",
                new byte[] {1, 2},
                new byte[] {3},
                Optional.of("p")));
    assertThat(writeSet().isEmpty()).isTrue();
    assertThatThrownBy(() -> new CommitResult(Map.of(), 1, 2, 0))
        .isInstanceOf(IllegalArgumentException.class);
  }

  // ---- fixtures ----

  private CommitProtocol naive(long seed, CrashPoints points, CallInterceptor... interceptors) {
    cloud = InProcessCloud.builder().clock(clock).seed(seed).build();
    CloudServices services = Decorators.wrap(cloud.services(), interceptors);
    CommitProtocol p = CommitProtocols.create(context(services, points));
    toClose.add(p);
    return p;
  }

  private ProtocolContext context(CloudServices services, CrashPoints points) {
    BufferPool pool = new BufferPool(services.storage(), BufferPoolConfig.defaults(), clock);
    toClose.add(pool);
    return ProtocolContext.builder(services, "db", "client-1", pool, new ProtocolSettings.Naive())
        .clock(clock)
        .crashPoints(points)
        .build();
  }

  private StorageService rawStorage() {
    return cloud.services().storage();
  }

  private Optional<StoredItem> stored(String uri) {
    return CloudFutures.await(rawStorage().get(uri));
  }

  /** Stores the committed versions of the pages the write sets modify; returns them. */
  private Map<String, StoredItem> storeOriginals() {
    Map<String, StoredItem> m = new java.util.HashMap<>();
    for (Page p : List.of(leaf(LEAF, 0), inner(INNER, 1), inner(ROOT, 2))) {
      CloudFutures.await(rawStorage().put(p.uri(), PageCodec.encode(p), Map.of()));
      m.put(p.uri(), stored(p.uri()).orElseThrow());
    }
    return m;
  }

  /** What a leaf split that propagates to the root writes: two new pages, three modified. */
  private WriteSet splitLikeWriteSet() {
    Map<String, StoredItem> base = new java.util.HashMap<>();
    for (String uri : List.of(LEAF, INNER, ROOT)) {
      base.put(uri, stored(uri).orElseThrow());
    }
    // Listed in an order unlike the required one, so the protocol has to sort.
    return writeSet(
        modified(
            inner(ROOT, 2).toBuilder()
                .entries(new byte[][] {{}, {5}}, new byte[][] {{1}, {2}})
                .build(),
            base),
        modified(leaf(LEAF, 7), base),
        new PageWrite(leaf(NEW_A, 1), Optional.empty(), true),
        modified(inner(INNER, 3).toBuilder().level(1).build(), base),
        new PageWrite(inner(NEW_B, 1), Optional.empty(), true));
  }

  private static PageWrite modified(Page p, Map<String, StoredItem> base) {
    return new PageWrite(p, Optional.of(base.get(p.uri()).version()), false);
  }

  private static Page leaf(String uri, int marker) {
    return Page.builder(uri, PageKind.LEAF)
        .entries(new byte[][] {{(byte) marker}}, new byte[][] {{1, 2, 3}})
        .build();
  }

  private static Page inner(String uri, int level) {
    return Page.builder(uri, PageKind.INNER)
        .level(level)
        .entries(new byte[][] {{}}, new byte[][] {{(byte) level}})
        .build();
  }

  /** Commits {@code ws} the way the record manager does: in a transaction of its own. */
  private static CommitResult commit(CommitProtocol protocol, WriteSet ws) {
    ProtocolTransaction tx = protocol.begin(ws.transaction());
    boolean committed = false;
    try {
      CommitResult r = tx.commit(ws);
      committed = true;
      return r;
    } finally {
      tx.finish(committed);
    }
  }

  private static WriteSet writeSet(PageWrite... pages) {
    return new WriteSet(
        new TransactionInfo("tx-1", "client-1", Instant.EPOCH), List.of(), List.of(pages));
  }
}
