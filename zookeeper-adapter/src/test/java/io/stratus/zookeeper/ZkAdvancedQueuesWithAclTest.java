package io.stratus.zookeeper;

/**
 * Every test of {@link ZkAdvancedQueuesContractTest} (the Cloud API contract and the adapter's own) with
 * digest credentials, a read-only extra identity, and a check after each test that every znode
 * the adapter created admits exactly those identities.
 */
class ZkAdvancedQueuesWithAclTest extends ZkAdvancedQueuesContractTest
    implements ZkAclTesting.Secured {}
