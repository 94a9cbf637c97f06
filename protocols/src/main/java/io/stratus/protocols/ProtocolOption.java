package io.stratus.protocols;

/**
 * Groups of settings that only some commit protocols have ({@link ProtocolKind#accepts}); a
 * configuration that sets an option its protocol does not accept is refused when it is built,
 * rather than silently ignored.
 */
public enum ProtocolOption {
  /**
   * How log records are applied: checkpoint interval, lock timeout, propagation period, records
   * per checkpoint, write mode, checkpoint seed and executor, close timeout. The protocols that commit through
   * pending-update queues.
   */
  CHECKPOINTS,
  /** How many commits of a handle are numbered and sent at once: the monotonic-writes protocols. */
  WRITER_LANES,
  /** How long an uncommitted transaction in an atomic log is given: the atomic protocols. */
  ATOMIC_TIMEOUT,
  /**
   * The timeouts of the isolating protocols: transaction timeout, lease of record locks and
   * commit ids, snapshot reuse ({@link IsolationSettings}).
   */
  ISOLATION
}
