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
  // ZooKeeper and Curator log through SLF4J, but as automatic modules they cannot require it, and
  // SLF4J's jar is a named module, which the JVM resolves only when some module requires it.
  requires org.slf4j;

  exports io.stratus.zookeeper;
}
