package io.stratus.bench.tpcw.harness;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** The warm pass ends when the compiler has been quiet for a second, after at least 2 s. */
class JitSettlingTest {

  @Test
  void settlesOnceTheCompilerWasQuietForASecondAfterTwoSeconds() {
    JitSettling s = new JitSettling(JitSettling.WARM_PASS_MIN_MILLIS);
    long compiled = 0;
    // 400 ms of compiling per second for 3 s, read every 250 ms
    for (long t = 0; t <= 3_000; t += 250) {
      assertThat(s.settledAfter(t, compiled)).as("busy at %d ms", t).isFalse();
      compiled += 100;
    }
    // then 10 ms per 250 ms: 40 ms per second, under 5%
    boolean settled = false;
    long at = -1;
    for (long t = 3_250; t <= 6_000 && !settled; t += 250) {
      compiled += 10;
      settled = s.settledAfter(t, compiled);
      at = t;
    }
    assertThat(settled).isTrue();
    assertThat(at).as("a whole quiet second after the busy readings").isEqualTo(4_250);
  }

  @Test
  void aQuietCompilerStillWarmsForTwoSeconds() {
    JitSettling s = new JitSettling(JitSettling.WARM_PASS_MIN_MILLIS);
    assertThat(s.settledAfter(0, 500)).isFalse();
    assertThat(s.settledAfter(1_000, 500)).as("quiet, but only 1 s in").isFalse();
    assertThat(s.settledAfter(1_999, 500)).isFalse();
    assertThat(s.settledAfter(2_000, 500)).isTrue();
  }

  @Test
  void withoutAMinimumAQuietSecondIsEnough() {
    JitSettling s = new JitSettling(0);
    assertThat(s.settledAfter(0, 900)).isFalse();
    assertThat(s.settledAfter(500, 910)).isFalse();
    assertThat(s.settledAfter(1_000, 930)).isTrue();
  }

  @Test
  void anUnknownCompilerNeverSettles() {
    JitSettling s = new JitSettling(JitSettling.WARM_PASS_MIN_MILLIS);
    for (long t = 0; t <= 60_000; t += 250) {
      assertThat(s.settledAfter(t, -1)).isFalse();
    }
  }
}
