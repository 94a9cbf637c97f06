package io.stratus.pagemanager;

import static io.stratus.cloudapi.Operation.STORAGE_GET;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.stratus.BufferPoolStats;
import io.stratus.cloudapi.testing.Seed;
import io.stratus.cloudapi.testing.SeedExtension;
import java.util.HashSet;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/** A transaction's private view: read-your-writes, repeatable reads, abort and complete. */
@ExtendWith(SeedExtension.class)
class PageTransactionTest {
  private static final String A = "db/t/a";
  private static final String B = "db/t/b";
  private PoolFixture f;
  private Page a;
  private String aVersion;

  @BeforeEach
  void setUp(@Seed long seed) {
    f = new PoolFixture(seed);
    a = RandomPages.leaf(A, 3, 10);
    aVersion = f.store(a);
  }

  @AfterEach
  void tearDown() {
    f.close();
  }

  @Test
  void readsItsOwnWrites() {
    try (PageTransaction tx = f.pool.begin()) {
      assertThat(tx.read(A)).contains(a);
      assertThat(tx.wrote(A)).isFalse();
      Page a2 = a.withPut(new byte[] {'x'}, new byte[] {1});
      tx.write(a2);
      assertThat(tx.wrote(A)).isTrue();
      assertThat(tx.wrote(B)).isFalse();
      // The first write stamps the page one above the version read; later writes keep it.
      long stamp = a.versionStamp() + 1;
      assertThat(tx.read(A)).contains(a2.withVersionStamp(stamp));
      Page a3 = a2.withRemoved(new byte[] {'x'}).withPut(new byte[] {'y'}, new byte[] {2});
      tx.write(a3);
      assertThat(tx.read(A)).contains(a3.withVersionStamp(stamp));
      assertThat(tx.writes().get(A))
          .isEqualTo(new PageWrite(a3.withVersionStamp(stamp), Optional.of(aVersion), false));
      // Others do not see it.
      assertThat(f.pool.fetch(A)).contains(a);
    }
  }

  @Test
  void repeatsItsReadsWhileOthersChangeThePage() {
    try (PageTransaction tx = f.pool.begin()) {
      Page first = tx.read(A).orElseThrow();
      assertThat(tx.read(B)).isEmpty();
      Page a2 = a.withPut(new byte[] {'n'}, new byte[] {9});
      f.store(a2);
      f.store(RandomPages.leaf(B, 1, 1));
      f.passTtl();
      assertThat(f.pool.fetch(A)).contains(a2); // the pool moved on
      assertThat(f.pool.fetch(B)).isPresent();

      assertThat(tx.read(A).orElseThrow()).isSameAs(first);
      assertThat(tx.read(B)).isEmpty();
      assertThat(tx.readSet()).containsExactlyInAnyOrder(A, B);
      assertThat(tx.readVersions()).isEqualTo(Map.of(A, aVersion));
    }
  }

  @Test
  void repeatedReadsMakeNoFurtherCalls() {
    try (PageTransaction tx = f.pool.begin()) {
      for (int i = 0; i < 10; i++) {
        tx.read(A);
        tx.read(B);
      }
    }
    assertThat(f.calls(STORAGE_GET)).isEqualTo(2);
    assertThat(f.pool.stats().fetches()).isEqualTo(2);
  }

  @Test
  void writesCarryTheirBaseVersionOrAreNew() {
    try (PageTransaction tx = f.pool.begin()) {
      tx.write(a.withPut(new byte[] {'q'}, new byte[0])); // not read before: read now
      String fresh = tx.newPageUri("db/t/");
      long callsBefore = f.storageCalls();
      tx.write(RandomPages.leaf(fresh, 2, 2)); // known new: no read
      assertThat(f.storageCalls()).isEqualTo(callsBefore);
      tx.write(RandomPages.leaf(B, 1, 1)); // absent in storage: new
      assertThat(tx.read(fresh)).isPresent();

      Map<String, PageWrite> w = tx.writes();
      assertThat(w.keySet()).containsExactly(A, fresh, B);
      assertThat(w.get(A).baseVersion()).contains(aVersion);
      assertThat(w.get(A).isNew()).isFalse();
      assertThat(w.get(fresh).isNew()).isTrue();
      assertThat(w.get(fresh).baseVersion()).isEmpty();
      assertThat(w.get(B).isNew()).isTrue();
      assertThat(tx.readSet()).containsExactlyInAnyOrder(A, B);
      assertThatThrownBy(() -> w.put("x", null)).isInstanceOf(UnsupportedOperationException.class);
    }
  }

