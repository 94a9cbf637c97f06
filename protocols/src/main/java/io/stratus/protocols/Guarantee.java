package io.stratus.protocols;

/**
 * A promise a commit protocol makes to its clients, as a MUST statement about every execution of
 * it (crashes, lost replies and the weak behaviour the Cloud API allows included). {@link
 * ProtocolKind#guarantees()} says which a protocol makes; the protocol contract suite derives its
 * expectations from that set, so a protocol is tested against exactly what it declares.
 *
 * <p>"Quiescence" below means: no commits in flight, every pending-update and ATOMIC queue
 * checkpointed or recovered by some live client, and every client's cache past its TTL.
 */
public enum Guarantee {
  /**
   * Durability: an update whose commit returned MUST take effect and MUST NOT be lost to a
   * concurrent writer's page or to the crash of any client (the writer's or a checkpointer's);
   * after quiescence no client sees the state the update replaced. A delete is such an update: a
   * create of the key committed before it MUST NOT bring the key back, however late it arrives.
   */
  DURABLE,
  /**
   * Eventual consistency: after quiescence all clients MUST see the same value (or absence) for
   * every key.
   */
  CONVERGES,
  /**
   * Monotonic writes: two updates of one key by one handle, the second begun after the first
   * completed (on any of the handle's request threads), MUST be applied in that order and each
   * exactly once — a redelivered, reordered or late older update never replaces a newer one.
   */
  MONOTONIC_WRITES,
  /**
   * Read-your-writes: once a handle's commit returned, its later transactions MUST see that
   * commit's updates (or newer values), before any checkpoint applied them.
   */
  READ_YOUR_WRITES,
  /**
   * Monotonic reads: once a handle read a value of a key, its later transactions MUST NOT read an
   * older value of that key, even from eventually consistent storage.
   */
  MONOTONIC_READS,
  /**
   * Atomicity: a transaction's updates MUST take effect all or none — a commit that failed, or
   * whose client died before it became durable, leaves none; one that returned, or that recovery
   * decided as committed, leaves all.
   */
  ATOMIC,
  /**
   * Snapshot isolation (generalized: the snapshot may be older than the newest commit): every
   * transaction MUST read one consistent snapshot of committed transactions — all of a
   * transaction's changes or none, and with a transaction's changes those of every transaction
   * committed before it — and two concurrent transactions MUST NOT both commit a change of one
   * key (first committer wins). Forbids the anomalies G0, G1a, G1b, G1c, G-single (read skew) and
   * lost updates; allows write skew (G2).
   */
  SNAPSHOT_ISOLATION,
  /**
   * Serializability: every execution of committed transactions MUST be equivalent to some serial
   * execution of them; no dependency cycle of any kind (G2 included: no write skew, no phantom).
   */
  SERIALIZABLE
}
