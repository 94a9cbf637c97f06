package io.stratus.bench.tpcw.bookstore;

import java.util.Arrays;
import java.util.Iterator;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.LongAccumulator;
import java.util.concurrent.atomic.LongAdder;

/**
 * Remembers when recent versions of tracked rows were committed, so that a read can be told how
 * stale it was: a read that began at {@code readStart} and saw version {@code v} of a row, while a
 * newer version had been committed at {@code t <= readStart}, was {@code readStart - t} stale,
 * where {@code t} is the commit time of the first version it missed. A read of the newest version
 * committed before it began is 0 stale.
 *
 * <p><b>Bounded memory.</b> Each row keeps at most {@link #VERSIONS_PER_ROW} versions (the newest
 * ones) and the tracker at most {@code maxRows} rows; when it is over, rows whose newest commit is
 * older than the horizon are dropped, and if that is not enough the ones touched least recently
 * by a commit. A read of a version older than every remembered one is measured against the oldest
 * remembered newer version, so staleness can only be underestimated, and only for reads of
 * versions many commits or a long time behind.
 *
 * <p><b>Thread safety.</b> A concurrent map of rows; each row's history is replaced under the
 * map's per-key lock ({@link ConcurrentHashMap#compute}), and readers see immutable histories.
 * Commits of the same version by two writers (possible under the weak protocols, where concurrent
 * read-modify-writes both write v+1) keep the earlier commit time.
 *
 * <p><b>Lost updates.</b> Every update of a tracked row writes the version it read plus one, so a
 * second commit of a version that was committed before is a lost update: two transactions read
 * the same version and both wrote its successor ({@link #lostUpdates}). Counted per table, at
 * least: a duplicate of a version already evicted (more than {@link #VERSIONS_PER_ROW} newer ones
 * committed, or the row dropped) goes unseen.
 *
 * <p><b>A client's own data.</b> Carts and orders are written only by the session that owns them,
 * so each session judges its own reads of them ({@link OwnWrites}); the bookstore adds the
 * verdicts of every committed interaction here ({@link #ownReadsChecked}, {@link
 * #ownStaleReads}): a client that does not see its own writes is the anomaly the protocols'
 * read-your-writes guarantee rules out.
 */
public final class StalenessTracker {
  static final int VERSIONS_PER_ROW = 8;
  static final int DEFAULT_MAX_ROWS = 500_000;
  static final long DEFAULT_HORIZON_MILLIS = 30 * 60_000L;

  /** A tracked row: its table and id. */
  record Row(String table, long id) {}

  /** Versions ascending and their commit times; immutable once published. */
  private record History(long[] versions, long[] commitMillis) {
    long newestCommit() {
      long max = Long.MIN_VALUE;
      for (long t : commitMillis) {
        max = Math.max(max, t);
      }
      return max;
    }
  }

  private final ConcurrentHashMap<Row, History> rows = new ConcurrentHashMap<>();
  private final ConcurrentHashMap<String, LongAdder> lost = new ConcurrentHashMap<>();
  private final StockLedger stockLedger = new StockLedger();
  private final LongAdder ownChecked = new LongAdder();
  private final LongAdder ownStale = new LongAdder();
  private final LongAdder ownStaleMillis = new LongAdder();
  private final LongAdder interactionsWithStaleOwnReads = new LongAdder();
  private final LongAccumulator ownMaxStaleMillis = new LongAccumulator(Math::max, 0);
  private final int maxRows;
  private final long horizonMillis;

  /** A tracker with the default bounds. */
  public StalenessTracker() {
    this(DEFAULT_MAX_ROWS, DEFAULT_HORIZON_MILLIS);
  }

  StalenessTracker(int maxRows, long horizonMillis) {
    if (maxRows < 1 || horizonMillis < 1) {
      throw new IllegalArgumentException("maxRows and horizon must be positive");
    }
    this.maxRows = maxRows;
    this.horizonMillis = horizonMillis;
  }

  /** Records that {@code version} of {@code row} was committed at {@code commitMillis}. */
  void committed(Row row, long version, long commitMillis) {
    rows.compute(
        row,
        (r, h) -> {
          if (h != null && Arrays.binarySearch(h.versions, version) >= 0) {
            lost.computeIfAbsent(r.table(), t -> new LongAdder()).increment();
          }
          return with(h, version, commitMillis);
        });
    if (rows.size() > maxRows) {
      evict(commitMillis);
    }
  }

  /**
   * How stale a read was that began at {@code readStartMillis} and saw {@code version}: 0 when no
   * newer version had been committed by then.
   */
  long staleness(Row row, long version, long readStartMillis) {
    History h = rows.get(row);
    if (h == null) {
      return 0;
    }
    long firstMissed = Long.MAX_VALUE;
    for (int i = 0; i < h.versions.length; i++) {
      if (h.versions[i] > version && h.commitMillis[i] <= readStartMillis) {
        firstMissed = Math.min(firstMissed, h.commitMillis[i]);
      }
    }
    return firstMissed == Long.MAX_VALUE ? 0 : readStartMillis - firstMissed;
  }

