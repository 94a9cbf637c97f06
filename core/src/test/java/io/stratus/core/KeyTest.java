package io.stratus.core;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.stratus.InvalidRequestException;
import io.stratus.cloudapi.testing.Seed;
import io.stratus.cloudapi.testing.SeedExtension;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Random;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/** The key encodings sort as their values do, and decode back to them. */
@ExtendWith(SeedExtension.class)
class KeyTest {

  /** Code-point order: what UTF-8 byte order gives (String.compareTo is UTF-16 order). */
  private static final Comparator<String> CODE_POINTS =
      (a, b) -> {
        int[] x = a.codePoints().toArray();
        int[] y = b.codePoints().toArray();
        return java.util.Arrays.compare(x, y);
      };

  @Test
  void longsSortAsNumbers(@Seed long seed) {
    Random r = new Random(seed);
    List<Long> values = new ArrayList<>(List.of(Long.MIN_VALUE, Long.MAX_VALUE, 0L, -1L, 1L));
    for (int i = 0; i < 2000; i++) {
      values.add(i % 2 == 0 ? r.nextLong() : (long) r.nextInt(200) - 100);
    }
    for (int i = 0; i < values.size() - 1; i++) {
      long a = values.get(i);
      long b = values.get(i + 1);
      assertThat(Integer.signum(Key.of(a).compareTo(Key.of(b))))
          .as("%d vs %d", a, b)
          .isEqualTo(Integer.signum(Long.compare(a, b)));
      assertThat(Key.of(a).decoder().nextLong()).isEqualTo(a);
    }
  }

  @Test
  void intsSortAsNumbers(@Seed long seed) {
    Random r = new Random(seed);
    for (int i = 0; i < 2000; i++) {
      int a = i == 0 ? Integer.MIN_VALUE : r.nextInt();
      int b = i == 0 ? Integer.MAX_VALUE : (i % 3 == 0 ? a : r.nextInt());
      assertThat(Integer.signum(Key.ofInt(a).compareTo(Key.ofInt(b))))
          .isEqualTo(Integer.signum(Integer.compare(a, b)));
      assertThat(Key.ofInt(a).decoder().nextInt()).isEqualTo(a);
      assertThat(Key.ofInt(a).length()).isEqualTo(4);
    }
  }

  @Test
  void stringsSortByCodePointsIncludingNulsAndUnicode(@Seed long seed) {
    Random r = new Random(seed);
    List<String> values =
        new ArrayList<>(
            List.of(
                "",
                "\0",
                "\0\0",
                "a",
                "a\0",
                "a\0b",
                "ab",
                "\uffff",
                "\ud83d\ude00",
                "\u00ff",
                "\u0001"));
    for (int i = 0; i < 1500; i++) {
      values.add(randomString(r));
    }
    for (String a : values) {
      String b = values.get(r.nextInt(values.size()));
      assertThat(Integer.signum(Key.of(a).compareTo(Key.of(b))))
          .as("%s vs %s", a, b)
          .isEqualTo(Integer.signum(CODE_POINTS.compare(a, b)));
      assertThat(Key.of(a).decoder().nextString()).isEqualTo(a);
    }
  }

  @Test
  void uuidsSortAsUuids(@Seed long seed) {
    Random r = new Random(seed);
    for (int i = 0; i < 1000; i++) {
      UUID a = new UUID(r.nextLong(), r.nextLong());
      UUID b =
          i % 4 == 0
              ? new UUID(a.getMostSignificantBits(), r.nextLong())
              : new UUID(r.nextLong(), r.nextLong());
      assertThat(Integer.signum(Key.of(a).compareTo(Key.of(b))))
          .isEqualTo(Integer.signum(a.compareTo(b)));
      assertThat(Key.of(a).decoder().nextUuid()).isEqualTo(a);
    }
  }

  @Test
  void compositesSortByFirstComponentThenNext(@Seed long seed) {
    Random r = new Random(seed);
    record Pair(String s, long n) {}
    Comparator<Pair> natural =
        Comparator.comparing(Pair::s, CODE_POINTS).thenComparingLong(Pair::n);
    List<Pair> pairs = new ArrayList<>();
    for (int i = 0; i < 1000; i++) {
      String s =
          i % 3 == 0 && !pairs.isEmpty() ? pairs.get(r.nextInt(pairs.size())).s() : randomString(r);
      pairs.add(new Pair(s, r.nextInt(5) - 2));
    }
    for (Pair a : pairs) {
      Pair b = pairs.get(r.nextInt(pairs.size()));
      Key ka = Key.composite(Key.of(a.s()), Key.of(a.n()));
      Key kb = Key.builder().add(b.s()).add(b.n()).build();
      assertThat(Integer.signum(ka.compareTo(kb)))
          .as("%s vs %s", a, b)
          .isEqualTo(Integer.signum(natural.compare(a, b)));
      KeyDecoder d = ka.decoder();
      assertThat(d.nextString()).isEqualTo(a.s());
      assertThat(d.nextLong()).isEqualTo(a.n());
      assertThat(d.hasRemaining()).isFalse();
    }
  }

