package io.stratus.protocols;

import io.stratus.protocols.log.LaneDependency;
import io.stratus.protocols.log.LogRecord;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Predicate;

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
 * <p>A writer is one lane of a handle's incarnation ({@link WriterLanes}): a record may also name
 * counters of sibling lanes in the same queue that must be applied first ({@link
 * io.stratus.protocols.log.LaneDependency}); until they are, it waits like a record after a gap.
 * The records to apply come out in an order that respects both (chains and dependencies), the
 * earliest commit first among those ready; unnumbered records (the basic protocol) come first, in
 * commit order.
 *
 * <p>Why no "apply over an old gap" escape: a predecessor can be invisible for a long time (each
 * receive hides it for the lock timeout), and applying over it would drop it for good. Instead
 * the writer never leaves a gap: {@link BasicCommit} numbers and sends one commit per lane at a
 * time, gives the counters back when nothing was sent, and resends when the outcome is unknown.
 *
 * <p>Why a chain per (writer, queue) and not per writer: the header of one page can only tell
 * which of the writer's records for that page were applied; records for other pages do not pass
 * through it. Why the writer is an incarnation ({@code <clientId>#<nonce>}): a restarted client
 * does not know its predecessor's last counters; a fresh chain is always right, at the price of
 * no order between the records of two incarnations. Header keys are {@code p:<writer>@<pageUri>}
 * for data pages (a split copies the header into the new right pages; the URI makes those copies
 * inert, and the checkpoint prunes them) and {@code t:<writer>} on tree roots. Records with
 * counter 0 (the basic protocol) are outside any chain and
 * always applied. Stateless apart from what a call is given; thread-safe.
 */
final class WriteChains {
  private WriteChains() {}

  /** The records to apply and which were deferred, and the header counters after applying. */
  record Filtered(List<LogRecord> apply, List<LogRecord> deferred, Map<String, Long> counters) {}

  /** Whether every lane dependency of {@code r} is applied according to {@code counters}. */
  private static boolean dependenciesMet(LogRecord r, Map<String, Long> counters, boolean tree,
      String uri) {
    for (LaneDependency d : r.after()) {
      String sibling = key(WriterLanes.siblingWriter(r.clientId(), d.lane()), tree, uri);
      if (counters.getOrDefault(sibling, 0L) < d.counter()) {
        return false;
      }
    }
    return true;
  }

  /** The header key of {@code writer}'s chain for a data page or a tree root. */
  static String key(String writer, boolean tree, String uri) {
    return tree ? "t:" + writer : "p:" + writer + "@" + uri;
  }

  /**
   * Filters {@code records} against {@code counters} (the page's header).
   *
   * @param tree whether the queue is a tree's (else a data page's, {@code uri})
   * @param blocked records that cannot be applied now (their page's lock was not available): they
   *     wait, like records after a gap
   */
  static Filtered filter(List<LogRecord> records, Map<String, Long> counters, boolean tree,
      String uri, Predicate<LogRecord> blocked) {
    Map<String, Long> out = new LinkedHashMap<>();
    for (Map.Entry<String, Long> e : counters.entrySet()) {
      // A split copied other pages' chains here: they say nothing about this page.
      if (tree || !e.getKey().startsWith("p:") || e.getKey().endsWith("@" + uri)) {
        out.put(e.getKey(), e.getValue());
      }
    }
    List<LogRecord> unchained = new ArrayList<>();
    Map<String, ArrayDeque<LogRecord>> byWriter = new LinkedHashMap<>();
    List<LogRecord> deferred = new ArrayList<>();
    for (LogRecord r : records) {
      if (r.clientCounter() == 0) {
        (blocked.test(r) ? deferred : unchained).add(r);
      } else {
        byWriter.computeIfAbsent(r.clientId(), w -> new ArrayDeque<>()).add(r);
      }
    }
    for (Map.Entry<String, ArrayDeque<LogRecord>> w : byWriter.entrySet()) {
      List<LogRecord> chain = new ArrayList<>(w.getValue());
      chain.sort(Comparator.comparingLong(LogRecord::clientCounter));
      w.setValue(new ArrayDeque<>(chain));
    }
    // Repeatedly take, among the records that are next in their chain and whose lane
    // dependencies are applied, the earliest in commit order: every chain stays in counter order,
    // every dependency is applied first, and independent writers interleave by commit time.
    List<LogRecord> chained = new ArrayList<>();
    while (true) {
      LogRecord best = null;
      for (Map.Entry<String, ArrayDeque<LogRecord>> w : byWriter.entrySet()) {
        String key = key(w.getKey(), tree, uri);
        long last = out.getOrDefault(key, 0L);
        ArrayDeque<LogRecord> chain = w.getValue();
        while (!chain.isEmpty() && chain.peekFirst().clientCounter() <= last) {
          chain.pollFirst(); // applied before (a duplicate, or a redelivered message)
        }
        LogRecord head = chain.peekFirst();
        if (head != null && head.clientCounter() == last + 1 && !blocked.test(head)
            && dependenciesMet(head, out, tree, uri)
            && (best == null || Checkpointer.COMMIT_ORDER.compare(head, best) < 0)) {
          best = head;
        }
      }
      if (best == null) {
        break;
      }
      byWriter.get(best.clientId()).pollFirst();
      out.put(key(best.clientId(), tree, uri), best.clientCounter());
      chained.add(best);
    }
    // What is left follows a gap or an unmet dependency: it waits, with the rest of its chain.
    for (ArrayDeque<LogRecord> chain : byWriter.values()) {
      deferred.addAll(chain);
    }
    unchained.sort(Checkpointer.COMMIT_ORDER);
    List<LogRecord> apply = new ArrayList<>(unchained.size() + chained.size());
    apply.addAll(unchained);
    apply.addAll(chained); // in the order chosen above, not re-sorted
    return new Filtered(apply, deferred, out);
  }
}
