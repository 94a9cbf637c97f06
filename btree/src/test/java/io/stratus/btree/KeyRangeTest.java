package io.stratus.btree;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** Bounds, prefixes and emptiness of key ranges in unsigned order. */
class KeyRangeTest {
  private static final byte FF = (byte) 0xFF;

  @Test
  void prefixRangesEndAtTheSuccessor() {
    KeyRange r = KeyRange.prefix(new byte[] {0x41, FF});
    assertThat(r.upperBound()).hasValueSatisfying(u -> assertThat(u).containsExactly(0x42));
    assertThat(r.contains(new byte[] {0x41, FF})).isTrue();
    assertThat(r.contains(new byte[] {0x41, FF, FF, 0x00})).isTrue();
    assertThat(r.contains(new byte[] {0x41, (byte) 0xFE})).isFalse();
    assertThat(r.contains(new byte[] {0x42})).isFalse();
    assertThat(KeyRange.prefix(new byte[] {FF, FF}).upperBound()).isEmpty();
    assertThat(KeyRange.prefix(new byte[0])).isEqualTo(KeyRange.atLeast(new byte[0]));
  }

  @Test
  void boundsAreUnsignedAndHonourInclusiveness() {
    byte[] a = {0x10};
    byte[] b = {(byte) 0x90};
    assertThat(KeyRange.closed(a, b).contains(new byte[] {(byte) 0x80})).isTrue();
    assertThat(KeyRange.closedOpen(a, b).contains(b)).isFalse();
    assertThat(KeyRange.openClosed(a, b).contains(a)).isFalse();
    assertThat(KeyRange.openClosed(a, b).contains(b)).isTrue();
    assertThat(KeyRange.atMost(a).contains(new byte[0])).isTrue();
    assertThat(KeyRange.greaterThan(a).contains(a)).isFalse();
    assertThat(KeyRange.all().contains(new byte[] {FF})).isTrue();
    assertThat(KeyRange.singleton(a).contains(a)).isTrue();
  }

  @Test
  void emptinessIsDetected() {
    byte[] a = {0x10};
    byte[] b = {0x20};
    assertThat(KeyRange.closed(b, a).isEmpty()).isTrue();
    assertThat(KeyRange.closedOpen(a, a).isEmpty()).isTrue();
    assertThat(KeyRange.singleton(a).isEmpty()).isFalse();
    assertThat(KeyRange.all().isEmpty()).isFalse();
  }

  @Test
  void boundsAreCopied() {
    byte[] a = {0x10};
    KeyRange r = KeyRange.atLeast(a);
    a[0] = 0x50;
    r.lowerBound().orElseThrow()[0] = 0x60;
    assertThat(r.lowerBound()).hasValueSatisfying(l -> assertThat(l).containsExactly(0x10));
  }
}
