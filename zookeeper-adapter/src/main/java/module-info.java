/**
 * The Cloud API's coordination services on Apache ZooKeeper: locks, counters and advanced queues,
 * configured by {@link io.stratus.zookeeper.ZooKeeperConfig}. No ZooKeeper or Curator type is in
 * its API.
 */
// ZooKeeper and Curator name no module: their modules are named after their jars.
@SuppressWarnings("requires-automatic")
module io.stratus.zookeeper {
  requires transitive io.stratus.cloudapi;
  requires curator.client;
  requires curator.framework;
  requires zookeeper;

  exports io.stratus.zookeeper;
}
