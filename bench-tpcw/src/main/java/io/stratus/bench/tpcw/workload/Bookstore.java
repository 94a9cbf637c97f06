package io.stratus.bench.tpcw.workload;

/**
 * The TPC-W bookstore as the remote-browser emulator drives it: it opens browser sessions and
 * executes web interactions for them against a Stratus database.
 *
 * <p>Implementations MUST be thread-safe: many emulated browsers call {@link #execute} at once,
 * each with its own session. An interaction MUST run as one or more Stratus transactions through
 * the public API only, MUST retry a commit that failed with a retryable {@code
 * CommitFailedException} (counting it in {@link InteractionOutcome#retries()}), and MUST let every
 * other exception propagate: the emulator counts it as an error of that interaction.
 */
public interface Bookstore {
  /** A new browser session whose random choices come from {@code seed}. */
  BrowserSession newSession(long seed);

  /** Executes one interaction for the session and reports what it did. */
  InteractionOutcome execute(Interaction interaction, BrowserSession session);
}