  @Test
  void escapedBytesComponentsRoundTripAndSortBeforeExtensions() {
    byte[] raw = {0, 1, (byte) 0xFF, 0};
    Key k = Key.builder().addBytes(raw).add(7L).addRaw(new byte[] {9, 9}).build();
    KeyDecoder d = k.decoder();
    assertThat(d.nextBytes()).containsExactly(raw);
    assertThat(d.nextLong()).isEqualTo(7L);
    assertThat(d.rest()).containsExactly(9, 9);
    assertThat(Key.builder().addBytes(new byte[] {1}).build())
        .isLessThan(Key.builder().addBytes(new byte[] {1, 0}).build());
  }

  @Test
  void valueSemanticsAndHex() {
    assertThat(Key.ofBytes(new byte[] {1, (byte) 0xAB}))
        .isEqualTo(Key.ofBytes(new byte[] {1, (byte) 0xAB}));
    assertThat(Key.ofBytes(new byte[] {1, (byte) 0xAB}).hashCode())
        .isEqualTo(Key.ofBytes(new byte[] {1, (byte) 0xAB}).hashCode());
    assertThat(Key.ofBytes(new byte[] {1, (byte) 0xAB})).hasToString("01ab");
    assertThat(Key.ofBytes(new byte[] {(byte) 0x80})).isGreaterThan(Key.ofBytes(new byte[] {1}));
    byte[] b = {1, 2};
    Key k = Key.ofBytes(b);
    b[0] = 9;
    assertThat(k.toBytes()).containsExactly(1, 2);
    assertThat(Key.empty()).isLessThan(Key.ofBytes(new byte[] {0}));
  }

  @Test
  void anIntLiteralAndALongMakeTheSameKey() {
    assertThat(Key.of(1)).isEqualTo(Key.of(1L));
    assertThat(Key.builder().add(7).build()).isEqualTo(Key.of(7L));
    assertThat(Key.ofInt(1)).isNotEqualTo(Key.of(1L));
    assertThat(Key.of(-3).decoder().nextLong()).isEqualTo(-3L);
  }

  @Test
  void decodingTheWrongLayoutFails() {
    assertThatThrownBy(() -> Key.ofInt(5).decoder().nextLong())
        .isInstanceOf(InvalidRequestException.class);
    assertThatThrownBy(() -> Key.ofBytes(new byte[] {'a', 0, 7}).decoder().nextString())
        .isInstanceOf(InvalidRequestException.class);
  }

  @Test
  void rangesContainWhatTheySay() {
    Key a = Key.of("a");
    Key b = Key.of("b");
    assertThat(KeyRange.closed(a, b).contains(b)).isTrue();
    assertThat(KeyRange.halfOpen(a, b).contains(b)).isFalse();
    assertThat(KeyRange.of(a, false, null, false).contains(a)).isFalse();
    assertThat(KeyRange.all().contains(Key.empty())).isTrue();
    KeyRange p = KeyRange.prefix(Key.builder().add("ab").build());
    assertThat(p.contains(Key.builder().add("ab").add(3L).build())).isTrue();
    assertThat(p.contains(Key.builder().add("abc").add(3L).build())).isFalse();
    assertThat(
            KeyRange.prefix(Key.ofBytes(new byte[] {1, (byte) 0xFF}))
                .contains(Key.ofBytes(new byte[] {2})))
        .isFalse();
  }

  private static String randomString(Random r) {
    StringBuilder sb = new StringBuilder();
    int n = r.nextInt(6);
    for (int i = 0; i < n; i++) {
      switch (r.nextInt(6)) {
        case 0 -> sb.append('\0');
        case 1 -> sb.appendCodePoint(0x1F600 + r.nextInt(40)); // supplementary
        case 2 -> sb.append((char) (0xE000 + r.nextInt(0x1FFF))); // above surrogates
        case 3 -> sb.append((char) (0x80 + r.nextInt(0x700)));
        default -> sb.append((char) ('a' + r.nextInt(3)));
      }
    }
    return sb.toString();
  }
}
