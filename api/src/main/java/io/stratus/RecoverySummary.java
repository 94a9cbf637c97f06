package io.stratus;

/**
 * What a recovery of other clients' ATOMIC queues did (the atomic protocol, paper 000, section
 * 5.1).
 *
 * @param queues ATOMIC queues of other clients found
 * @param winners committed transactions propagated to the PU queues and deleted
 * @param losers transactions without a commit record, older than the atomic timeout, deleted
 * @param waiting transactions left for a later pass (young, or not all messages visible)
 * @param skipped queues not recovered now (locked by another recoverer, or a cloud error)
 * @param incomplete of {@code waiting}, committed transactions some of whose log messages were not
 *     visible (hidden by another pass, or missed by short receives): never applied in part, they
 *     wait for a later pass
 */
public record RecoverySummary(
    int queues, int winners, int losers, int waiting, int skipped, int incomplete) {
  /** Nothing done (a protocol without ATOMIC queues). */
  public static final RecoverySummary NONE = new RecoverySummary(0, 0, 0, 0, 0, 0);

  /** Whether nothing was left: no queue skipped, no transaction waiting. */
  public boolean quiescent() {
    return skipped == 0 && waiting == 0;
  }
}
