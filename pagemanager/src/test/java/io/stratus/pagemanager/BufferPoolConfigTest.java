package io.stratus.pagemanager;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.stratus.BufferPoolStats;
import java.time.Duration;
import org.junit.jupiter.api.Test;

class BufferPoolConfigTest {
  @Test
  void defaultsAreThePapersSettings() {
    BufferPoolConfig d = BufferPoolConfig.defaults();
    assertThat(d.pageSize()).isEqualTo(100 * 1024);
    assertThat(d.ttl()).isEqualTo(Duration.ofSeconds(100));
    assertThat(d.maxBytes()).isEqualTo(256L * 1024 * 1024);
    assertThat(BufferPoolConfig.builder().build()).isEqualTo(d);
    assertThat(d.toBuilder().ttl(Duration.ZERO).build().ttl()).isZero();
  }

  @Test
  void refusesOutOfRangeSettings() {
    assertThatThrownBy(() -> BufferPoolConfig.builder().ttl(Duration.ofMillis(-1)).build())
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("ttl");
    assertThatThrownBy(() -> BufferPoolConfig.builder().maxBytes(0).build())
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("maxBytes");
    assertThatThrownBy(
            () -> BufferPoolConfig.builder().pageSize(BufferPoolConfig.MIN_PAGE_SIZE - 1).build())
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("pageSize");
    assertThatThrownBy(() -> BufferPoolConfig.builder().ttl(null))
        .isInstanceOf(NullPointerException.class);
  }

  @Test
  void statsHitRateIsZeroBeforeAnyFetch() {
    assertThat(new BufferPoolStats(0, 0, 0, 0, 0, 0, 0, 0).hitRate()).isZero();
    assertThat(new BufferPoolStats(3, 1, 0, 0, 0, 0, 0, 0).hitRate()).isEqualTo(0.75);
  }
}