  /** Lost updates of rows of {@code table} seen so far (see the class comment). */
  public long lostUpdates(String table) {
    LongAdder n = lost.get(table);
    return n == null ? 0 : n.sum();
  }

  /**
   * Adds the verdicts on one committed interaction's reads of its session's own data: {@code
   * checked} reads were compared with what the session had committed, {@code stale} of them
   * showed less, the stalest by {@code maxStalenessMillis}.
   */
  void ownReads(int checked, int stale, long maxStalenessMillis) {
    if (checked < 0 || stale < 0 || stale > checked || maxStalenessMillis < 0) {
      throw new IllegalArgumentException(
          "bad own-read counts: " + checked + ", " + stale + ", " + maxStalenessMillis);
    }
    ownChecked.add(checked);
    ownStale.add(stale);
    if (stale > 0) {
      interactionsWithStaleOwnReads.increment();
      ownStaleMillis.add(maxStalenessMillis);
      ownMaxStaleMillis.accumulate(maxStalenessMillis);
    }
  }

  /**
   * Reads of a session's own data (its shopping cart, read back by Shopping Cart, Buy Request and
   * Buy Confirm; its latest order, read back by Order Display) that were compared with what the
   * session had committed, over all committed interactions so far.
   */
  public long ownReadsChecked() {
    return ownChecked.sum();
  }

  /**
   * Of {@link #ownReadsChecked()}, the reads that showed an older version of the session's cart
   * than it had committed (or missed the cart or its lines), or an older latest order than the
   * session had placed (or none): the client did not see its own writes.
   */
  public long ownStaleReads() {
    return ownStale.sum();
  }

  /**
   * The largest staleness of a stale own read, in milliseconds: the time from the commit of the
   * first own write the read missed to the start of the interaction; 0 when none was stale.
   */
  public long maxOwnStalenessMillis() {
    return ownMaxStaleMillis.get();
  }

  /**
   * The mean staleness of the interactions with a stale own read, in milliseconds (each counted
   * with its stalest own read); 0 when none was stale.
   */
  public double meanOwnStalenessMillis() {
    long stale = interactionsWithStaleOwnReads.sum();
    return stale == 0 ? 0 : (double) ownStaleMillis.sum() / stale;
  }

  /** Rows tracked now. */
  public int size() {
    return rows.size();
  }

  private static History with(History h, long version, long commitMillis) {
    if (h == null) {
      return new History(new long[] {version}, new long[] {commitMillis});
    }
    int at = Arrays.binarySearch(h.versions, version);
    if (at >= 0) {
      if (h.commitMillis[at] <= commitMillis) {
        return h;
      }
      long[] times = h.commitMillis.clone();
      times[at] = commitMillis;
      return new History(h.versions, times);
    }
    int insert = -at - 1;
    int n = h.versions.length;
    long[] versions = new long[n + 1];
    long[] times = new long[n + 1];
    System.arraycopy(h.versions, 0, versions, 0, insert);
    System.arraycopy(h.commitMillis, 0, times, 0, insert);
    versions[insert] = version;
    times[insert] = commitMillis;
    System.arraycopy(h.versions, insert, versions, insert + 1, n - insert);
    System.arraycopy(h.commitMillis, insert, times, insert + 1, n - insert);
    if (versions.length > VERSIONS_PER_ROW) { // drop the oldest versions
      int drop = versions.length - VERSIONS_PER_ROW;
      versions = Arrays.copyOfRange(versions, drop, versions.length);
      times = Arrays.copyOfRange(times, drop, times.length);
    }
    return new History(versions, times);
  }

  /** Drops rows beyond the horizon, then, if still over, the least recently committed. */
  private synchronized void evict(long nowMillis) {
    if (rows.size() <= maxRows) {
      return;
    }
    rows.entrySet().removeIf(e -> e.getValue().newestCommit() < nowMillis - horizonMillis);
    if (rows.size() <= maxRows) {
      return;
    }
    long[] newest = rows.values().stream().mapToLong(History::newestCommit).sorted().toArray();
    int excess = rows.size() - maxRows * 9 / 10; // make room for a while
    long cutoff = newest[Math.min(newest.length - 1, Math.max(0, excess - 1))];
    Iterator<Map.Entry<Row, History>> it = rows.entrySet().iterator();
    while (it.hasNext() && rows.size() > maxRows * 9 / 10) {
      if (it.next().getValue().newestCommit() <= cutoff) {
        it.remove();
      }
    }
  }

  /**
   * Writes the stock changes of the Buy Confirms recorded so far to {@code out}, so that the stock
   * audit of a run whose bookstores ran in several processes can account for all of them ({@link
   * #addStockChanges}).
   */
  public void writeStockChanges(java.io.DataOutputStream out) throws java.io.IOException {
    stockLedger.writeTo(out);
  }

  /**
   * Adds the stock changes another process's tracker {@link #writeStockChanges wrote}, as if its
   * bookstores had shared this tracker.
   */
  public void addStockChanges(java.io.DataInputStream in) throws java.io.IOException {
    stockLedger.addFrom(in);
  }

  /**
   * The stock changes committed by the bookstores that share this tracker, which their stock
   * audit checks the database against.
   */
  StockLedger stockLedger() {
    return stockLedger;
  }
}
