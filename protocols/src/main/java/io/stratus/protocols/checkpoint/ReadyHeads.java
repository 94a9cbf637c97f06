package io.stratus.protocols.checkpoint;

import io.stratus.protocols.log.LaneDependency;
import io.stratus.protocols.log.LogRecord;
import io.stratus.protocols.log.WriterIds;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.PriorityQueue;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.function.Predicate;
import org.jspecify.annotations.Nullable;

/**
 * The heads of the writer chains of one filter pass that may be applied next, earliest in commit
 * order first ({@link WriteChains#filter}).
 *
 * <p>A head is ready when it is next in its chain (its counter is one above the chain's header
 * entry), not blocked, and every lane dependency it names is applied. A head waiting for a
 * dependency is parked under the header key of the chain it waits for and offered again when that
 * chain advances, so no head is looked at more often than the chains it depends on advance. A head
 * after a gap or a blocked head stays out for the pass: nothing in the pass can change that.
 *
 * <p><b>Held records</b> ({@link WriteChains}): a chain holding counters back offers the first
 * held record that is not blocked by damage any more, in counter order; a held record absent from
 * the pass stops the chain (its page is unknown, and a later record may be for the same one).
 * Only while every held record is here and still blocked by damage does the chain go on after
 * them: its later records are for other pages then (one for the damaged page is blocked too).
 * The next record, when blocked by damage, is handed to {@link Hold}, which may let the chain
 * advance past it. A lane dependency on a counter at or above a held one is unmet.
 *
 * <p>Not thread-safe: one per pass.
 */
final class ReadyHeads {
  /** Lets a chain advance past its next record, blocked by damage; false when there is no room. */
  @FunctionalInterface
  interface Hold {
    boolean hold(String key, LogRecord record);
  }

  private final Map<String, ArrayDeque<LogRecord>> byWriter;
  private final Map<String, TreeSet<Long>> held;
  private final Map<String, TreeMap<Long, LogRecord>> heldHere;
  private final Predicate<LogRecord> damaged;
  private final Hold hold;
  private final Map<String, Long> counters;
  private final Map<Integer, Long> retired;
  private final Predicate<LogRecord> blocked;
  private final boolean tree;
  private final String uri;
  private final PriorityQueue<LogRecord> ready = new PriorityQueue<>(Checkpointer.COMMIT_ORDER);
  private final Map<String, List<String>> parked = new HashMap<>();
  private final Map<String, String> keys = new HashMap<>();

  /** Lane numbers above this are resolved without the cache (a damaged record's, say). */
  private static final int MAX_CACHED_LANE = 1024;

  /** Per writer, the header keys of its incarnation's lanes by lane number, made once. */
  private final Map<String, String[]> laneKeys = new HashMap<>();

  /**
   * @param byWriter each writer's records in counter order; the caller takes a head off its chain
   *     once it applies it
   * @param counters the header's chain counters as the pass advances them
   * @param retired per key hash of a chain retired from the page, the counter it had reached
   *     (where the chain resumes while it has no entry in {@code counters}: every record up to it
   *     was applied)
   * @param held per chain key, the counters it holds back, as the pass changes them
   * @param heldHere per writer, its records of held counters in the pass (one copy each); the
   *     caller removes those it applies
   * @param damaged records blocked by a corrupt page (among {@code blocked})
   */
  ReadyHeads(
      Map<String, ArrayDeque<LogRecord>> byWriter,
      Map<String, Long> counters,
      Map<Integer, Long> retired,
      Map<String, TreeSet<Long>> held,
      Map<String, TreeMap<Long, LogRecord>> heldHere,
      Predicate<LogRecord> blocked,
      Predicate<LogRecord> damaged,
      Hold hold,
      boolean tree,
      String uri) {
    this.byWriter = byWriter;
    this.held = held;
    this.heldHere = heldHere;
    this.damaged = damaged;
    this.hold = hold;
    this.counters = counters;
    this.retired = retired;
    this.blocked = blocked;
    this.tree = tree;
    this.uri = uri;
  }

