package io.stratus.protocols;

/**
 * What a recovery of other clients' ATOMIC queues did (the atomic protocol, paper 000, section
 * 5.1).
 *
 * @param queues ATOMIC queues of other clients found
 * @param winners committed transactions propagated to the PU queues and deleted
 * @param losers transactions without a commit record, older than the atomic timeout, deleted
 * @param waiting transactions left for a later pass (young, or not all messages visible)
 * @param skipped queues not recovered now (locked by another recoverer, or a cloud error)
 */
public record RecoverySummary(int queues, int winners, int losers, int waiting, int skipped) {
  /** Nothing done (a protocol without ATOMIC queues). */
  public static final RecoverySummary NONE = new RecoverySummary(0, 0, 0, 0, 0);
}
