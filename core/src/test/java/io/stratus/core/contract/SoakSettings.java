package io.stratus.core.contract;

import io.stratus.core.DatabaseConfig;
import io.stratus.core.IndexPlacement;
import io.stratus.protocols.ProtocolKind;
import io.stratus.protocols.ProtocolOption;
import java.time.Duration;
import java.util.List;
import java.util.Random;
import java.util.function.Function;

/**
 * The axes of one soak history, drawn from its seed (so a failing seed states, and replays, its
 * settings). Each axis can be pinned with {@code -Dstratus.soak.<axis>=<value>} to narrow a
 * finding; the others are still drawn as before, since every axis is drawn whether pinned or not.
 *
 * @param pageSize bytes per page, every handle of the history: 1 KB to 100 KB
 * @param threads request threads per client (each its own session)
 * @param steps transactions per session per round, one after the other
 * @param index whether the workload's collection has a secondary index ({@link #INDEX}), checked
 *     against the collection at the end
 * @param interleaved whether request threads run their handle's queued background work
 *     (propagation, clean-up passes, checkpoints) after each transaction, while other threads
 *     commit, rather than only at the round's end
 * @param shortCheckpoints short checkpoint interval, lock timeout and propagation period and small
 *     checkpoint shares (protocols with checkpoints only), as a busy writer meets them
 * @param oneLane one writer lane per handle (protocols with writer lanes only)
 * @param loaderRound the round in which a loader (one more handle, one thread) commits {@code
 *     loaderCommits} one-record transactions and closes; -1 for none
 * @param restartRound the round after which one client closes its handle and reopens under a new
 *     client id; -1 for none
 * @param restartClient which client restarts
 * @param lateResends whether sessions re-create and delete keys other sessions created a round
 *     before (the TPC-W-like workload), while those creates may still be hidden or in flight
 * @param loaderCommits how many commits the loader makes: a short load, or one long enough to
 *     leave a checkpoint's share and more of its records behind a gap
 * @param damageRound the round during which pages of the collection or its index are damaged in
 *     storage ({@link PageDamage}); -1 for none
 * @param damageRounds how many rounds the damage lasts (from {@code damageRound} on, at most to
 *     the last round) before it is judged and repaired
 * @param placement where the index lives (indexed histories): a client-side tree, or the index
 *     service in half the histories, its calls under the faults as well ({@link
 *     FaultSoak#plan}), and the sessions' read-only queries through it judged as they run
 * @param queryLag how long the index service's queries miss a write (service-held indexes
 *     only): zero in half the histories, otherwise a few seconds of the clock
 */