  /** The header key of {@code writer}'s chain. */
  String keyOf(String writer) {
    return keys.computeIfAbsent(writer, w -> WriteChains.key(w, tree));
  }

  /** The header key of lane {@code lane} of {@code writer}'s incarnation. */
  private String laneKey(String writer, int lane) {
    if (lane >= MAX_CACHED_LANE) {
      return keyOf(WriterIds.sibling(writer, lane)); // not a lane number any handle uses
    }
    String[] lanes = laneKeys.get(writer);
    if (lanes == null || lanes.length <= lane) {
      String[] grown = new String[Math.max(lane + 1, 4)];
      if (lanes != null) {
        System.arraycopy(lanes, 0, grown, 0, lanes.length);
      }
      lanes = grown;
      laneKeys.put(writer, lanes);
    }
    String key = lanes[lane];
    if (key == null) {
      key = keyOf(WriterIds.sibling(writer, lane));
      lanes[lane] = key;
    }
    return key;
  }

  /**
   * Looks at {@code writer}'s head: drops what its chain's counter says was applied before (a
   * duplicate, or a redelivered message), then makes the head ready, parks it under an unmet
   * dependency, or leaves it out (after a gap, or blocked).
   */
  void offer(String writer) {
    String key = keyOf(writer);
    TreeSet<Long> holding = held.get(key);
    if (holding != null && !holding.isEmpty()) {
      TreeMap<Long, LogRecord> here = heldHere.getOrDefault(writer, new TreeMap<>());
      for (long c : holding) {
        LogRecord r = here.get(c);
        if (r == null) {
          return; // where it lands is unknown: what follows may land there too
        }
        if (!damaged.test(r)) {
          readyOrPark(writer, r);
          return;
        }
      }
    }
    ArrayDeque<LogRecord> chain = byWriter.get(writer);
    if (chain == null) {
      return; // no record of it in the pass
    }
    while (true) {
      long last = last(key);
      while (!chain.isEmpty() && chain.peekFirst().clientCounter() <= last) {
        chain.pollFirst();
      }
      LogRecord head = chain.peekFirst();
      if (head == null || head.clientCounter() != last + 1) {
        return;
      }
      if (damaged.test(head) && hold.hold(key, head)) {
        chain.pollFirst();
        heldHere.computeIfAbsent(writer, w -> new TreeMap<>()).put(head.clientCounter(), head);
        continue;
      }
      if (blocked.test(head)) {
        return;
      }
      readyOrPark(writer, head);
      return;
    }
  }

  /**
   * The last counter of chain {@code key} applied here: its entry's, or the one it retired at (a
   * lane dependency on a retired chain is met up to it, and the chain resumes there).
   */
  private long last(String key) {
    Long counter = counters.get(key);
    if (counter != null) {
      return counter;
    }
    Long gone = retired.get(key.hashCode());
    return gone != null
        ? gone
        : retired.getOrDefault(WriteChains.keyWithUri(key, uri).hashCode(), 0L);
  }

  private void readyOrPark(String writer, LogRecord head) {
    for (LaneDependency d : head.after()) {
      String sibling = laneKey(writer, d.lane());
      TreeSet<Long> holding = held.get(sibling);
      if (last(sibling) < d.counter()
          || (holding != null && !holding.isEmpty() && holding.first() <= d.counter())) {
        parked.computeIfAbsent(sibling, k -> new ArrayList<>(2)).add(writer);
        return;
      }
    }
    ready.add(head);
  }

  /** The earliest ready head in commit order, or null when none is. */
  @Nullable LogRecord poll() {
    return ready.poll();
  }

  /**
   * The caller applied {@code writer}'s head and advanced its chain's entry {@code key}: its next
   * head, and the heads parked under it, are looked at again.
   */
  void advanced(String writer, String key) {
    offer(writer);
    List<String> waiting = parked.remove(key);
    if (waiting != null) {
      for (String w : waiting) {
        offer(w);
      }
    }
  }
}
