package io.stratus.protocols;

/**
 * What a commit protocol promises, as {@link ProtocolKind#guarantees()} declares it; the protocol
 * contract suite derives each expectation from these. Every implementation of a kind MUST keep
 * every promise it declares.
 */
public enum Guarantee {
  /**
   * A commit that returned normally is never lost, whatever other clients do and whatever the
   * queues do (short, duplicate, reordered or empty receives), once checkpoints run.
   */
  DURABLE,
  /** Once every queue is checkpointed and caches expired, all clients read the same state. */
  CONVERGES,
  /** One client's writes of a key are applied in the order it committed them. */
  MONOTONIC_WRITES,
  /** A client reads its own committed writes at once, before any checkpoint. */
  READ_YOUR_WRITES,
  /** A client never reads an older version of a page than one it has read. */
  MONOTONIC_READS,
  /** All or none of a committed transaction's writes are applied, even if its client dies. */
  ATOMIC
}