record SoakSettings(
    int pageSize,
    int threads,
    int steps,
    boolean index,
    boolean interleaved,
    boolean shortCheckpoints,
    boolean oneLane,
    int loaderRound,
    int restartRound,
    int restartClient,
    boolean lateResends,
    int loaderCommits,
    int damageRound,
    int damageRounds,
    IndexPlacement placement,
    Duration queryLag) {

  static final List<Integer> PAGE_SIZES = List.of(1024, 2048, 4096, 16 * 1024, 100 * 1024);
  static final List<Integer> THREADS = List.of(1, 2, 4);
  static final List<Integer> STEPS = List.of(1, 2);

  /** The secondary index of the workload's collection. */
  static final String INDEX = "bySum";

  /** Commits of a loader. */
  static final List<Integer> LOADER_COMMITS = List.of(24, 200);

  /** The switch of the late re-send axis ({@link #deletesMustStick}). */
  static final String LATE_RESENDS = "stratus.soak.lateResends";

  /** The settings of history {@code seed} of {@code kind} with {@code rounds} rounds. */
  static SoakSettings draw(ProtocolKind kind, long seed, int rounds, int clients) {
    Random r = new Random(seed * 0x9E3779B97F4A7C15L + 0x51ED);
    int pageSize = pin("pageSize", PAGE_SIZES.get(r.nextInt(PAGE_SIZES.size())), Integer::valueOf);
    int threads = pin("threads", THREADS.get(r.nextInt(THREADS.size())), Integer::valueOf);
    int steps = pin("steps", STEPS.get(r.nextInt(STEPS.size())), Integer::valueOf);
    boolean index = pin("index", r.nextBoolean(), Boolean::valueOf);
    boolean interleaved = pin("interleaved", r.nextBoolean(), Boolean::valueOf);
    boolean shortCheckpoints =
        pin("shortCheckpoints", r.nextBoolean(), Boolean::valueOf)
            && kind.accepts(ProtocolOption.CHECKPOINTS);
    boolean oneLane =
        pin("oneLane", r.nextInt(3) == 0, Boolean::valueOf)
            && kind.accepts(ProtocolOption.WRITER_LANES);
    int loaderRound = r.nextBoolean() ? r.nextInt(rounds) : -1;
    loaderRound = pin("loaderRound", loaderRound, Integer::valueOf);
    int restartRound = r.nextBoolean() ? r.nextInt(rounds - 1) : -1;
    restartRound = pin("restartRound", restartRound, Integer::valueOf);
    int restartClient = r.nextInt(clients);
    boolean lateResends = r.nextBoolean() && deletesMustStick();
    // Drawn last, so that adding it left the earlier axes of every seed as they were.
    int loaderCommits =
        pin(
            "loaderCommits",
            LOADER_COMMITS.get(r.nextInt(LOADER_COMMITS.size())),
            Integer::valueOf);
    // Drawn after it, for the same reason: a quarter of the histories damage pages.
    int damageRound = r.nextInt(4) == 0 ? r.nextInt(rounds) : -1;
    damageRound = pin("damageRound", damageRound, Integer::valueOf);
    int damageRounds = pin("damageRounds", 1 + r.nextInt(2), Integer::valueOf);
    // Drawn after them, for the same reason: half the indexed histories hold the index in the
    // index service, half of those with queries that lag.
    IndexPlacement placement =
        pin(
            "indexPlacement",
            r.nextBoolean() ? IndexPlacement.INDEX_SERVICE : IndexPlacement.CLIENT_TREE,
            v -> IndexPlacement.valueOf(v.toUpperCase()));
    Duration queryLag =
        pin(
            "queryLagMillis",
            r.nextBoolean() ? Duration.ZERO : Duration.ofSeconds(1 + r.nextInt(5)),
            v -> Duration.ofMillis(Long.parseLong(v)));
    return new SoakSettings(
        pageSize,
        threads,
        steps,
        index,
        interleaved,
        shortCheckpoints,
        oneLane,
        loaderRound,
        restartRound,
        restartClient,
        lateResends,
        loaderCommits,
        damageRound,
        damageRounds,
        placement,
        queryLag);
  }

  /** Whether the history's index is held by the index service. */
  boolean serviceIndex() {
    return index && placement == IndexPlacement.INDEX_SERVICE;
  }

  /** Whether the history's index is a client-side tree (whose pages may be damaged). */
  boolean treeIndex() {
    return index && placement == IndexPlacement.CLIENT_TREE;
  }

  /** The last round of the damage window (the damage is repaired after it); -1 for none. */
  int damageEnd(int rounds) {
    return damageRound < 0 ? -1 : Math.min(damageRound + damageRounds, rounds) - 1;
  }

  /**
   * Whether the soak holds every protocol that promises durability to deletes that stick ({@link
   * #LATE_RESENDS}, on unless {@code false}): late re-sends are drawn in half the histories, and
   * an index is judged for entries of acknowledged records that a delete reaching it after their
   * re-insert removed, whatever order the writers apply in ({@link SoakIndex#check}). Off,
   * neither: for code where a late create may still undo a delete, and a late delete an insert.
   */
  static boolean deletesMustStick() {
    return !"false".equalsIgnoreCase(System.getProperty(LATE_RESENDS, "true").trim());
  }

  /** {@code drawn}, unless {@code -Dstratus.soak.<axis>} pins it. */
  private static <T> T pin(String axis, T drawn, Function<String, T> parse) {
    String v = System.getProperty("stratus.soak." + axis);
    return v == null || v.isBlank() ? drawn : parse.apply(v.trim());
  }

  /** {@code b} with this history's page size, writer lanes and checkpoint settings. */
  DatabaseConfig.Builder apply(DatabaseConfig.Builder b) {
    b.pageSize(pageSize);
    if (oneLane) {
      b.writerLanes(1);
    }
    if (shortCheckpoints) {
      b.checkpointInterval(Duration.ofSeconds(1))
          .checkpointLockTimeout(Duration.ofSeconds(5))
          .propagationPeriod(Duration.ofSeconds(1))
          .maxRecordsPerCheckpoint(16);
    }
    return b;
  }

  @Override
  public String toString() {
    return "pages "
        + (pageSize >= 1024 ? pageSize / 1024 + " KB" : pageSize + " B")
        + ", "
        + threads
        + (threads == 1 ? " thread" : " threads")
        + " x "
        + steps
        + (steps == 1 ? " transaction" : " transactions")
        + " per client and round, "
        + (!index
            ? "no index"
            : placement == IndexPlacement.CLIENT_TREE
                ? "indexed"
                : "indexed in the index service"
                    + (queryLag.isZero()
                        ? ""
                        : " (queries lag " + queryLag.toMillis() / 1000.0 + " s)"))
        + ", background "
        + (interleaved ? "interleaved" : "at round ends")
        + (shortCheckpoints ? ", short checkpoints" : "")
        + (oneLane ? ", one writer lane" : "")
        + (loaderRound >= 0
            ? ", loader of " + loaderCommits + " commits in round " + loaderRound
            : "")
        + (restartRound >= 0
            ? ", client " + restartClient + " restarts after round " + restartRound
            : "")
        + (lateResends ? ", late re-sends" : "")
        + (damageRound >= 0
            ? ", pages damaged in round "
                + damageRound
                + (damageRounds > 1 ? " for " + damageRounds + " rounds" : "")
            : "");
  }
}