  @Test
  void newPageUrisAreUniqueAndUnderThePrefix() {
    Set<String> seen = new HashSet<>();
    try (PageTransaction tx = f.pool.begin();
        PageTransaction other = f.pool.begin()) {
      for (int i = 0; i < 1000; i++) {
        String u = (i % 2 == 0 ? tx : other).newPageUri("db/coll/");
        assertThat(u).startsWith("db/coll/").hasSize("db/coll/".length() + 36);
        assertThat(seen.add(u)).isTrue();
      }
    }
    try (PageTransaction tx = f.pool.begin()) {
      assertThat(tx.pageSize()).isEqualTo(BufferPoolConfig.DEFAULT_PAGE_SIZE);
    }
  }

  @Test
  void abortDiscardsWritesWithoutACloudCallAndLeavesThePoolAsItWas() {
    f.pool.fetch(A);
    BufferPoolStats before = f.pool.stats();
    long calls = f.storageCalls();
    PageTransaction tx = f.pool.begin();
    tx.read(A);
    tx.write(a.withPut(new byte[] {'z'}, new byte[] {1}));
    tx.write(RandomPages.leaf(tx.newPageUri("db/t/"), 1, 1));
    assertThat(f.pool.pinCount(A)).isEqualTo(1);
    BufferPoolStats during = f.pool.stats();

    tx.abort();

    assertThat(f.storageCalls()).isEqualTo(calls);
    assertThat(f.pool.stats()).isEqualTo(during);
    assertThat(f.pool.stats().pagesCached()).isEqualTo(before.pagesCached());
    assertThat(f.pool.stats().bytesCached()).isEqualTo(before.bytesCached());
    assertThat(f.pool.pinCount(A)).isZero();
    assertThat(f.pool.fetch(A)).contains(a);
    assertThat(tx.isOpen()).isFalse();
    tx.abort(); // again: nothing to do
    tx.close();
  }

  @Test
  void completeInstallsTheCommittedPagesAndUnpins() {
    PageTransaction tx = f.pool.begin();
    tx.read(A);
    Page a2 = a.withPut(new byte[] {'c'}, new byte[] {3});
    tx.write(a2);
    String created = tx.newPageUri("db/t/");
    Page c = RandomPages.leaf(created, 2, 2);
    tx.write(c);
    Page b = RandomPages.leaf(B, 1, 1);
    tx.write(b); // written but not listed: the pool keeps what it had
    long calls = f.storageCalls();

    tx.complete(Map.of(A, "v-a2", created, "v-c"));

    assertThat(f.pool.fetchVersioned(A))
        .contains(new CachedPage(a2.withVersionStamp(a.versionStamp() + 1), "v-a2"));
    assertThat(f.pool.fetchVersioned(created))
        .contains(new CachedPage(c.withVersionStamp(c.versionStamp() + 1), "v-c"));
    assertThat(f.storageCalls()).isEqualTo(calls);
    assertThat(f.pool.isCached(B)).isFalse();
    assertThat(f.pool.pinCount(A)).isZero();
    assertThat(f.pool.pinCount(B)).isZero();
    assertThat(tx.isOpen()).isFalse();
    tx.close(); // nothing to do
  }

