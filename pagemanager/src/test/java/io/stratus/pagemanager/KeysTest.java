package io.stratus.pagemanager;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Arrays;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/** The key order is unsigned lexicographic byte order, a prefix first, at every length. */
class KeysTest {

  @Test
  void ordersAsUnsignedBytesWithPrefixesFirst() {
    long seed = 20261129L;
    SplittableRandom random = new SplittableRandom(seed);
    for (int n = 0; n < 200_000; n++) {
      byte[] a = key(random);
      byte[] b = random.nextInt(4) == 0 ? withOneByteChanged(a, random) : key(random);
      int expected = Integer.signum(Arrays.compareUnsigned(a, b));
      assertThat(Integer.signum(Keys.compare(a, b)))
          .as("seed %d: %s vs %s", seed, Arrays.toString(a), Arrays.toString(b))
          .isEqualTo(expected);
      assertThat(Integer.signum(Keys.ORDER.compare(b, a))).isEqualTo(-expected);
    }
  }

  @Test
  void highBytesSortAfterLowOnesAndPrefixesBeforeTheirExtensions() {
    byte[] low = {0, 0, 0, 0, 0, 0, 0, 0, 0x7f};
    byte[] high = {0, 0, 0, 0, 0, 0, 0, 0, (byte) 0x80};
    byte[] prefix = {0, 0, 0, 0, 0, 0, 0, 0};
    byte[] signBit = {(byte) 0x80, 0, 0, 0, 0, 0, 0, 0};

    assertThat(Keys.compare(low, high)).isNegative();
    assertThat(Keys.compare(prefix, low)).isNegative();
    assertThat(Keys.compare(signBit, prefix)).isPositive();
    assertThat(Keys.compare(new byte[0], new byte[0])).isZero();
    assertThat(Keys.compare(high, high.clone())).isZero();
  }

  /** Mostly short, shared leading bytes (as encoded numbers have), some of every length to 20. */
  private static byte[] key(SplittableRandom random) {
    byte[] k = new byte[random.nextInt(21)];
    for (int i = 0; i < k.length; i++) {
      k[i] = (byte) (random.nextInt(3) == 0 ? random.nextInt(256) : random.nextInt(3) - 1);
    }
    return k;
  }

  private static byte[] withOneByteChanged(byte[] a, SplittableRandom random) {
    byte[] b = Arrays.copyOf(a, a.length + random.nextInt(-1, 2) + (a.length == 0 ? 1 : 0));
    if (b.length > 0) {
      b[random.nextInt(b.length)] = (byte) random.nextInt(256);
    }
    return b;
  }
}
