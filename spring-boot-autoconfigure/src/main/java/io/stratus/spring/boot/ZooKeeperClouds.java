package io.stratus.spring.boot;

import io.stratus.InvalidConfigurationException;
import io.stratus.cloudapi.CloudServices;
import io.stratus.zookeeper.ZooKeeperCloud;
import io.stratus.zookeeper.ZooKeeperConfig;

/** Locks, counters and advanced queues for {@link StratusClouds}; loaded only with the adapter. */
final class ZooKeeperClouds {
  private ZooKeeperClouds() {}

  /**
   * Adds the services of the ensemble {@code connectString} (the setting of {@code zk}, checked to
   * be there) to {@code b}.
   */
  static void addTo(CloudServices.Builder b, StratusProperties.ZooKeeper zk, String connectString) {
    ZooKeeperConfig config;
    try {
      ZooKeeperConfig.Builder builder = ZooKeeperConfig.builder(connectString.trim());
      if (zk.getNamespace() != null) {
        builder.namespace(zk.getNamespace());
      }
      if (zk.getFreshNamespaceRefusal() != null) {
        builder.freshNamespaceRefusal(zk.getFreshNamespaceRefusal());
      }
      config = builder.build();
    } catch (IllegalArgumentException e) {
      throw new InvalidConfigurationException("stratus.cloud.zookeeper: " + e.getMessage());
    }
    ZooKeeperCloud.connect(config).addTo(b);
  }
}