  @Test
  void completeRefusesPagesItDidNotWriteAndStaysOpen() {
    try (PageTransaction tx = f.pool.begin()) {
      tx.read(A);
      assertThatThrownBy(() -> tx.complete(Map.of(A, "v")))
          .isInstanceOf(IllegalArgumentException.class)
          .hasMessageContaining(A);
      assertThat(tx.isOpen()).isTrue();
      assertThat(f.pool.fetchVersioned(A)).contains(new CachedPage(a, aVersion));
    }
  }

  @Test
  void aFinishedTransactionRefusesEveryOperation() {
    PageTransaction done = f.pool.begin();
    done.complete(Map.of());
    PageTransaction aborted = f.pool.begin();
    aborted.abort();
    for (PageTransaction tx : new PageTransaction[] {done, aborted}) {
      String state = tx == done ? "completed" : "aborted";
      assertThatThrownBy(() -> tx.read(A))
          .isInstanceOf(IllegalStateException.class)
          .hasMessageContaining(state);
      assertThatThrownBy(() -> tx.write(a)).isInstanceOf(IllegalStateException.class);
      assertThatThrownBy(() -> tx.newPageUri("p")).isInstanceOf(IllegalStateException.class);
      assertThatThrownBy(tx::writes).isInstanceOf(IllegalStateException.class);
      assertThatThrownBy(tx::readSet).isInstanceOf(IllegalStateException.class);
      assertThatThrownBy(() -> tx.complete(Map.of())).isInstanceOf(IllegalStateException.class);
      tx.close();
    }
    assertThatThrownBy(done::abort).isInstanceOf(IllegalStateException.class);
  }

  @Test
  void refusesPagesLargerThanThePageSize(@Seed long seed) {
    try (PoolFixture small =
            new PoolFixture(seed, BufferPoolConfig.builder().pageSize(1024).build());
        PageTransaction tx = small.pool.begin()) {
      Page big = RandomPages.leaf(tx.newPageUri("db/"), 20, 100);
      assertThat(big.encodedSizeBound()).isGreaterThan(1024);
      assertThatThrownBy(() -> tx.write(big))
          .isInstanceOf(IllegalArgumentException.class)
          .hasMessageContaining("split");
      assertThat(tx.writes()).isEmpty();
    }
  }

  @Test
  void pinsEachReadPageOnceUntilTheEnd() {
    PageTransaction t1 = f.pool.begin();
    PageTransaction t2 = f.pool.begin();
    t1.read(A);
    t1.read(A);
    t2.read(A);
    assertThat(f.pool.pinCount(A)).isEqualTo(2);
    t1.close();
    assertThat(f.pool.pinCount(A)).isEqualTo(1);
    f.pool.invalidate(A); // a pinned page can still be invalidated
    assertThat(f.pool.isCached(A)).isFalse();
    t2.close();
    assertThat(f.pool.pinCount(A)).isZero();
    assertThat(f.pool.fetch(A)).contains(a);
  }

  /**
   * A page is named by several string objects (its parent's entry, its sibling's link): whichever
   * names it, the transaction reads it once, shows one version, and pins it once.
   */
  @Test
  void equalUrisOfOtherStringObjectsNameOneRead() {
    String other = new String(A.toCharArray());
    String third = new String(A.toCharArray());
    try (PageTransaction tx = f.pool.begin()) {
      Page first = tx.read(A).orElseThrow();
      for (int i = 0; i < 3; i++) {
        assertThat(tx.read(other).orElseThrow()).isSameAs(first);
        assertThat(tx.read(A).orElseThrow()).isSameAs(first);
        assertThat(tx.read(third).orElseThrow()).isSameAs(first);
      }
      assertThat(tx.readSet()).containsExactly(A);
      assertThat(tx.readVersions()).isEqualTo(Map.of(A, aVersion));
      assertThat(f.pool.pinCount(A)).isEqualTo(1);
    }
    assertThat(f.pool.pinCount(A)).isZero();
    assertThat(f.calls(STORAGE_GET)).isEqualTo(1);
  }
}
