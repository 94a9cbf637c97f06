package io.stratus.zookeeper;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.stratus.cloudapi.CloudLimits;
import io.stratus.cloudapi.ServiceUnavailableException;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/** The configuration's defaults and its validation, and connecting where no server is. */
class ZooKeeperConfigTest {
  @Test
  void defaultsAreTheDocumentedConstants() {
    ZooKeeperConfig c = ZooKeeperConfig.builder("localhost:2181").build();
    assertThat(c.sessionTimeout()).isEqualTo(ZooKeeperConfig.DEFAULT_SESSION_TIMEOUT);
    assertThat(c.connectionTimeout()).isEqualTo(ZooKeeperConfig.DEFAULT_CONNECTION_TIMEOUT);
    assertThat(c.retryBaseSleep()).isEqualTo(ZooKeeperConfig.DEFAULT_RETRY_BASE_SLEEP);
    assertThat(c.retryMaxRetries()).isEqualTo(ZooKeeperConfig.DEFAULT_RETRY_MAX_RETRIES);
    assertThat(c.namespace()).isEqualTo(ZooKeeperConfig.DEFAULT_NAMESPACE);
    assertThat(c.defaultLockTimeout()).isEqualTo(ZooKeeperConfig.DEFAULT_LOCK_TIMEOUT);
    assertThat(c.defaultCounterTimeout()).isEqualTo(ZooKeeperConfig.DEFAULT_COUNTER_TIMEOUT);
    assertThat(c.maxClockSkew()).isEqualTo(ZooKeeperConfig.DEFAULT_MAX_CLOCK_SKEW);
    assertThat(c.freshNamespaceRefusal())
        .as("longest default plus skew")
        .isEqualTo(Duration.ofSeconds(61));
    assertThat(c.limits().maxAdvancedMessageSize()).isEqualTo(ZooKeeperConfig.MAX_ZNODE_PAYLOAD);
    assertThat(c.limits().maxUriLength()).isEqualTo(CloudLimits.aws().maxUriLength());
  }

  @Test
  void invalidSettingsAreRejectedByBuild() {
    assertThatThrownBy(() -> ZooKeeperConfig.builder(" ").build())
        .isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> ZooKeeperConfig.builder("h:1").sessionTimeout(Duration.ZERO).build())
        .hasMessageContaining("sessionTimeout");
    assertThatThrownBy(() -> ZooKeeperConfig.builder("h:1").namespace("/abs").build())
        .hasMessageContaining("namespace");
    assertThatThrownBy(() -> ZooKeeperConfig.builder("h:1").namespace("a//b").build())
        .hasMessageContaining("namespace");
    assertThatThrownBy(() -> ZooKeeperConfig.builder("h:1").retry(Duration.ofMillis(1), -1).build())
        .hasMessageContaining("retryMaxRetries");
    assertThatThrownBy(
            () -> ZooKeeperConfig.builder("h:1").maxClockSkew(Duration.ofMillis(-1)).build())
        .hasMessageContaining("maxClockSkew");
    assertThatThrownBy(() -> ZooKeeperConfig.builder("h:1").clock(null).build())
        .isInstanceOf(NullPointerException.class);
    assertThat(ZooKeeperConfig.builder("h:1").namespace("prod/shop-1").build().namespace())
        .isEqualTo("prod/shop-1");
  }

  @Test
  void connectingWhereNoServerListensFailsAsUnavailable() throws Exception {
    int port;
    try (java.net.ServerSocket s = new java.net.ServerSocket(0)) {
      port = s.getLocalPort(); // free once closed
    }
    ZooKeeperConfig c =
        ZooKeeperConfig.builder("127.0.0.1:" + port)
            .connectionTimeout(Duration.ofMillis(500))
            .build();
    assertThatThrownBy(() -> ZooKeeperCloud.connect(c))
        .isInstanceOf(ServiceUnavailableException.class)
        .hasMessageContaining("127.0.0.1:" + port);
  }
}
