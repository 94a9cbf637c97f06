package io.stratus.testkit;

/** How a transaction's commit ended, as the client saw it. */
public enum Outcome {
  /** The commit returned: every write must take effect (the protocol's durability promise). */
  OK,
  /** The commit failed and the protocol says nothing was applied: no write may ever be visible. */
  FAILED,
  /** The client cannot tell (a timeout, a crash part-way): the writes may or may not apply. */
  UNKNOWN
}
