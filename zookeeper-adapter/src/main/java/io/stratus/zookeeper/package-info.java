/**
 * The Cloud API's coordination services on Apache ZooKeeper (paper 000, sections 2.3.4-2.3.6 and
 * 6.4-6.6): the lock service with leases, advanced counters and advanced queues. The public API is
 * {@link io.stratus.zookeeper.ZooKeeperConfig} and {@link io.stratus.zookeeper.ZooKeeperCloud};
 * the module's README describes the znode layout, the lease arithmetic and what a restart means
 * on ZooKeeper.
 */
package io.stratus.zookeeper;
