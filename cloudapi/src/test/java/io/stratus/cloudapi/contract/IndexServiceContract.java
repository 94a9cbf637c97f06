package io.stratus.cloudapi.contract;

import static org.assertj.core.api.Assertions.assertThat;

import io.stratus.cloudapi.BadRequestException;
import io.stratus.cloudapi.CloudException;
import io.stratus.cloudapi.IndexItem;
import io.stratus.cloudapi.IndexKeys;
import io.stratus.cloudapi.IndexLimits;
import io.stratus.cloudapi.IndexPage;
import io.stratus.cloudapi.IndexQuery;
import io.stratus.cloudapi.IndexQuery.Bound;
import io.stratus.cloudapi.IndexQuery.Order;
import io.stratus.cloudapi.IndexService;
import io.stratus.cloudapi.IndexSortKeys;
import io.stratus.cloudapi.LimitExceededException;
import io.stratus.cloudapi.NotFoundException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.SplittableRandom;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The contract of {@link IndexService}, run against every implementation: the in-process index in
 * each of its modes here, DynamoDB (on a DynamoDB-compatible server) in the AWS adapter, through
 * this module's test-jar.
 *
 * <p>It asserts only what the interface promises, so that a real service passes it too. Each test
 * works in its own domain ({@link #domain}), deleted afterwards. Where a test queries what it just
 * wrote it first calls {@link #settle()}, which lets {@link #queryLag()} pass on services whose
 * queries are eventually consistent; with the default lag of zero the same tests check that
 * queries see every completed write. Limits are read from {@link IndexService#limits()}.
 */
public abstract class IndexServiceContract extends ContractSupport {
  /** The attribute every test queries by. */
  protected static final String KEY = "key";

  /** A second query attribute. */
  protected static final String OTHER = "other";

  protected IndexService index;

  /** The test's domain, created with query attributes {@link #KEY} and {@link #OTHER}. */
  protected String domain;

  /** A fresh index service (or one whose domains {@link #domain} keeps apart). */
  protected abstract IndexService newIndex(long seed);

  /**
   * How long after a write a query may still miss it; zero when queries see every completed write
   * (on the service under test, even if the service does not promise it in general).
   */
  protected Duration queryLag() {
    return Duration.ZERO;
  }

  @BeforeEach
  void createIndex() {
    this.index = newIndex(seed);
    this.domain = uniquePrefix("ct-", "").replace('_', '-');
    if (domain.length() > index.limits().maxDomainNameLength()) {
      domain = domain.substring(domain.length() - index.limits().maxDomainNameLength());
    }
    await(index.createDomain(domain, Set.of(KEY, OTHER)));
  }

  /** Best-effort cleanup, for real services that share an account between runs. */
  @AfterEach
  void deleteDomain() {
    try {
      await(index.deleteDomain(domain));
    } catch (CloudException e) {
      // A leftover domain under a unique name harms no other test.
    }
  }

  /** Lets the query lag pass, so that queries reflect every completed write. */
  protected void settle() {
    if (!queryLag().isZero()) {
      elapse(queryLag());
    }
  }

  // ---- items ----

  @Test
  void putThenGetReturnsTheItem() {
    IndexItem item = new IndexItem("a", Map.of(KEY, "k1", "payload", "some text", OTHER, ""));
    await(index.put(domain, item));
    assertThat(await(index.get(domain, "a"))).contains(item);
    assertThat(await(index.get(domain, "b"))).isEmpty();
  }

  @Test
  void aPutReplacesEveryAttribute() {
    await(index.put(domain, new IndexItem("a", Map.of(KEY, "k1", "x", "1"))));
    await(index.put(domain, new IndexItem("a", Map.of(OTHER, "o2"))));
    assertThat(await(index.get(domain, "a"))).contains(IndexItem.of("a", OTHER, "o2"));
    settle();
    assertThat(all(IndexQuery.on(KEY))).as("no longer has the key").isEmpty();
    assertThat(names(all(IndexQuery.on(OTHER)))).containsExactly("a");
  }

  @Test
  void deleteRemovesTheItemAndSucceedsWhenItIsAbsent() {
    await(index.put(domain, IndexItem.of("a", KEY, "k")));
    await(index.delete(domain, "a"));
    await(index.delete(domain, "a"));
    await(index.delete(domain, "never"));
    assertThat(await(index.get(domain, "a"))).isEmpty();
    settle();
    assertThat(all(IndexQuery.on(KEY))).isEmpty();
  }

  @Test
  void repeatedPutsAndDeletesLeaveTheSameState() {
    IndexItem a = IndexItem.of("a", KEY, "k");
    await(index.put(domain, a));
    await(index.put(domain, a));
    List<IndexItem> batch = List.of(IndexItem.of("b", KEY, "k"), IndexItem.of("c", KEY, "j"));
    await(index.putBatch(domain, batch));
    await(index.putBatch(domain, batch));
    settle();
    assertThat(names(all(IndexQuery.on(KEY)))).containsExactly("c", "a", "b");
    await(index.deleteBatch(domain, List.of("a", "b")));
    await(index.deleteBatch(domain, List.of("a", "b")));
    settle();
    assertThat(names(all(IndexQuery.on(KEY)))).containsExactly("c");
    assertThat(await(index.get(domain, "b"))).isEmpty();
  }

  @Test
  void aFullBatchIsStoredAndDeleted() {
    int n = index.limits().maxBatchSize();
    List<IndexItem> items = new ArrayList<>();
    List<String> itemNames = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      items.add(IndexItem.of(String.format("i%03d", i), KEY, IndexKeys.encode((long) (n - i))));
      itemNames.add(String.format("i%03d", i));
    }
    await(index.putBatch(domain, items));
    settle();
    List<String> expected = new ArrayList<>(itemNames);
    java.util.Collections.reverse(expected);
    assertThat(names(all(IndexQuery.on(KEY)))).containsExactlyElementsOf(expected);
    await(index.deleteBatch(domain, itemNames));
    settle();
    assertThat(all(IndexQuery.on(KEY))).isEmpty();
  }

  // ---- queries ----

  @Test
  void rangeQueriesReturnTheRangeInOrderAcrossPages() {
    SplittableRandom random = new SplittableRandom(seed);
    List<IndexItem> items = new ArrayList<>();
    // Short values from a small alphabet: many ties, and values that are prefixes of others.
    for (int i = 0; i < 40; i++) {
      String name = "n" + random.nextInt(1000);
      if (items.stream().anyMatch(it -> it.name().equals(name))) {
        continue;
      }
      items.add(IndexItem.of(name, KEY, randomValue(random)));
    }
    items.add(new IndexItem("no-key", Map.of(OTHER, "x")));
    for (int from = 0; from < items.size(); from += index.limits().maxBatchSize()) {
      await(
          index.putBatch(
              domain,
              items.subList(from, Math.min(items.size(), from + index.limits().maxBatchSize()))));
    }
    settle();
    for (int round = 0; round < 12; round++) {
      IndexQuery q = IndexQuery.on(KEY).limit(1 + random.nextInt(7));
      if (random.nextInt(4) > 0) {
        q = q.from(new Bound(randomValue(random), random.nextBoolean()));
      }
      if (random.nextInt(4) > 0) {
        q = q.to(new Bound(randomValue(random), random.nextBoolean()));
      }
      if (random.nextBoolean()) {
        q = q.order(Order.DESCENDING);
      }
      assertThat(names(all(q))).as("%s", q).containsExactlyElementsOf(expected(items, q));
    }
  }

  @Test
  void boundsAreInclusiveOrExclusiveAsAsked() {
    putAll(
        IndexItem.of("a", KEY, "b"),
        IndexItem.of("b", KEY, "b"),
        IndexItem.of("c", KEY, "ba"),
        IndexItem.of("d", KEY, "c"),
        IndexItem.of("e", KEY, "a"));
    settle();
    IndexQuery q = IndexQuery.on(KEY);
    assertThat(names(all(q.from(Bound.inclusive("b")).to(Bound.inclusive("c")))))
        .containsExactly("a", "b", "c", "d");
    assertThat(names(all(q.from(Bound.exclusive("b")).to(Bound.exclusive("c")))))
        .containsExactly("c");
    assertThat(names(all(q.from(Bound.exclusive("a")).to(Bound.inclusive("b")))))
        .containsExactly("a", "b");
    assertThat(names(all(q.to(Bound.exclusive("b"))))).containsExactly("e");
    assertThat(names(all(q.from(Bound.exclusive("ba"))))).containsExactly("d");
    assertThat(names(all(q.from(Bound.inclusive("c")).to(Bound.inclusive("b"))))).isEmpty();
    assertThat(names(all(q.from(Bound.exclusive("b")).to(Bound.exclusive("b"))))).isEmpty();
    assertThat(names(all(q.order(Order.DESCENDING).to(Bound.inclusive("ba")))))
        .containsExactly("c", "b", "a", "e");
  }

  @Test
  void equalityMatchesWholeValuesOnly() {
    putAll(
        IndexItem.of("x2", KEY, "ab"),
        IndexItem.of("x1", KEY, "ab"),
        IndexItem.of("y", KEY, "abc"),
        IndexItem.of("z", KEY, "a"),
        IndexItem.of("w", KEY, ""));
    settle();
    assertThat(names(all(IndexQuery.on(KEY).equalTo("ab")))).containsExactly("x1", "x2");
    assertThat(names(all(IndexQuery.on(KEY).equalTo("")))).containsExactly("w");
    assertThat(names(all(IndexQuery.on(KEY).equalTo("b")))).isEmpty();
  }

  @Test
  void valuesCompareInUtf8ByteOrder() {
    // U+FFFD sorts below U+1F600 in UTF-8 (code point) order but above it in UTF-16 order.
    putAll(
        IndexItem.of("emoji", KEY, "\uD83D\uDE00"),
        IndexItem.of("replacement", KEY, "\uFFFD"),
        IndexItem.of("ascii", KEY, "z"),
        IndexItem.of("latin", KEY, "\u00e9"));
    settle();
    assertThat(names(all(IndexQuery.on(KEY))))
        .containsExactly("ascii", "latin", "replacement", "emoji");
  }

  @Test
  void encodedKeysSortAsTheirBytes() {
    SplittableRandom random = new SplittableRandom(seed);
    List<byte[]> keys = new ArrayList<>();
    keys.add(new byte[0]);
    keys.add(new byte[] {(byte) 0xff});
    keys.add(new byte[] {0, 0});
    for (int i = 0; i < 17; i++) {
      byte[] k = new byte[random.nextInt(4)];
      for (int j = 0; j < k.length; j++) {
        k[j] = (byte) random.nextInt(256);
      }
      keys.add(k);
    }
    List<IndexItem> items = new ArrayList<>();
    for (int i = 0; i < keys.size(); i++) {
      items.add(IndexItem.of("k" + i, KEY, IndexKeys.encode(keys.get(i))));
    }
    await(index.putBatch(domain, items));
    settle();
    List<byte[]> got = new ArrayList<>();
    for (IndexItem it : all(IndexQuery.on(KEY).limit(4))) {
      got.add(IndexKeys.decode(it.get(KEY)));
    }
    List<byte[]> sorted = new ArrayList<>(keys);
    sorted.sort(java.util.Arrays::compareUnsigned);
    assertThat(got).containsExactlyElementsOf(sorted);
  }

  @Test
  void aQueryReturnsOnlyItemsThatHaveTheAttribute() {
    putAll(
        IndexItem.of("a", KEY, "1"),
        IndexItem.of("b", OTHER, "1"),
        new IndexItem("c", Map.of(KEY, "2", OTHER, "0")));
    settle();
    assertThat(all(IndexQuery.on(KEY)))
        .containsExactly(
            IndexItem.of("a", KEY, "1"), new IndexItem("c", Map.of(KEY, "2", OTHER, "0")));
    assertThat(names(all(IndexQuery.on(OTHER)))).containsExactly("c", "b");
  }

  @Test
  void pagesNeverLoseOrRepeatAnItemWhileOthersAreWritten() {
    SplittableRandom random = new SplittableRandom(seed);
    Map<String, String> stable = new LinkedHashMap<>();
    for (int i = 0; i < 30; i++) {
      stable.put(String.format("s%02d", i), IndexKeys.encode((long) random.nextInt(20)));
    }
    List<IndexItem> items = new ArrayList<>();
    stable.forEach((n, v) -> items.add(IndexItem.of(n, KEY, v)));
    await(index.putBatch(domain, items.subList(0, 15)));
    await(index.putBatch(domain, items.subList(15, 30)));
    settle();
    for (Order order : Order.values()) {
      List<String> seen = new ArrayList<>();
      List<String> sortKeys = new ArrayList<>();
      Set<String> written = new HashSet<>();
      IndexQuery q = IndexQuery.on(KEY).order(order).limit(4);
      int page = 0;
      while (true) {
        IndexPage p = await(index.query(domain, q));
        for (IndexItem it : p.items()) {
          seen.add(it.name());
          sortKeys.add(IndexSortKeys.sortKey(it.get(KEY), it.name()));
        }
        // New items around the walk's position, and churn of items written during the walk.
        for (int j = 0; j < 2; j++) {
          String n = "w" + order.ordinal() + "-" + page + "-" + j;
          await(
              index.put(domain, IndexItem.of(n, KEY, IndexKeys.encode((long) random.nextInt(20)))));
          written.add(n);
        }
        settle();
        page++;
        if (p.nextToken().isEmpty()) {
          break;
        }
        q = q.after(p.nextToken().get());
        assertThat(page).as("pages").isLessThan(100);
      }
      assertThat(new HashSet<>(seen)).as("no item twice").hasSameSizeAs(seen);
      List<String> stableSeen = new ArrayList<>(seen);
      stableSeen.removeIf(written::contains);
      List<String> stableExpected = new ArrayList<>(stable.keySet());
      assertThat(stableSeen).as("every unchanged item once").hasSameElementsAs(stableExpected);
      assertThat(stableSeen).hasSameSizeAs(stableExpected);
      assertThat(sortKeys)
          .as("in order")
          .isSortedAccordingTo(
              order == Order.ASCENDING
                  ? IndexSortKeys.UTF8_ORDER
                  : IndexSortKeys.UTF8_ORDER.reversed());
      await(index.deleteBatch(domain, new ArrayList<>(written)));
      settle();
    }
  }

  @Test
  void aPageMayBeShortButTheTokenLeadsOn() {
    for (int i = 0; i < 7; i++) {
      await(index.put(domain, IndexItem.of("i" + i, KEY, "v" + i)));
    }
    settle();
    IndexPage first = await(index.query(domain, IndexQuery.on(KEY).limit(3)));
    assertThat(first.items()).hasSizeLessThanOrEqualTo(3);
    assertThat(first.nextToken()).isPresent();
    IndexPage whole = await(index.query(domain, IndexQuery.on(KEY).limit(7)));
    assertThat(names(whole.items())).hasSizeLessThanOrEqualTo(7);
    assertThat(names(all(IndexQuery.on(KEY).limit(7))))
        .containsExactly("i0", "i1", "i2", "i3", "i4", "i5", "i6");
  }

  @Test
  void stronglyConsistentQueriesSeeCompletedWritesAtOnce() {
    if (!index.isStronglyConsistent()) {
      return;
    }
    await(index.put(domain, IndexItem.of("a", KEY, "1")));
    assertThat(names(await(index.query(domain, IndexQuery.on(KEY))).items())).containsExactly("a");
    await(index.put(domain, IndexItem.of("a", KEY, "2")));
    assertThat(await(index.query(domain, IndexQuery.on(KEY).equalTo("1"))).items()).isEmpty();
    await(index.delete(domain, "a"));
    assertThat(await(index.query(domain, IndexQuery.on(KEY))).items()).isEmpty();
  }

  @Test
  void queriesSeeWritesOnceTheLagHasPassed() {
    await(index.put(domain, IndexItem.of("a", KEY, "1")));
    await(index.put(domain, IndexItem.of("a", KEY, "2")));
    settle();
    assertThat(all(IndexQuery.on(KEY))).containsExactly(IndexItem.of("a", KEY, "2"));
    assertThat(await(index.get(domain, "a"))).contains(IndexItem.of("a", KEY, "2"));
  }

  @Test
  void concurrentPutsAreEachStoredWhole() throws Exception {
    int threads = 4;
    int perThread = 6;
    ExecutorService pool = Executors.newFixedThreadPool(threads);
    try {
      CountDownLatch start = new CountDownLatch(1);
      List<Future<Void>> done = new ArrayList<>();
      for (int t = 0; t < threads; t++) {
        int id = t;
        Callable<Void> task =
            () -> {
              start.await();
              for (int i = 0; i < perThread; i++) {
                await(index.put(domain, IndexItem.of("t" + id + "-" + i, KEY, "v" + i)));
                // Every thread also overwrites one shared item with attributes of its own.
                await(
                    index.put(
                        domain, new IndexItem("shared", Map.of(KEY, "s" + id, OTHER, "o" + id))));
              }
              return null;
            };
        done.add(pool.submit(task));
      }
      start.countDown();
      for (Future<Void> f : done) {
        f.get(60, TimeUnit.SECONDS);
      }
    } finally {
      pool.shutdownNow();
    }
    settle();
    List<IndexItem> got = all(IndexQuery.on(KEY).limit(10));
    assertThat(got).hasSize(threads * perThread + 1);
    IndexItem shared = await(index.get(domain, "shared")).orElseThrow();
    String id = shared.get(KEY).substring(1);
    assertThat(shared.get(OTHER)).as("one put's attributes, whole").isEqualTo("o" + id);
    assertThat(got).contains(shared);
  }

  // ---- domains ----

  @Test
  void callsOnAnUnknownDomainFailWithNotFound() {
    String unknown = domain + "-none";
    assertFails(() -> index.put(unknown, IndexItem.of("a", KEY, "1")), NotFoundException.class);
    assertFails(
        () -> index.putBatch(unknown, List.of(IndexItem.of("a", KEY, "1"))),
        NotFoundException.class);
    assertFails(() -> index.get(unknown, "a"), NotFoundException.class);
    assertFails(() -> index.delete(unknown, "a"), NotFoundException.class);
    assertFails(() -> index.deleteBatch(unknown, List.of("a")), NotFoundException.class);
    assertFails(() -> index.query(unknown, IndexQuery.on(KEY)), NotFoundException.class);
    await(index.deleteDomain(unknown));
  }

  @Test
  void aDeletedDomainIsGoneAndCanBeCreatedAnew() {
    await(index.put(domain, IndexItem.of("a", KEY, "1")));
    await(index.deleteDomain(domain));
    assertFails(() -> index.get(domain, "a"), NotFoundException.class);
    await(index.deleteDomain(domain));
    await(index.createDomain(domain, Set.of(KEY)));
    assertThat(await(index.get(domain, "a"))).isEmpty();
  }

  @Test
  void creatingADomainAgainNeedsTheSameQueryAttributes() {
    await(index.createDomain(domain, Set.of(OTHER, KEY)));
    BadRequestException e =
        assertFails(() -> index.createDomain(domain, Set.of(KEY)), BadRequestException.class);
    assertThat(e).hasMessageContaining(domain);
    await(index.put(domain, IndexItem.of("a", KEY, "1")));
    settle();
    assertThat(names(all(IndexQuery.on(KEY)))).containsExactly("a");
  }

  @Test
  void queryingAnAttributeTheDomainWasNotCreatedWithIsABadRequest() {
    await(index.put(domain, IndexItem.of("a", "color", "red")));
    BadRequestException e =
        assertFails(() -> index.query(domain, IndexQuery.on("color")), BadRequestException.class);
    assertThat(e).hasMessageContaining("color");
  }

  // ---- limits ----

  @Test
  void oversizedRequestsFailWithLimitExceededAndHaveNoEffect() {
    IndexLimits limits = index.limits();
    String longName = "n".repeat(limits.maxItemNameLength() + 1);
    assertLimit(() -> index.put(domain, IndexItem.of(longName, KEY, "1")), "item name length");
    String longValue = "v".repeat(limits.maxAttributeValueLength() + 1);
    assertLimit(() -> index.put(domain, IndexItem.of("a", KEY, longValue)), "attribute value");
    Map<String, String> many = new HashMap<>();
    for (int i = 0; i <= limits.maxAttributesPerItem(); i++) {
      many.put("a" + i, "1");
    }
    assertLimit(() -> index.put(domain, new IndexItem("a", many)), "attributes of item a");
    int perValue = limits.maxAttributeValueLength();
    int needed = limits.maxItemSize() / perValue + 1;
    if (needed <= limits.maxAttributesPerItem()) {
      Map<String, String> big = new HashMap<>();
      for (int i = 0; i < needed; i++) {
        big.put("a" + i, "v".repeat(perValue));
      }
      assertLimit(() -> index.put(domain, new IndexItem("a", big)), "size of item a");
    }
    String longAttribute = "a".repeat(limits.maxAttributeNameLength() + 1);
    assertLimit(
        () -> index.put(domain, IndexItem.of("a", longAttribute, "1")), "attribute name length");
    List<IndexItem> batch = new ArrayList<>();
    List<String> batchNames = new ArrayList<>();
    for (int i = 0; i <= limits.maxBatchSize(); i++) {
      batch.add(IndexItem.of("b" + i, KEY, "1"));
      batchNames.add("b" + i);
    }
    assertLimit(() -> index.putBatch(domain, batch), "batch size");
    assertLimit(() -> index.deleteBatch(domain, batchNames), "batch size");
    assertLimit(
        () -> index.query(domain, IndexQuery.on(KEY).limit(limits.maxPageSize() + 1)),
        "query limit");
    assertLimit(
        () -> index.query(domain, IndexQuery.on(KEY).from(Bound.inclusive(longValue))),
        "attribute value");
    assertThat(await(index.get(domain, "a"))).as("no effect").isEmpty();
    assertThat(await(index.get(domain, "b0"))).as("no effect").isEmpty();
    settle();
    assertThat(all(IndexQuery.on(KEY))).as("no effect").isEmpty();
  }

  @Test
  void malformedRequestsFailWithBadRequestAndHaveNoEffect() {
    assertFails(() -> index.put(domain, IndexItem.of("", KEY, "1")), BadRequestException.class);
    assertFails(() -> index.put(domain, IndexItem.of("a", KEY, "x\ny")), BadRequestException.class);
    assertFails(
        () -> index.put(domain, IndexItem.of("a\u0001", KEY, "1")), BadRequestException.class);
    assertFails(
        () -> index.put(domain, IndexItem.of("a", "bad name", "1")), BadRequestException.class);
    assertFails(() -> index.put(domain, null), BadRequestException.class);
    assertFails(() -> index.put("x", IndexItem.of("a", KEY, "1")), BadRequestException.class);
    assertFails(
        () -> index.put("bad/domain", IndexItem.of("a", KEY, "1")), BadRequestException.class);
    assertFails(
        () ->
            index.putBatch(
                domain, List.of(IndexItem.of("a", KEY, "1"), IndexItem.of("a", KEY, "2"))),
        BadRequestException.class);
    assertFails(() -> index.putBatch(domain, List.of()), BadRequestException.class);
    assertFails(() -> index.deleteBatch(domain, List.of("a", "a")), BadRequestException.class);
    assertFails(() -> index.query(domain, IndexQuery.on(KEY).limit(0)), BadRequestException.class);
    BadRequestException token =
        assertFails(
            () -> index.query(domain, IndexQuery.on(KEY).after("not a token!")),
            BadRequestException.class);
    assertThat(token).hasMessageContaining("nextToken");
    assertFails(() -> index.createDomain(domain + "-q", null), BadRequestException.class);
    assertThat(await(index.get(domain, "a"))).as("no effect").isEmpty();
  }

  @Test
  void tooManyQueryAttributesFailWithLimitExceeded() {
    Set<String> attributes = new HashSet<>();
    for (int i = 0; i <= index.limits().maxQueryAttributes(); i++) {
      attributes.add("q" + i);
    }
    assertLimit(() -> index.createDomain(domain + "-many", attributes), "query attributes");
  }

  // ---- helpers ----

  private void assertLimit(
      java.util.function.Supplier<? extends java.util.concurrent.CompletableFuture<?>> call,
      String limit) {
    LimitExceededException e = assertFails(call, LimitExceededException.class);
    assertThat(e.limit()).as("which limit").startsWith(limit);
    assertThat(e.actual()).isGreaterThan(e.maximum());
    assertThat(e).hasMessageContaining("the limit is " + e.maximum());
  }

  private void putAll(IndexItem... items) {
    await(index.putBatch(domain, List.of(items)));
  }

  /** Every item {@code query} selects, following continuation tokens. */
  protected List<IndexItem> all(IndexQuery query) {
    List<IndexItem> all = new ArrayList<>();
    IndexQuery q = query;
    for (int pages = 0; ; pages++) {
      assertThat(pages).as("pages of %s", query).isLessThan(1000);
      IndexPage p = await(index.query(domain, q));
      assertThat(p.items().size()).isLessThanOrEqualTo(q.limit());
      all.addAll(p.items());
      if (p.nextToken().isEmpty()) {
        return all;
      }
      q = query.after(p.nextToken().get());
    }
  }

  protected static List<String> names(List<IndexItem> items) {
    List<String> names = new ArrayList<>();
    for (IndexItem it : items) {
      names.add(it.name());
    }
    return names;
  }

  private static String randomValue(SplittableRandom random) {
    StringBuilder sb = new StringBuilder();
    int len = random.nextInt(4);
    for (int i = 0; i < len; i++) {
      sb.append("ab\u00e9".charAt(random.nextInt(3)));
    }
    return sb.toString();
  }

  /** The names {@code q} selects from {@code items}, computed from the contract's definition. */
  private static List<String> expected(List<IndexItem> items, IndexQuery q) {
    Comparator<IndexItem> byValueThenName =
        Comparator.comparing((IndexItem it) -> it.get(q.attribute()), IndexSortKeys.UTF8_ORDER)
            .thenComparing(IndexItem::name, IndexSortKeys.UTF8_ORDER);
    List<IndexItem> in = new ArrayList<>();
    for (IndexItem it : items) {
      String v = it.get(q.attribute());
      if (v == null) {
        continue;
      }
      Optional<Bound> lo = q.lower();
      Optional<Bound> hi = q.upper();
      if (lo.isPresent()) {
        int c = IndexSortKeys.compareUtf8(v, lo.get().value());
        if (c < 0 || (c == 0 && !lo.get().inclusive())) {
          continue;
        }
      }
      if (hi.isPresent()) {
        int c = IndexSortKeys.compareUtf8(v, hi.get().value());
        if (c > 0 || (c == 0 && !hi.get().inclusive())) {
          continue;
        }
      }
      in.add(it);
    }
    in.sort(q.order() == Order.ASCENDING ? byValueThenName : byValueThenName.reversed());
    return names(in);
  }
}
