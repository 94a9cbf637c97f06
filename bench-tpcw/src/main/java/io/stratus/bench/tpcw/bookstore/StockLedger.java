package io.stratus.bench.tpcw.bookstore;

import io.stratus.bench.tpcw.bookstore.Work.StockChange;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.LongToIntFunction;

/**
 * The stock changes of every Buy Confirm, for the stock audit ({@link StockAudit}): per item, the
 * sum of the changes (new stock minus the stock read, the +21 restock included) of the
 * interactions that committed, and separately the changes of those whose commit outcome was
 * unknown.
 *
 * <p>Thread-safe: concurrent maps of adders and queues; {@link #audit} may run while changes are
 * still recorded, but only an audit after the last commit is exact.
 */
final class StockLedger {
  /** Beyond this many unknown-outcome changes of one item, only their range is checked. */
  static final int MAX_SUBSETS_OF = 16;

  private final ConcurrentHashMap<Long, LongAdder> committed = new ConcurrentHashMap<>();
  private final ConcurrentHashMap<Long, ConcurrentLinkedQueue<Integer>> uncertain =
      new ConcurrentHashMap<>();
  private final LongAdder uncertainBuys = new LongAdder();

  /** Records the stock changes of an interaction that committed. */
  void committed(List<StockChange> changes) {
    for (StockChange c : changes) {
      committed.computeIfAbsent(c.itemId(), id -> new LongAdder()).add(c.delta());
    }
  }

  /** Records the stock changes of an interaction whose commit outcome is unknown. */
  void uncertain(List<StockChange> changes) {
    if (changes.isEmpty()) {
      return;
    }
    uncertainBuys.increment();
    for (StockChange c : changes) {
      uncertain.computeIfAbsent(c.itemId(), id -> new ConcurrentLinkedQueue<>()).add(c.delta());
    }
  }

  /** Writes the changes recorded so far to {@code out}, for {@link #addFrom} in another process. */
  void writeTo(DataOutputStream out) throws IOException {
    Map<Long, Long> sums = new java.util.TreeMap<>();
    committed.forEach((id, sum) -> sums.put(id, sum.sum()));
    out.writeInt(sums.size());
    for (Map.Entry<Long, Long> e : sums.entrySet()) {
      out.writeLong(e.getKey());
      out.writeLong(e.getValue());
    }
    out.writeLong(uncertainBuys.sum());
    Map<Long, List<Integer>> open = new java.util.TreeMap<>();
    uncertain.forEach((id, deltas) -> open.put(id, new ArrayList<>(deltas)));
    out.writeInt(open.size());
    for (Map.Entry<Long, List<Integer>> e : open.entrySet()) {
      out.writeLong(e.getKey());
      out.writeInt(e.getValue().size());
      for (int delta : e.getValue()) {
        out.writeInt(delta);
      }
    }
  }

  /** Adds the changes another ledger {@link #writeTo wrote}, as if recorded here. */
  void addFrom(DataInputStream in) throws IOException {
    int items = in.readInt();
    for (int i = 0; i < items; i++) {
      long id = in.readLong();
      committed.computeIfAbsent(id, k -> new LongAdder()).add(in.readLong());
    }
    uncertainBuys.add(in.readLong());
    int open = in.readInt();
    for (int i = 0; i < open; i++) {
      long id = in.readLong();
      int n = in.readInt();
      ConcurrentLinkedQueue<Integer> deltas =
          uncertain.computeIfAbsent(id, k -> new ConcurrentLinkedQueue<>());
      for (int d = 0; d < n; d++) {
        deltas.add(in.readInt());
      }
    }
  }

  /** The committed change of {@code itemId}'s stock so far. */
  long committedChange(long itemId) {
    LongAdder a = committed.get(itemId);
    return a == null ? 0 : a.sum();
  }

  /**
   * Compares the stocks read ({@code stockRead}: item id to stock) with {@code loadedStock} plus
   * the committed changes.
   */
  StockAudit audit(Map<Long, Integer> stockRead, LongToIntFunction loadedStock) {
    long off = 0;
    long units = 0;
    long itemsUncertain = 0;
    for (Map.Entry<Long, Integer> e : stockRead.entrySet()) {
      long item = e.getKey();
      long difference = e.getValue() - (loadedStock.applyAsInt(item) + committedChange(item));
      ConcurrentLinkedQueue<Integer> maybe = uncertain.get(item);
      if (maybe != null) {
        itemsUncertain++;
        if (explains(new ArrayList<>(maybe), difference)) {
          continue;
        }
      } else if (difference == 0) {
        continue;
      }
      off++;
      units += Math.abs(difference);
    }
    return new StockAudit(stockRead.size(), off, units, itemsUncertain, uncertainBuys.sum());
  }

  /**
   * Whether some subset of the unknown-outcome {@code changes} (each applied or not) sums to
   * {@code difference}; with many changes, whether the difference lies within their range.
   */
  static boolean explains(List<Integer> changes, long difference) {
    if (changes.size() > MAX_SUBSETS_OF) {
      long lowest = 0;
      long highest = 0;
      for (int c : changes) {
        lowest += Math.min(0, c);
        highest += Math.max(0, c);
      }
      return difference >= lowest && difference <= highest;
    }
    Set<Long> sums = new HashSet<>();
    sums.add(0L);
    for (int c : changes) {
      Set<Long> more = new HashSet<>(sums);
      for (long s : sums) {
        more.add(s + c);
      }
      sums = more;
    }
    return sums.contains(difference);
  }
}
