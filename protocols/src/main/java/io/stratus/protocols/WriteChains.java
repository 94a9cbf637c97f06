package io.stratus.protocols;

import io.stratus.protocols.log.LogRecord;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Monotonic writes (paper 001, section 5.2): per writer and per PU queue a chain of consecutive
 * counters 1, 2, 3, ... that the writer puts into its records ({@link LogRecord#clientCounter()});
 * the page a queue feeds (the data page, or the tree's root) records per writer the last counter
 * applied ({@code Page.clientCommitCounters}). A checkpoint then applies a writer's records in
 * counter order and exactly once:
 *
 * <ul>
 *   <li>counter &le; recorded: applied before (a duplicate, or a message redelivered because
 *       another record in it was deferred) — skipped, its message may be deleted;
 *   <li>counter = recorded + 1: the next one — applied, the recorded counter advances;
 *   <li>counter &gt; recorded + 1: a predecessor is missing (a short receive, reordering, a
 *       message hidden by another receive) — deferred with everything after it; its message
 *       stays in the queue.
 * </ul>
 *
 * <p>Why no "apply over an old gap" escape: a predecessor can be invisible for a long time (each
 * receive hides it for the lock timeout), and applying over it would drop it for good. Instead
 * the writer never leaves a gap: {@link BasicCommit} numbers and sends one commit at a time, gives
 * the counters back when nothing was sent, and resends when the outcome is unknown.
 *
 * <p>Why a chain per (writer, queue) and not per writer: the header of one page can only tell
 * which of the writer's records for that page were applied; records for other pages do not pass
 * through it. Why the writer is an incarnation ({@code <clientId>#<nonce>}): a restarted client
 * does not know its predecessor's last counters; a fresh chain is always right, at the price of
 * no order between the records of two incarnations. Header keys are {@code p:<writer>@<pageUri>}
 * for data pages (a split copies the header into the new right pages; the URI makes those copies
 * inert, and the checkpoint prunes them) and {@code t:<writer>} on tree roots. Records with
 * counter 0 (the basic protocol, records forwarded after a split) are outside any chain and
 * always applied. Stateless apart from what a call is given; thread-safe.
 */
final class WriteChains {
  private WriteChains() {}

  /** The records to apply and which were deferred, and the header counters after applying. */
  record Filtered(List<LogRecord> apply, List<LogRecord> deferred, Map<String, Long> counters) {}

  /** The header key of {@code writer}'s chain for a data page or a tree root. */
  static String key(String writer, boolean tree, String uri) {
    return tree ? "t:" + writer : "p:" + writer + "@" + uri;
  }

  /**
   * Filters {@code records} against {@code counters} (the page's header).
   *
   * @param tree whether the queue is a tree's (else a data page's, {@code uri})
   */
  static Filtered filter(List<LogRecord> records, Map<String, Long> counters, boolean tree,
      String uri) {
    Map<String, Long> out = new LinkedHashMap<>();
    for (Map.Entry<String, Long> e : counters.entrySet()) {
      // A split copied other pages' chains here: they say nothing about this page.
      if (tree || !e.getKey().startsWith("p:") || e.getKey().endsWith("@" + uri)) {
        out.put(e.getKey(), e.getValue());
      }
    }
    List<LogRecord> apply = new ArrayList<>();
    List<LogRecord> deferred = new ArrayList<>();
    Map<String, List<LogRecord>> byWriter = new HashMap<>();
    for (LogRecord r : records) {
      if (r.clientCounter() == 0) {
        apply.add(r);
      } else {
        byWriter.computeIfAbsent(r.clientId(), w -> new ArrayList<>()).add(r);
      }
    }
    for (Map.Entry<String, List<LogRecord>> w : byWriter.entrySet()) {
      String key = key(w.getKey(), tree, uri);
      long last = out.getOrDefault(key, 0L);
      List<LogRecord> chain = new ArrayList<>(w.getValue());
      chain.sort(Comparator.comparingLong(LogRecord::clientCounter));
      boolean blocked = false;
      for (LogRecord r : chain) {
        long c = r.clientCounter();
        if (c <= last) {
          continue; // applied before
        }
        if (!blocked && c == last + 1) {
          apply.add(r);
          last = c;
        } else {
          blocked = true; // everything after a gap waits too, so order is kept
          deferred.add(r);
        }
      }
      if (last > 0) {
        out.put(key, last);
      }
    }
    apply.sort(Checkpointer.COMMIT_ORDER);
    return new Filtered(apply, deferred, out);
  }
}
