package io.stratus.cloudapi;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.stratus.cloudapi.IndexQuery.Bound;
import io.stratus.cloudapi.testing.Seed;
import io.stratus.cloudapi.testing.SeedExtension;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/** The sortable encodings of index keys and the sort keys and tokens every index shares. */
@ExtendWith(SeedExtension.class)
class IndexKeysTest {

  @Test
  void encodedBytesSortAsTheBytesAndDecodeBack(@Seed long seed) {
    SplittableRandom random = new SplittableRandom(seed);
    List<byte[]> keys = new ArrayList<>();
    for (int i = 0; i < 200; i++) {
      byte[] k = new byte[random.nextInt(5)];
      for (int j = 0; j < k.length; j++) {
        k[j] = (byte) random.nextInt(256);
      }
      keys.add(k);
    }
    for (byte[] a : keys) {
      assertThat(IndexKeys.decode(IndexKeys.encode(a))).isEqualTo(a);
      for (byte[] b : keys) {
        assertThat(
                Integer.signum(IndexSortKeys.compareUtf8(IndexKeys.encode(a), IndexKeys.encode(b))))
            .as("%s vs %s", Arrays.toString(a), Arrays.toString(b))
            .isEqualTo(Integer.signum(Arrays.compareUnsigned(a, b)));
      }
    }
    assertThatThrownBy(() -> IndexKeys.decode("abc")).isInstanceOf(IllegalArgumentException.class);
  }

  @Test
  void encodedNumbersSortAsTheNumbers(@Seed long seed) {
    SplittableRandom random = new SplittableRandom(seed);
    long[] values = {
      Long.MIN_VALUE, -1, 0, 1, Long.MAX_VALUE, random.nextLong(), random.nextLong()
    };
    for (long a : values) {
      assertThat(IndexKeys.decodeLong(IndexKeys.encode(a))).isEqualTo(a);
      for (long b : values) {
        assertThat(Integer.signum(IndexKeys.encode(a).compareTo(IndexKeys.encode(b))))
            .isEqualTo(Long.signum(Long.compare(a, b)));
      }
    }
  }

  @Test
  void sortKeysSplitIntoValueAndNameAndTokensRoundTrip() {
    String sk = IndexSortKeys.sortKey("v\u00e9", "item-1");
    assertThat(IndexSortKeys.valueOf(sk)).isEqualTo("v\u00e9");
    assertThat(IndexSortKeys.itemNameOf(sk)).isEqualTo("item-1");
    assertThat(IndexSortKeys.fromToken(IndexSortKeys.token(sk))).isEqualTo(sk);
    assertThatThrownBy(() -> IndexSortKeys.fromToken("bm8tc2VwYXJhdG9y"))
        .isInstanceOf(BadRequestException.class)
        .hasMessageContaining("nextToken");
  }

  /** Regression: DynamoDB refuses an empty key in a condition; at least "" is no bound at all. */
  @Test
  void anInclusiveLowerBoundAtTheEmptyValueIsNoBound() {
    assertThat(IndexSortKeys.lowest(IndexQuery.on("a").from(Bound.inclusive("")))).isEmpty();
    assertThat(IndexSortKeys.lowest(IndexQuery.on("a").from(Bound.exclusive(""))))
        .contains("\u0002");
    assertThat(IndexSortKeys.isEmptyRange(IndexQuery.on("a").to(Bound.exclusive("")))).isTrue();
    assertThat(IndexSortKeys.isEmptyRange(IndexQuery.on("a").equalTo(""))).isFalse();
    assertThat(IndexSortKeys.highest(IndexQuery.on("a").to(Bound.exclusive("b")))).contains("b");
  }
}
