package io.stratus.pagemanager.contract;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.stratus.cloudapi.testing.Seed;
import io.stratus.cloudapi.testing.SeedExtension;
import io.stratus.pagemanager.Page;
import io.stratus.pagemanager.PageKind;
import io.stratus.pagemanager.PageStore;
import java.nio.charset.StandardCharsets;
import java.util.HashSet;
import java.util.Optional;
import java.util.Random;
import java.util.Set;
import java.util.TreeMap;
import java.util.UUID;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The contract of {@link PageStore}, run against every implementation through this module's
 * test-jar: the page transaction and the read interposer here, the protocols' checkpoint store,
 * committed view, snapshot view and latest-committed view in the protocols module, the bulk
 * loader's staging store in core.
 *
 * <p>A subclass says how to store a page where its stores read from ({@link #store}), how to make
 * a store ({@link #newStore}) and the page size it was configured with. What is optional is a
 * capability: a read-only view ({@link #writable()} false) is checked to refuse changes; a store
 * that holds only pages of its own ({@link #readsStoredPages()} false) is not asked to read stored
 * ones; a view that rewrites what it reads ({@link #returnsStoredPagesWhole()} false) only has to
 * return a page for a stored one. Every test works under its own URI prefix ({@link #uri}), so
 * subclasses may share one backing store between tests.
 */
@ExtendWith(SeedExtension.class)
public abstract class PageStoreContract {
  /** Characters {@link PageStore#newPageUri} may append to the prefix, at most. */
  private static final int URI_SUFFIX_LIMIT = 64;

  /** The test's seed (pages with random entries). */
  protected long seed;

  private String prefix;

  /** Stores {@code page} where the stores made by {@link #newStore} read from (committed). */
  protected abstract void store(Page page);

  /** A fresh store (one unit of work) over what {@link #store} stored. */
  protected abstract PageStore newStore();

  /** The page size the stores were configured with. */
  protected abstract int configuredPageSize();

  /** Whether the stores change pages ({@code false}: a read-only view, which refuses changes). */
  protected boolean writable() {
    return true;
  }

  /** Whether the stores read what {@link #store} stored ({@code false}: only their own pages). */
  protected boolean readsStoredPages() {
    return true;
  }

  /**
   * Whether a read returns a stored page exactly as stored ({@code false}: a view that rolls pages
   * to another state, which only has to return a page of the same URI and key range).
   */
  protected boolean returnsStoredPagesWhole() {
    return true;
  }

  /** Whether what the stores read from is eventually consistent (reads may lag behind writes). */
  protected boolean backingLags() {
    return false;
  }

  /**
   * The URI of a page named {@code name} of this test, under a per-test prefix; subclasses whose
   * stores interpret URIs (a tree's directory) override {@link #newPrefix}.
   */
  protected final String uri(String name) {
    return prefix + name;
  }

  /** The prefix of one test's URIs; the default is unique per test run. */
  protected String newPrefix() {
    return "contract/" + UUID.randomUUID().toString().substring(0, 8) + "/";
  }

  @BeforeEach
  public void setUpPageStoreContract(@Seed long seed) {
    this.seed = seed;
    this.prefix = newPrefix();
  }

  // ---- reads ----

  @Test
  void aUriWithoutAPageReadsEmpty() {
    assertThat(newStore().read(uri("nothing-here"))).isEmpty();
  }

  @Test
  void aStoredPageIsReadAsStored() {
    if (!readsStoredPages()) {
      return;
    }
    Page leaf = leaf("leaf", new Random(seed), 20);
    Page inner = inner("inner", leaf.uri());
    store(leaf);
    store(inner);
    PageStore s = newStore();
    Optional<Page> readLeaf = s.read(leaf.uri());
    assertThat(readLeaf).isPresent();
    assertThat(s.read(inner.uri())).contains(inner);
    if (returnsStoredPagesWhole()) {
      assertThat(readLeaf).contains(leaf);
    } else {
      assertThat(readLeaf.get().uri()).isEqualTo(leaf.uri());
      assertThat(readLeaf.get().lowKey()).isEqualTo(leaf.lowKey());
      assertThat(readLeaf.get().highKey()).isEqualTo(leaf.highKey());
    }
  }

  @Test
  void theOpaqueProtocolStateIsKept() {
    if (!readsStoredPages() || !returnsStoredPagesWhole()) {
      return;
    }
    byte[] state = new byte[37];
    new Random(seed).nextBytes(state);
    Page p = Page.builder(uri("with-state"), PageKind.INNER).level(1).protocolState(state).build();
    store(p);
    assertThat(newStore().read(p.uri()).orElseThrow().protocolState()).isEqualTo(state);
  }

  // ---- writes ----

  @Test
  void aStoreReadsItsOwnWrites() {
    if (!writable()) {
      return;
    }
    PageStore s = newStore();
    Page p = leaf("mine", new Random(seed), 10);
    s.write(p);
    assertSameApartFromStamp(s.read(p.uri()), p);
  }

  @Test
  void aWriteOfAStoredPageReplacesItInTheStore() {
    if (!writable() || !readsStoredPages()) {
      return;
    }
    Random r = new Random(seed);
    Page stored = leaf("changed", r, 5);
    store(stored);
    PageStore s = newStore();
    s.read(stored.uri());
    Page changed = stored.withPut(bytes("zz-new-key"), bytes("v"));
    s.write(changed);
    assertSameApartFromStamp(s.read(stored.uri()), changed);
  }

  /**
   * A page is one page whichever string object names it: a tree names a leaf by several (its
   * parent's entry, its left sibling's link), and a store may keep what it read under the last
   * one. A write after reads under both names shows under both.
   */
  @Test
  void equalUrisOfOtherStringObjectsNameOnePage() {
    Random r = new Random(seed);
    Page stored = leaf("two-names", r, 6);
    if (readsStoredPages()) {
      store(stored);
    }
    PageStore s = newStore();
    String first = stored.uri();
    String second = new String(first.toCharArray());
    if (readsStoredPages()) {
      Optional<Page> byFirst = s.read(first);
      assertThat(byFirst).isPresent();
      assertThat(s.read(second)).isEqualTo(byFirst);
      assertThat(s.read(first)).isEqualTo(byFirst);
    }
    if (!writable()) {
      return;
    }
    Page changed = stored.withPut(bytes("zz-renamed"), bytes("v"));
    s.write(changed);
    assertSameApartFromStamp(s.read(second), changed);
    assertSameApartFromStamp(s.read(first), changed);
    assertSameApartFromStamp(s.read(new String(first.toCharArray())), changed);
  }

  @Test
  void aLaterWriteReplacesAnEarlierOne() {
    if (!writable()) {
      return;
    }
    PageStore s = newStore();
    Random r = new Random(seed);
    Page first = leaf("twice", r, 3);
    Page second = first.withPut(bytes("zz-second"), bytes("2"));
    s.write(first);
    s.write(second);
    assertSameApartFromStamp(s.read(first.uri()), second);
  }

  @Test
  void writesStayPrivateToTheirStore() {
    if (!writable()) {
      return;
    }
    Random r = new Random(seed);
    Page stored = leaf("shared", r, 4);
    if (readsStoredPages()) {
      store(stored);
    }
    PageStore writer = newStore();
    Page fresh = leaf("fresh", r, 4);
    writer.write(fresh);
    writer.write(stored.withPut(bytes("zz-private"), bytes("p")));
    PageStore other = newStore();
    assertThat(other.read(fresh.uri())).isEmpty();
    if (readsStoredPages() && returnsStoredPagesWhole()) {
      assertThat(other.read(stored.uri())).contains(stored);
    } else {
      assertThat(other.read(stored.uri()).filter(p -> p.indexOf(bytes("zz-private")) >= 0))
          .isEmpty();
    }
  }

  @Test
  void aPageLargerThanThePageSizeIsRefusedAndNothingIsRecorded() {
    if (!writable()) {
      return;
    }
    PageStore s = newStore();
    Page small = leaf("big", new Random(seed), 2);
    s.write(small);
    Page big = small.withPut(bytes("zz-big"), new byte[configuredPageSize()]);
    assertThat(big.encodedSizeBound()).isGreaterThan(s.pageSize());
    assertThatThrownBy(() -> s.write(big)).isInstanceOf(IllegalArgumentException.class);
    assertSameApartFromStamp(s.read(small.uri()), small);
  }

  @Test
  void newPageUrisAreFreshShortAndUnderThePrefix() {
    if (!writable()) {
      return;
    }
    String pagePrefix = uri("t/");
    Set<String> seen = new HashSet<>();
    for (PageStore s : new PageStore[] {newStore(), newStore()}) { // two clients
      for (int i = 0; i < 200; i++) {
        String u = s.newPageUri(pagePrefix);
        assertThat(u).startsWith(pagePrefix);
        assertThat(u.length() - pagePrefix.length()).isBetween(1, URI_SUFFIX_LIMIT);
        assertThat(seen.add(u)).as("%s handed out twice", u).isTrue();
      }
    }
    PageStore s = newStore();
    String u = s.newPageUri(pagePrefix);
    assertThat(s.read(u)).isEmpty();
    Page p = Page.builder(u, PageKind.LEAF).build();
    s.write(p);
    assertSameApartFromStamp(s.read(u), p);
  }

  @Test
  void aReadOnlyViewRefusesChangesAndChangesNothing() {
    if (writable()) {
      return;
    }
    PageStore s = newStore();
    Page p = leaf("refused", new Random(seed), 3);
    assertThatThrownBy(() -> s.write(p)).isInstanceOf(UnsupportedOperationException.class);
    assertThatThrownBy(() -> s.newPageUri(uri("t/")))
        .isInstanceOf(UnsupportedOperationException.class);
    assertThat(s.read(p.uri())).isEmpty();
  }

  // ---- the store's properties ----

  @Test
  void thePageSizeIsTheConfiguredOne() {
    PageStore s = newStore();
    assertThat(s.pageSize()).isPositive().isEqualTo(configuredPageSize());
    s.read(uri("any"));
    assertThat(s.pageSize()).isEqualTo(configuredPageSize());
  }

  @Test
  void readsMayLagExactlyWhenTheStorageBeneathDoes() {
    assertThat(newStore().readsMayLag()).isEqualTo(backingLags());
  }

  // ---- helpers ----

  private static void assertSameApartFromStamp(Optional<Page> read, Page expected) {
    assertThat(read).isPresent();
    Page got = read.get();
    assertThat(got.versionStamp()).isGreaterThanOrEqualTo(expected.versionStamp());
    assertThat(got.withVersionStamp(expected.versionStamp())).isEqualTo(expected);
  }

  /**
   * A leaf named {@code name} with {@code n} random entries below "zz" (some with write stamps), a
   * tombstone, a high key, a right sibling and a version stamp.
   */
  protected final Page leaf(String name, Random r, int n) {
    TreeMap<String, String> entries = new TreeMap<>();
    while (entries.size() < n) {
      entries.put("k" + Integer.toString(r.nextInt(1_000_000), 36), "v" + r.nextLong());
    }
    byte[][] keys = new byte[n][];
    byte[][] values = new byte[n][];
    long[] stamps = new long[n];
    int i = 0;
    for (var e : entries.entrySet()) {
      keys[i] = bytes(e.getKey());
      values[i] = bytes(e.getValue());
      stamps[i] = r.nextBoolean() ? 0 : 1 + r.nextInt(1_000);
      i++;
    }
    return Page.builder(uri(name), PageKind.LEAF)
        .lowKey(bytes("a"))
        .highKey(bytes("zzzz"))
        .rightSibling(uri(name + "-right"))
        .versionStamp(1 + r.nextInt(100))
        .entries(keys, values, stamps)
        .tombstones(new byte[][] {bytes("j-deleted")}, new long[] {7})
        .build();
  }

  /** An inner page named {@code name} whose one child is {@code childUri}. */
  protected final Page inner(String name, String childUri) {
    return Page.builder(uri(name), PageKind.INNER)
        .level(1)
        .versionStamp(3)
        .entries(new byte[][] {new byte[0]}, new byte[][] {bytes(childUri)})
        .build();
  }

  protected static byte[] bytes(String s) {
    return s.getBytes(StandardCharsets.UTF_8);
  }
}
