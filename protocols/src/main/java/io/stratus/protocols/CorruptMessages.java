package io.stratus.protocols;

import java.lang.System.Logger.Level;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.LongAdder;

/**
 * The damaged messages a handle's background work found in queues (a bad checksum, an unknown
 * format): each is counted and warned about once, the first time it is seen. It stays in its
 * queue, unapplied, for an operator to look at.
 *
 * <p>Why once: a damaged message stays where it is, so every later pass over its queue receives it
 * again; warning each time filled logs with the same line (hundreds for two passes) while no
 * counter showed it. Up to {@link #REMEMBERED} message ids are remembered; beyond that a message
 * may be warned about (and counted) again. Thread-safe.
 */
public final class CorruptMessages {
  /** Distinct damaged messages remembered per handle. */
  public static final int REMEMBERED = 10_000;

  private final System.Logger log;
  private final Set<String> seen = ConcurrentHashMap.newKeySet();
  private final LongAdder count = new LongAdder();

  /** Damaged messages warned about on {@code log}. */
  public CorruptMessages(System.Logger log) {
    this.log = Objects.requireNonNull(log, "log");
  }

  /**
   * Reports damaged message {@code messageId} of {@code queue}: counted and warned about (with
   * {@code why}) the first time; true then.
   */
  public boolean report(String queue, String messageId, String why) {
    if (seen.size() >= REMEMBERED) {
      seen.clear();
    }
    if (!seen.add(queue + " " + messageId)) {
      return false;
    }
    count.increment();
    log.log(Level.WARNING, "damaged message " + messageId + " in " + queue
        + " left in the queue, not applied: " + why);
    return true;
  }

  /** Distinct damaged messages reported so far. */
  public long count() {
    return count.sum();
  }
}
