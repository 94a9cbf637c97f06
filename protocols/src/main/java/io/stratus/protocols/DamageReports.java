package io.stratus.protocols;

import java.lang.System.Logger.Level;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.LongAdder;

/**
 * What one handle found damaged in the cloud: pages that fail their integrity check, log messages
 * that cannot be decoded (a bad checksum, an unknown format), and those of them it set aside into
 * the dead-letter area ({@link DeadLetters}). Each damaged object is counted and warned about
 * once, the first time this handle meets it; {@code DatabaseStats} shows the counts.
 *
 * <p>Why once: a damaged object stays damaged, so every later pass meets it again; warning each
 * time filled logs with the same line (hundreds for two checkpoint passes) while no counter
 * showed it. Why a warning at all: a damaged page blocks the records of its queue and a damaged
 * message blocks what its writer committed after it; both keep committed data invisible until an
 * operator acts. Up to {@link #REMEMBERED} objects per kind are remembered; beyond that one may be
 * warned about (and counted) again. Thread-safe.
 */
public final class DamageReports {
  /** Distinct damaged objects remembered per kind. */
  public static final int REMEMBERED = 10_000;

  private static final System.Logger LOG = System.getLogger(DamageReports.class.getName());

  private final Once pages = new Once();
  private final Once messages = new Once();
  private final LongAdder deadLettered = new LongAdder();

  /** No damage reported yet. */
  public DamageReports() {}

  /**
   * Reports that page {@code uri} failed its integrity check ({@code why}) and blocks the records
   * of its queue; true the first time.
   */
  public boolean corruptPage(String uri, String why) {
    if (!pages.first(uri)) {
      return false;
    }
    LOG.log(
        Level.WARNING,
        "page "
            + uri
            + " is corrupt; the records that would change it wait in"
            + " their queue until it is repaired (the verifier lists such pages): "
            + why);
    return true;
  }

  /**
   * Reports damaged message {@code messageId} of {@code queue}, left where it is and not applied;
   * true the first time.
   */
  public boolean corruptMessage(String queue, String messageId, String why) {
    if (!messages.first(queue + " " + messageId)) {
      return false;
    }
    LOG.log(
        Level.WARNING,
        "damaged message "
            + messageId
            + " in "
            + queue
            + " left in the queue, not applied: "
            + why);
    return true;
  }

  /** Notes that damaged message {@code messageId} of {@code queue} was moved to {@code item}. */
  public void setAside(String queue, String messageId, String item, String why) {
    messages.first(queue + " " + messageId);
    deadLettered.increment();
    LOG.log(
        Level.WARNING,
        "damaged message "
            + messageId
            + " of "
            + queue
            + " set aside as "
            + item
            + " (inspect, replay or discard it in the dead-letter area): "
            + why);
  }

  /** Distinct corrupt pages reported so far. */
  public long corruptPages() {
    return pages.count.sum();
  }

  /** Distinct damaged messages reported so far, set aside or not. */
  public long corruptMessages() {
    return messages.count.sum();
  }

  /** Damaged messages this handle moved into the dead-letter area. */
  public long deadLettered() {
    return deadLettered.sum();
  }

  /** Remembers what was reported, and counts each first report. */
  private static final class Once {
    final Set<String> seen = ConcurrentHashMap.newKeySet();
    final LongAdder count = new LongAdder();

    boolean first(String id) {
      if (seen.size() >= REMEMBERED) {
        seen.clear();
      }
      if (!seen.add(id)) {
        return false;
      }
      count.increment();
      return true;
    }
  }
}
