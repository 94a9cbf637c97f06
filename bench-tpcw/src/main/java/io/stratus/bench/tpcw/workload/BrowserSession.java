package io.stratus.bench.tpcw.workload;

/**
 * The state one emulated browser carries between interactions (its customer, shopping cart, the
 * item it last looked at, its last search), created by {@link Bookstore#newSession(long)} and used
 * by one emulated browser thread at a time. What it holds is the bookstore's business; the emulator
 * only calls {@link #restart()} when a user session ends.
 */
public interface BrowserSession {
  /** Ends the user session: the next interaction starts as a new visitor (TPC-W clause 5.3.1.2). */
  void restart();
}
