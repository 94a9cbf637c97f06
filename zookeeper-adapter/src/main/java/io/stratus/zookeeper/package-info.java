/**
 * The Cloud API's coordination services on Apache ZooKeeper: locks, advanced counters and advanced queues. Built in the real-cloud issue.
 */
package io.stratus.zookeeper;
