package io.stratus.cloudapi.contract;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.stratus.cloudapi.BadRequestException;
import io.stratus.cloudapi.CloudException;
import io.stratus.cloudapi.CloudLimits;
import io.stratus.cloudapi.ConditionalRead;
import io.stratus.cloudapi.ConflictException;
import io.stratus.cloudapi.ItemMetadata;
import io.stratus.cloudapi.ItemSummary;
import io.stratus.cloudapi.ItemVersion;
import io.stratus.cloudapi.LimitExceededException;
import io.stratus.cloudapi.ListPage;
import io.stratus.cloudapi.PreconditionFailedException;
import io.stratus.cloudapi.StorageService;
import io.stratus.cloudapi.StoredItem;
import io.stratus.cloudapi.SupportsConditionalPut;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.SplittableRandom;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The contract of {@link StorageService} and {@link SupportsConditionalPut}, run against every
 * implementation: the in-process storage in each of its modes here, S3 (on LocalStack) in the AWS
 * adapter, through this module's test-jar.
 *
 * <p>Why it is written the way it is: it asserts only what the interfaces promise, so that a real
 * service passes it too. Each test works under its own URI prefix ({@link #uri}) so that real
 * services can share a bucket. Where a test reads what it just wrote it first calls {@link
 * #settle()}, which lets {@link #consistencyWindow()} pass on eventually consistent stores; with
 * the default window of zero the same test checks read-after-write. Conditional-put tests return at
 * once when the store lacks the ability ({@link #supportsConditionalPut()}), so one suite serves
 * both kinds of store. Limits are read from {@link StorageService#limits()}; a limit too large to
 * exceed cheaply (a 5 GiB object) is not probed. The shared hooks and helpers are in {@link
 * ContractSupport}.
 */
public abstract class StorageServiceContract extends ContractSupport {
  /** Largest object the suite allocates to exceed {@link CloudLimits#maxObjectSize()}. */
  private static final long MAX_PROBED_OBJECT_SIZE = 16L * 1024 * 1024;

  protected StorageService storage;

  /** A fresh, isolated storage service (or one whose URIs {@link #uri} keeps apart). */
  protected abstract StorageService newStorage(long seed);

  /** How long after a write a read may still miss it; zero for strongly consistent stores. */
  protected Duration consistencyWindow() {
    return Duration.ZERO;
  }

  /** A "folder" per test, named after it and its seed, so that real services can share a bucket. */
  @Override
  protected String newPrefix() {
    String name = testName();
    return "contract/" + name + "-" + Long.toHexString(new SplittableRandom(seed).nextLong()) + "/";
  }

  @BeforeEach
  void createStorage() {
    this.storage = newStorage(seed);
  }

  /** Best-effort cleanup, for real services that share a bucket between runs. */
  @AfterEach
  void removeItems() {
    try {
      for (ItemSummary s : await(storage.listAll(uri("")))) {
        await(storage.delete(s.uri()));
      }
    } catch (CloudException e) {
      // Leftovers under a unique prefix harm no other test.
    }
  }

  /** Whether the conditional-put tests apply to {@link #storage}. */
  protected boolean supportsConditionalPut() {
    return storage instanceof SupportsConditionalPut;
  }

  /** Lets the consistency window pass, so that reads reflect every completed write. */
  protected void settle() {
    if (!consistencyWindow().isZero()) {
      elapse(consistencyWindow());
    }
  }

  // ---- put, get, metadata ----

  @Test
  void declaredConsistencyMatchesTheWindow() {
    if (consistencyWindow().isZero()) {
      assertThat(storage.isStronglyConsistent()).isTrue();
    }
  }

  @Test
  void putThenGetReturnsPayloadMetadataAndVersion() {
    byte[] payload = bytes("hello, cloud");
    Map<String, String> md = Map.of("kind", "page", "lsn", "42");
    ItemVersion v = await(storage.put(uri("a"), payload, md));
    assertThat(v.version()).isNotEmpty();
    settle();

    StoredItem item = await(storage.get(uri("a"))).orElseThrow();
    assertThat(item.uri()).isEqualTo(uri("a"));
    assertThat(item.payload()).isEqualTo(payload);
    assertThat(item.size()).isEqualTo(payload.length);
    assertThat(item.metadata()).isEqualTo(md);
    assertThat(item.version()).isEqualTo(v.version());
  }

  @Test
  void emptyPayloadAndEmptyMetadataRoundTrip() {
    await(storage.put(uri("empty"), new byte[0], Map.of()));
    settle();
    StoredItem item = await(storage.get(uri("empty"))).orElseThrow();
    assertThat(item.payload()).isEmpty();
    assertThat(item.metadata()).isEmpty();
  }

  @Test
  void callerCannotChangeStoredPayloadThroughItsArrays() {
    byte[] payload = bytes("original");
    await(storage.put(uri("a"), payload, Map.of()));
    payload[0] = 'X';
    settle();
    StoredItem item = await(storage.get(uri("a"))).orElseThrow();
    item.payload()[0] = 'Y';
    assertThat(await(storage.get(uri("a"))).orElseThrow().payload()).isEqualTo(bytes("original"));
  }

  @Test
  void overwriteReplacesPayloadMetadataAndVersion() {
    ItemVersion v1 = await(storage.put(uri("a"), bytes("one"), Map.of("n", "1")));
    ItemVersion v2 = await(storage.put(uri("a"), bytes("two"), Map.of("n", "2")));
    assertThat(v2.version()).isNotEqualTo(v1.version());
    settle();
    StoredItem item = await(storage.get(uri("a"))).orElseThrow();
    assertThat(item.payload()).isEqualTo(bytes("two"));
    assertThat(item.metadata()).isEqualTo(Map.of("n", "2"));
    assertThat(item.version()).isEqualTo(v2.version());
  }

  @Test
  void overwriteWithOnlyNewMetadataIsVisible() {
    await(storage.put(uri("a"), bytes("same"), Map.of("n", "1")));
    await(storage.put(uri("a"), bytes("same"), Map.of("n", "2")));
    settle();
    assertThat(await(storage.get(uri("a"))).orElseThrow().metadata()).isEqualTo(Map.of("n", "2"));
    assertThat(await(storage.getMetadata(uri("a"))).orElseThrow().metadata())
        .isEqualTo(Map.of("n", "2"));
  }

  @Test
  void getMetadataDescribesTheItemWithoutPayload() {
    ItemVersion v = await(storage.put(uri("a"), bytes("12345"), Map.of("k", "v")));
    settle();
    ItemMetadata md = await(storage.getMetadata(uri("a"))).orElseThrow();
    assertThat(md.uri()).isEqualTo(uri("a"));
    assertThat(md.metadata()).isEqualTo(Map.of("k", "v"));
    assertThat(md.version()).isEqualTo(v.version());
    assertThat(md.size()).isEqualTo(5);
    StoredItem item = await(storage.get(uri("a"))).orElseThrow();
    assertThat(md.lastModified()).isEqualTo(item.lastModified());
  }

  @Test
  void absentItemReadsAreEmptyNotErrors() {
    assertThat(await(storage.get(uri("nothing")))).isEmpty();
    assertThat(await(storage.getMetadata(uri("nothing")))).isEmpty();
    assertThat(await(storage.getIfChanged(uri("nothing"), "v")).status())
        .isEqualTo(ConditionalRead.Status.ABSENT);
    assertThat(await(storage.getIfModifiedSince(uri("nothing"), Instant.EPOCH)).status())
        .isEqualTo(ConditionalRead.Status.ABSENT);
  }

  // ---- conditional reads ----

  @Test
  void getIfChangedAnswersNotModifiedModifiedAndAbsent() {
    ItemVersion v1 = await(storage.put(uri("a"), bytes("one"), Map.of()));
    settle();
    assertThat(await(storage.getIfChanged(uri("a"), v1.version())).status())
        .isEqualTo(ConditionalRead.Status.NOT_MODIFIED);
    ConditionalRead other = await(storage.getIfChanged(uri("a"), v1.version() + "-other"));
    assertThat(other.status()).isEqualTo(ConditionalRead.Status.MODIFIED);
    assertThat(other.item().orElseThrow().payload()).isEqualTo(bytes("one"));

    ItemVersion v2 = await(storage.put(uri("a"), bytes("two"), Map.of()));
    settle();
    ConditionalRead changed = await(storage.getIfChanged(uri("a"), v1.version()));
    assertThat(changed.status()).isEqualTo(ConditionalRead.Status.MODIFIED);
    assertThat(changed.item().orElseThrow().payload()).isEqualTo(bytes("two"));
    assertThat(changed.item().orElseThrow().version()).isEqualTo(v2.version());

    await(storage.delete(uri("a")));
    settle();
    assertThat(await(storage.getIfChanged(uri("a"), v2.version())).status())
        .isEqualTo(ConditionalRead.Status.ABSENT);
  }

  @Test
  void getIfModifiedSinceTransfersChangesAfterTheGivenTime() {
    await(storage.put(uri("a"), bytes("one"), Map.of()));
    settle();
    Instant modified = await(storage.getMetadata(uri("a"))).orElseThrow().lastModified();

    ConditionalRead before =
        await(storage.getIfModifiedSince(uri("a"), modified.minusSeconds(3600)));
    assertThat(before.status()).isEqualTo(ConditionalRead.Status.MODIFIED);
    assertThat(before.item().orElseThrow().payload()).isEqualTo(bytes("one"));

    // After the item's time the store MAY still transfer it (a spurious transfer is harmless),
    // but it must not claim the item is gone, and what it transfers must be the item.
    ConditionalRead after = await(storage.getIfModifiedSince(uri("a"), modified.plusSeconds(3600)));
    assertThat(after.status()).isNotEqualTo(ConditionalRead.Status.ABSENT);
    after.item().ifPresent(i -> assertThat(i.payload()).isEqualTo(bytes("one")));
  }

  // ---- listing ----

  @Test
  void listPaginatesInOrderAcrossPages() {
    List<String> expected = new ArrayList<>();
    for (int i = 0; i < 25; i++) {
      String u = uri(String.format("item-%02d", i));
      expected.add(u);
      await(storage.put(u, bytes("payload " + i), Map.of()));
    }
    settle();
    int pageSize = Math.min(10, storage.limits().maxListPageSize());
    List<String> listed = new ArrayList<>();
    Optional<String> token = Optional.empty();
    int pages = 0;
    do {
      ListPage page = await(storage.list(uri(""), token, pageSize));
      assertThat(page.items()).hasSizeLessThanOrEqualTo(pageSize);
      page.items().forEach(s -> listed.add(s.uri()));
      token = page.nextToken();
      pages++;
      assertThat(pages).as("pages before the listing ends").isLessThan(100);
    } while (token.isPresent());

    assertThat(listed).containsExactlyElementsOf(expected);
    assertThat(pages).isGreaterThanOrEqualTo((25 + pageSize - 1) / pageSize);
  }

  @Test
  void listSummariesDescribeTheItems() {
    ItemVersion v = await(storage.put(uri("x"), bytes("four"), Map.of("k", "v")));
    settle();
    ListPage page = await(storage.list(uri(""), Optional.empty(), 10));
    assertThat(page.items()).hasSize(1);
    ItemSummary s = page.items().get(0);
    assertThat(s.uri()).isEqualTo(uri("x"));
    assertThat(s.size()).isEqualTo(4);
    assertThat(s.version()).isEqualTo(v.version());
    assertThat(page.nextToken()).isEmpty();
  }

  @Test
  void listSortsInUtf8ByteOrder() {
    // U+1F600 (a surrogate pair in UTF-16) sorts after U+FF21 in UTF-8, before it in String order.
    List<String> names = List.of("~", "a", "B", "\u00e9", "\uff21", "\ud83d\ude00", "a/b", "a0");
    for (String n : names) {
      await(storage.put(uri(n), bytes(n), Map.of()));
    }
    settle();
    List<String> expected = new ArrayList<>();
    names.forEach(n -> expected.add(uri(n)));
    expected.sort(
        Comparator.comparing(s -> s.getBytes(StandardCharsets.UTF_8), Arrays::compareUnsigned));

    List<String> listed = new ArrayList<>();
    await(storage.listAll(uri(""))).forEach(s -> listed.add(s.uri()));
    assertThat(listed).containsExactlyElementsOf(expected);
  }

  @Test
  void listByPrefixIsolatesPrefixes() {
    for (String n : List.of("a/1", "a/2", "ab/1", "b/1")) {
      await(storage.put(uri(n), bytes(n), Map.of()));
    }
    settle();
    assertThat(listedUris("a/")).containsExactly(uri("a/1"), uri("a/2"));
    assertThat(listedUris("a")).containsExactly(uri("a/1"), uri("a/2"), uri("ab/1"));
    assertThat(listedUris("b/")).containsExactly(uri("b/1"));
    ListPage none = await(storage.list(uri("c/"), Optional.empty(), 10));
    assertThat(none.items()).isEmpty();
    assertThat(none.nextToken()).isEmpty();
  }

  @Test
  void listAllFollowsEveryPage() {
    List<String> expected = new ArrayList<>();
    int n = Math.min(25, 2 * storage.limits().maxListPageSize() + 1);
    for (int i = 0; i < n; i++) {
      String u = uri(String.format("all/%03d", i));
      expected.add(u);
      await(storage.put(u, new byte[] {(byte) i}, Map.of()));
    }
    settle();
    assertThat(listedUris("all/")).containsExactlyElementsOf(expected);
  }

  // ---- delete ----

  @Test
  void deleteRemovesTheItemEverywhere() {
    await(storage.put(uri("a"), bytes("one"), Map.of()));
    await(storage.put(uri("b"), bytes("two"), Map.of()));
    await(storage.delete(uri("a")));
    settle();
    assertThat(await(storage.get(uri("a")))).isEmpty();
    assertThat(await(storage.getMetadata(uri("a")))).isEmpty();
    assertThat(listedUris("")).containsExactly(uri("b"));
    assertThat(await(storage.get(uri("b")))).isPresent();
  }

  @Test
  void deleteOfAnAbsentItemSucceeds() {
    await(storage.delete(uri("never")));
    await(storage.put(uri("a"), bytes("one"), Map.of()));
    await(storage.delete(uri("a")));
    await(storage.delete(uri("a")));
    settle();
    assertThat(await(storage.get(uri("a")))).isEmpty();
  }

  @Test
  void putAfterDeleteCreatesTheItemAgain() {
    await(storage.put(uri("a"), bytes("one"), Map.of()));
    await(storage.delete(uri("a")));
    await(storage.put(uri("a"), bytes("again"), Map.of()));
    settle();
    assertThat(await(storage.get(uri("a"))).orElseThrow().payload()).isEqualTo(bytes("again"));
  }

  // ---- limits and malformed requests ----

  @Test
  void uriAtTheLimitIsAcceptedAndOneByteMoreIsNot() {
    int max = storage.limits().maxUriLength();
    int prefixBytes = uri("").getBytes(StandardCharsets.UTF_8).length;
    String atLimit = uri("x".repeat(max - prefixBytes));
    await(storage.put(atLimit, bytes("ok"), Map.of()));
    settle();
    assertThat(await(storage.get(atLimit))).isPresent();

    String tooLong = atLimit + "y";
    assertThatThrownBy(() -> await(storage.put(tooLong, bytes("no"), Map.of())))
        .isInstanceOf(LimitExceededException.class);
    assertThatThrownBy(() -> await(storage.get(tooLong)))
        .isInstanceOf(LimitExceededException.class);
  }

  @Test
  void metadataOverTheLimitIsRejectedWithoutEffect() {
    int max = storage.limits().maxMetadataSize();
    Map<String, String> big = Map.of("k", "v".repeat(max));
    assertThatThrownBy(() -> await(storage.put(uri("a"), bytes("x"), big)))
        .isInstanceOf(LimitExceededException.class);
    settle();
    assertThat(await(storage.get(uri("a")))).isEmpty();
  }

  @Test
  void objectOverTheLimitIsRejectedWithoutEffect() {
    long max = storage.limits().maxObjectSize();
    if (max > MAX_PROBED_OBJECT_SIZE) {
      return; // too large to exceed cheaply; the limit is checked where it is small
    }
    byte[] tooBig = new byte[(int) max + 1];
    assertThatThrownBy(() -> await(storage.put(uri("a"), tooBig, Map.of())))
        .isInstanceOf(LimitExceededException.class);
    settle();
    assertThat(await(storage.get(uri("a")))).isEmpty();
  }

  @Test
  void nullOrEmptyUrisAreBadRequests() {
    for (String bad : new String[] {null, ""}) {
      assertThatThrownBy(() -> await(storage.put(bad, bytes("x"), Map.of())))
          .isInstanceOf(BadRequestException.class);
      assertThatThrownBy(() -> await(storage.get(bad))).isInstanceOf(BadRequestException.class);
      assertThatThrownBy(() -> await(storage.getMetadata(bad)))
          .isInstanceOf(BadRequestException.class);
      assertThatThrownBy(() -> await(storage.delete(bad))).isInstanceOf(BadRequestException.class);
    }
    assertThatThrownBy(() -> await(storage.list(null, Optional.empty(), 10)))
        .isInstanceOf(BadRequestException.class);
  }

  @Test
  void nullPayloadOrMetadataAreBadRequests() {
    assertThatThrownBy(() -> await(storage.put(uri("a"), null, Map.of())))
        .isInstanceOf(BadRequestException.class);
    assertThatThrownBy(() -> await(storage.put(uri("a"), bytes("x"), null)))
        .isInstanceOf(BadRequestException.class);
  }

  @Test
  void listPageSizeMustBeWithinLimits() {
    assertThatThrownBy(() -> await(storage.list(uri(""), Optional.empty(), 0)))
        .isInstanceOf(BadRequestException.class);
    int tooMany = storage.limits().maxListPageSize() + 1;
    assertThatThrownBy(() -> await(storage.list(uri(""), Optional.empty(), tooMany)))
        .isInstanceOf(LimitExceededException.class);
  }

  // ---- conditional puts ----

  @Test
  void putIfAbsentSucceedsOnceOnly() {
    if (!supportsConditionalPut()) {
      return;
    }
    SupportsConditionalPut cs = (SupportsConditionalPut) storage;
    ItemVersion v = await(cs.putIfAbsent(uri("a"), bytes("first"), Map.of("n", "1")));
    assertThatThrownBy(() -> await(cs.putIfAbsent(uri("a"), bytes("second"), Map.of("n", "2"))))
        .isInstanceOf(PreconditionFailedException.class);
    settle();
    StoredItem item = await(storage.get(uri("a"))).orElseThrow();
    assertThat(item.payload()).isEqualTo(bytes("first"));
    assertThat(item.metadata()).isEqualTo(Map.of("n", "1"));
    assertThat(item.version()).isEqualTo(v.version());
  }

  @Test
  void putIfAbsentSeesAWriteAtOnce() {
    if (!supportsConditionalPut()) {
      return;
    }
    SupportsConditionalPut cs = (SupportsConditionalPut) storage;
    // Conditions are checked against the latest state even on an eventually consistent store.
    await(storage.put(uri("a"), bytes("plain"), Map.of()));
    assertThatThrownBy(() -> await(cs.putIfAbsent(uri("a"), bytes("x"), Map.of())))
        .isInstanceOf(PreconditionFailedException.class);
    await(storage.delete(uri("a")));
    await(cs.putIfAbsent(uri("a"), bytes("after delete"), Map.of()));
    settle();
    assertThat(await(storage.get(uri("a"))).orElseThrow().payload())
        .isEqualTo(bytes("after delete"));
  }

  @Test
  void putIfVersionMatchesChecksTheCurrentVersion() {
    if (!supportsConditionalPut()) {
      return;
    }
    SupportsConditionalPut cs = (SupportsConditionalPut) storage;
    ItemVersion v1 = await(storage.put(uri("a"), bytes("one"), Map.of()));
    ItemVersion v2 = await(cs.putIfVersionMatches(uri("a"), bytes("two"), Map.of(), v1.version()));
    assertThat(v2.version()).isNotEqualTo(v1.version());

    assertThatThrownBy(
            () -> await(cs.putIfVersionMatches(uri("a"), bytes("three"), Map.of(), v1.version())))
        .isInstanceOf(PreconditionFailedException.class);
    settle();
    StoredItem item = await(storage.get(uri("a"))).orElseThrow();
    assertThat(item.payload()).isEqualTo(bytes("two"));
    assertThat(item.version()).isEqualTo(v2.version());
  }

  @Test
  void putIfVersionMatchesFailsOnAnAbsentItem() {
    if (!supportsConditionalPut()) {
      return;
    }
    SupportsConditionalPut cs = (SupportsConditionalPut) storage;
    ItemVersion v = await(storage.put(uri("a"), bytes("one"), Map.of()));
    await(storage.delete(uri("a")));
    assertThatThrownBy(
            () -> await(cs.putIfVersionMatches(uri("a"), bytes("two"), Map.of(), v.version())))
        .isInstanceOf(PreconditionFailedException.class);
    assertThatThrownBy(
            () -> await(cs.putIfVersionMatches(uri("never"), bytes("x"), Map.of(), v.version())))
        .isInstanceOf(PreconditionFailedException.class);
    settle();
    assertThat(await(storage.get(uri("a")))).isEmpty();
    assertThat(await(storage.get(uri("never")))).isEmpty();
  }

  @Test
  void conditionalPutsRespectLimits() {
    if (!supportsConditionalPut()) {
      return;
    }
    SupportsConditionalPut cs = (SupportsConditionalPut) storage;
    Map<String, String> big = Map.of("k", "v".repeat(storage.limits().maxMetadataSize()));
    assertThatThrownBy(() -> await(cs.putIfAbsent(uri("a"), bytes("x"), big)))
        .isInstanceOf(LimitExceededException.class);
    assertThatThrownBy(() -> await(cs.putIfAbsent("", bytes("x"), Map.of())))
        .isInstanceOf(BadRequestException.class);
    settle();
    assertThat(await(storage.get(uri("a")))).isEmpty();
  }

  @Test
  void racingVersionMatchesLetExactlyOneWin() throws Exception {
    if (!supportsConditionalPut()) {
      return;
    }
    SupportsConditionalPut cs = (SupportsConditionalPut) storage;
    ItemVersion base = await(storage.put(uri("race"), bytes("base"), Map.of()));
    int threads = 8;
    CountDownLatch start = new CountDownLatch(1);
    ExecutorService pool = Executors.newFixedThreadPool(threads);
    try {
      List<Future<String>> outcomes = new ArrayList<>();
      for (int t = 0; t < threads; t++) {
        String mine = "writer " + t;
        Callable<String> racer =
            () -> {
              start.await();
              try {
                await(cs.putIfVersionMatches(uri("race"), bytes(mine), Map.of(), base.version()));
                return mine;
              } catch (PreconditionFailedException | ConflictException e) {
                return null; // lost the race without effect, as the contract allows
              }
            };
        outcomes.add(pool.submit(racer));
      }
      start.countDown();
      List<String> winners = new ArrayList<>();
      for (Future<String> f : outcomes) {
        String w = f.get(60, TimeUnit.SECONDS);
        if (w != null) {
          winners.add(w);
        }
      }
      assertThat(winners).hasSize(1);
      settle();
      assertThat(await(storage.get(uri("race"))).orElseThrow().payload())
          .isEqualTo(bytes(winners.get(0)));
    } finally {
      pool.shutdownNow();
    }
  }

  // ---- atomicity under concurrency ----

  @Test
  void concurrentReadersNeverSeeATornItem() throws Exception {
    int writes = 100;
    int readers = 3;
    await(storage.put(uri("t"), bytes(tornPayload(-1)), Map.of("n", "-1")));
    AtomicBoolean done = new AtomicBoolean();
    CountDownLatch start = new CountDownLatch(1);
    ExecutorService pool = Executors.newFixedThreadPool(readers + 1);
    try {
      List<Future<Integer>> reads = new ArrayList<>();
      for (int r = 0; r < readers; r++) {
        reads.add(
            pool.submit(
                () -> {
                  start.await();
                  int n = 0;
                  while (!done.get()) {
                    Optional<StoredItem> item = await(storage.get(uri("t")));
                    if (item.isPresent()) {
                      String m = item.get().metadata().get("n");
                      assertThat(new String(item.get().payload(), StandardCharsets.UTF_8))
                          .isEqualTo(tornPayload(Integer.parseInt(m)));
                      n++;
                    }
                  }
                  return n;
                }));
      }
      Future<?> writer =
          pool.submit(
              () -> {
                start.await();
                try {
                  for (int i = 0; i < writes; i++) {
                    await(storage.put(uri("t"), bytes(tornPayload(i)), Map.of("n", "" + i)));
                  }
                } finally {
                  done.set(true);
                }
                return null;
              });
      start.countDown();
      writer.get(120, TimeUnit.SECONDS);
      for (Future<Integer> f : reads) {
        assertThat(f.get(120, TimeUnit.SECONDS)).isGreaterThanOrEqualTo(0);
      }
      settle();
      StoredItem last = await(storage.get(uri("t"))).orElseThrow();
      assertThat(last.metadata()).containsEntry("n", "" + (writes - 1));
    } finally {
      done.set(true);
      pool.shutdownNow();
    }
  }

  // ---- helpers ----

  /** The URIs of a full listing of {@code uri(name)}. */
  protected List<String> listedUris(String name) {
    List<String> out = new ArrayList<>();
    await(storage.listAll(uri(name))).forEach(s -> out.add(s.uri()));
    return out;
  }

  /** A payload whose length and content both depend on {@code n}, so a mix would show. */
  private static String tornPayload(int n) {
    return ("item " + n + ";").repeat(1 + Math.floorMod(n, 7));
  }
}
