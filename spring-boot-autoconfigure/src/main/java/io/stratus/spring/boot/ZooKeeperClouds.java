package io.stratus.spring.boot;

import io.stratus.InvalidConfigurationException;
import io.stratus.cloudapi.CloudServices;
import io.stratus.zookeeper.ZooKeeperCloud;
import io.stratus.zookeeper.ZooKeeperConfig;

/** Locks, counters and advanced queues for {@link StratusClouds}; loaded only with the adapter. */
final class ZooKeeperClouds {
  private ZooKeeperClouds() {}

  static void addTo(CloudServices.Builder b, StratusProperties.ZooKeeper zk) {
    ZooKeeperConfig config;
    try {
      ZooKeeperConfig.Builder builder = ZooKeeperConfig.builder(zk.getConnectString().trim());
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
