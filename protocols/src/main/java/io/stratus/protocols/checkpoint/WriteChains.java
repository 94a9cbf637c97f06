package io.stratus.protocols.checkpoint;

import com.google.protobuf.CodedOutputStream;
import io.stratus.pagemanager.Page;
import io.stratus.protocols.log.LogRecord;
import io.stratus.protocols.log.WriterIds;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.function.Function;
import java.util.function.Predicate;
import java.util.function.Supplier;

/**
 * Monotonic writes (paper 001, section 5.2): per writer and per PU queue a chain of consecutive
 * counters 1, 2, 3, ... that the writer puts into its records ({@link LogRecord#clientCounter()});
 * the page a queue feeds (the data page, or the tree's root) records per writer the last counter
 * applied ({@link ChainState#counters()}, in the page's protocol state). A checkpoint then applies a writer's records in
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
 * <p>A writer is one lane of a handle's incarnation ({@link io.stratus.protocols.engine.WriterLanes}): a record may also name
 * counters of sibling lanes in the same queue that must be applied first ({@link
 * io.stratus.protocols.log.LaneDependency}); until they are, it waits like a record after a gap.
 * The records to apply come out in an order that respects both (chains and dependencies), the
 * earliest commit first among those ready; unnumbered records (the basic protocol) come first, in
 * commit order.
 *
 * <p>Why no "apply over an old gap" escape: a predecessor can be invisible for a long time (each
 * receive hides it for the lock timeout), and applying over it would drop it for good. Instead
 * the writer never leaves a gap: the commit log numbers and sends one commit per lane at a
 * time, gives the counters back when nothing was sent, and resends when the outcome is unknown.
 *
 * <p>Why a chain per (writer, queue) and not per writer: the header of one page can only tell
 * which of the writer's records for that page were applied; records for other pages do not pass
 * through it. Why the writer is an incarnation ({@code <clientId>#<nonce>}): a restarted client
 * does not know its predecessor's last counters; a fresh chain is always right, at the price of
 * no order between the records of two incarnations. Header keys are {@code q:<writer>} for data
 * pages and {@code t:<writer>} on tree roots; records with counter 0 (the basic protocol) are
 * outside any chain and always applied.
 *
 * <p>Why a data page's key need not name the page: a split starts its new pages without chains
 * (only the piece that keeps the URI keeps the header), so a page's chains are always its own.
 * Pages written before carried {@code p:<writer>@<pageUri>} keys, which made copies that older
 * splits left on other pages inert; they are read as today's keys of their own page, copies of
 * other pages' chains are dropped ({@link ChainState#of}), and a chain retired under the old
 * key's hash is recognised by either hash. Without the URI an entry costs about half as much, so
 * a 1 KB page's header holds the chains of six writers with default ids rather than three.
 *
 * <p>Why chains are stored per incarnation ({@link ChainState#encode()}): a handle commits from
 * several lanes, each a writer with a chain, and stored one entry per lane the incarnation's id
 * (about 55 bytes with a UUID client id) was repeated in each, so a 1 KB root's header held four
 * chains and a few processes with a few request threads each kept records waiting for room as
 * long as they lived (chains of live writers never retire). Stored once per incarnation with a few
 * bytes per lane, a 1 KB root and data page hold three incarnations of four lanes. The header's
 * bytes are counted as that form takes them ({@link HeaderSize}): a chain whose incarnation is in
 * the header already costs a lane's bytes, the first chain of an incarnation also its group's.
 *
 * <p><b>Bounded headers.</b> Every incarnation and lane that writes a page adds an entry, and
 * restarts make new incarnations without end, so entries must also leave. Each entry carries the
 * time its chain last advanced ({@link ChainState#appliedMinutes()}). A chain is <em>retired</em>
 * (its entry removed) only when both hold: its incarnation is dead and it has not advanced for the
 * {@linkplain Policy#horizonMillis horizon}, which is many visibility timeouts long, so every
 * hidden or short-received message of it has come back and been drained by then.
 *
 * <p><b>Dead.</b> A probe of the writer lease ({@link WriterLeases}) tells only whether the
 * lease is free now, and a lock-service restart frees every live writer's lease until its next
 * renewal. So a free lease starts a count kept in the header ({@link ChainState#freeMinutes()}:
 * when a probe first found it free), which a probe finding it held or failing clears, and so does
 * the chain advancing; the writer is dead once a probe finds its lease free again a whole
 * {@linkplain Policy#deathMillis death time} after the first. The count lives in the page, not in
 * the prober, because the clients that checkpoint a page come and go.
 *
 * <p>What the entry protected against is a record of that chain applied again (a late
 * redelivery) or applied out of order. To keep doing that, the page remembers the last {@link
 * #RETIRED_KEPT} retired chains ({@link ChainState#retired()}): each key's hash and the counter
 * the chain had reached. A record of a chain without an entry whose key hash is there is a
 * <em>stray copy</em> when its counter is at most that counter — every such record was applied
 * before the chain retired (a chain holding counters is never retired) — and is skipped (its
 * message deleted), logged and counted, never applied. A later counter means the writer was not
 * dead after all (its lease lapsed while its process ran on, say while it was paused): the chain
 * resumes at the counter it had reached, as if it had never been retired, so a retirement taken
 * in error costs a header entry, never a write. Pages written before retired counters were kept
 * fall back to the lease: such a record is skipped when the lease is free and waits when it is
 * held or the probe fails. A writer retired longer ago than the kept chains reach is no longer
 * recognised; by then its copies would have had to stay hidden for many horizons. Two keys with
 * one hash are told apart by nothing: a new chain whose key's hash equals a retired one's (about
 * one chance in 500 million per chain) has its first records skipped as strays.
 *
 * <p><b>Damage.</b> A record blocked by a corrupt page (not by a gap) does not hold back its
 * writer's later records for other pages: when it is next in its chain, the chain advances past
 * it and keeps its counter as <em>held</em> ({@link ChainState#held()}); the record stays in the
 * queue. A held record is no duplicate although its counter is at most the recorded one, and it
 * is applied, in counter order among the held ones, once its page is healthy again; then its
 * counter leaves the list. Order per page is kept: a later record for the damaged page is blocked
 * by the same damage and held behind it, and while a held record is not in the checkpoint (where
 * it would land is unknown then) or is healthy but not applied yet, the chain goes no further. A
 * chain holds at most {@link #MAX_HELD} counters, within the header budget; beyond that a blocked
 * record waits with the rest of its chain, as before. A chain holding counters is not retired.
 *
 * <p>The header has a {@linkplain Policy#budgetBytes budget}: a chain that has no entry yet
 * starts only if its entry fits (counted as an upper bound of the stored form); otherwise its records wait in the queue (deferred, counted)
 * until retirement makes room. So a checkpoint never produces a header that does not fit its
 * page, and a root that is an inner page can always hold it. Retirement costs a lock request per
 * probe, so it is tried only once the header fills half its budget, a few probes per checkpoint.
 * Stateless apart from what a call is given; thread-safe.
 */
public final class WriteChains {
  private static final System.Logger LOG = System.getLogger(WriteChains.class.getName());

  /** How many retired keys a page remembers ({@link ChainState#retired()}). */
  static final int RETIRED_KEPT = 8;

  /** Probes per checkpoint while the header is within its budget, and beyond it. */
  static final int PROBES = 4;

  static final int PROBES_OVER_BUDGET = 64;

  /** Prefix of a tree root's chain keys: {@code t:<writer>}. */
  private static final String TREE_KEY = "t:";

  /** Prefix of a data page's chain keys: {@code q:<writer>}. */
  private static final String PAGE_KEY = "q:";

  /** Prefix of the data-page keys that carried the page's URI: {@code p:<writer>@<pageUri>}. */
  private static final String PAGE_KEY_WITH_URI = "p:";

  /** Counters a chain holds back at most ({@link ChainState#held()}). */
  static final int MAX_HELD = 16;

  private WriteChains() {}

  /**
   * How one checkpoint treats the header.
   *
   * @param nowMillis the checkpoint's time
   * @param budgetBytes the most the header's chain entries and retired hashes may take
   * @param horizonMillis how long a chain must not have advanced before it may be retired
   * @param deathMillis how long a writer's lease must be found free before it counts as dead
   * @param liveness whether a writer's lease is held now ({@link WriterLeases#probe})
   */
  public record Policy(
      long nowMillis,
      int budgetBytes,
      long horizonMillis,
      long deathMillis,
      Function<String, WriterLeases.State> liveness) {
    /** No budget and no retirement: only what the chains say. */
    public static Policy unbounded(long nowMillis) {
      return new Policy(
          nowMillis,
          Integer.MAX_VALUE,
          Long.MAX_VALUE,
          Long.MAX_VALUE,
          w -> WriterLeases.State.UNKNOWN);
    }
  }

  /**
   * The records to apply and which were deferred, the header after applying, and what happened
   * to the header.
   *
   * @param leftovers records of retired chains whose writer is dead: not applied, not deferred
   * @param waiting how many deferred records wait for room in the header
   * @param waitingWriters how many writers' chains wait for room (they hold those records)
   * @param retired how many chains were retired
   * @param free per chain key, since when its writer's lease has been found free (minutes)
   */
  public record Filtered(
      List<LogRecord> apply,
      List<LogRecord> deferred,
      Map<String, Long> counters,
      Map<String, Integer> minutes,
      List<ChainState.Retired> retiredChains,
      List<LogRecord> leftovers,
      int waiting,
      int waitingWriters,
      int retired,
      Map<String, Integer> free,
      Map<String, List<Long>> held) {
    /** {@code page} with this header. */
    public Page header(Page page) {
      return new ChainState(counters, minutes, retiredChains, free, held).writeTo(page);
    }
  }

  /**
   * Bytes chain state with these entries and retired chains takes in a page, at most (without
   * free-lease times or held counters, with times of any value).
   */
  public static int headerBytes(Map<String, Long> counters, List<ChainState.Retired> retired) {
    long max = 0;
    for (long c : counters.values()) {
      max = HeaderSize.maxUnsigned(max, c);
    }
    return new HeaderSize(
            counters.keySet(),
            Set.of(),
            Map.of(),
            retired,
            CodedOutputStream.computeUInt64SizeNoTag(max),
            HeaderSize.ANY_MINUTES)
        .bytes();
  }

  /** The header key of {@code writer}'s chain for a data page or a tree root. */
  public static String key(String writer, boolean tree) {
    return (tree ? TREE_KEY : PAGE_KEY) + writer;
  }

  /**
   * The key a data page's chain had in pages written with the page's URI in its keys ({@code
   * p:<writer>@<pageUri>}); a tree chain's key is unchanged. Retired chains of such pages are
   * remembered by the hash of that form.
   */
  static String keyWithUri(String key, String uri) {
    return key.startsWith(PAGE_KEY)
        ? PAGE_KEY_WITH_URI + key.substring(PAGE_KEY.length()) + "@" + uri
        : key;
  }

  /**
   * The key that stands for {@code stored}, a key read from the page at {@code uri}: itself, or
   * for a data-page key with a URI, the key without it when the URI is the page's own; empty
   * when it is another page's (a copy a split made before pieces started without chains: it says
   * nothing about this page).
   */
  static Optional<String> currentKey(String stored, String uri) {
    if (!stored.startsWith(PAGE_KEY_WITH_URI)) {
      return Optional.of(stored);
    }
    String suffix = "@" + uri;
    return stored.endsWith(suffix)
        ? Optional.of(
            PAGE_KEY
                + stored.substring(PAGE_KEY_WITH_URI.length(), stored.length() - suffix.length()))
        : Optional.empty();
  }

  /** Whether some key is of the form with the page's URI ({@link #keyWithUri}). */
  static boolean anyKeyWithUri(java.util.Collection<String> keys) {
    for (String k : keys) {
      if (k.startsWith(PAGE_KEY_WITH_URI)) {
        return true;
      }
    }
    return false;
  }

  /** Whether {@code retired} is chain {@code key} of the page at {@code uri}, in either key form. */
  static boolean isRetiredChain(ChainState.Retired retired, String key, String uri) {
    return retired.keyHash() == key.hashCode()
        || retired.keyHash() == keyWithUri(key, uri).hashCode();
  }

  /**
   * Filters {@code records} against the header of {@code page} (the data page, or the tree's
   * root), retiring chains of dead writers and keeping the header within the policy's budget.
   *
   * @param tree whether the queue is a tree's (else a data page's, {@code uri})
   * @param blocked records that cannot be applied now (their page's lock was not available): they
   *     wait, like records after a gap
   */
  public static Filtered filter(
      List<LogRecord> records,
      Page page,
      boolean tree,
      String uri,
      Predicate<LogRecord> blocked,
      Policy policy) {
    return filter(records, page, tree, uri, blocked, r -> false, policy);
  }

  /**
   * Filters {@code records} like {@link #filter(List, Page, boolean, String, Predicate, Policy)},
   * where {@code damaged} (among {@code blocked}) are the records blocked by a corrupt page: their
   * chains may advance past them, holding their counters (see the class comment).
   */
  public static Filtered filter(
      List<LogRecord> records,
      Page page,
      boolean tree,
      String uri,
      Predicate<LogRecord> blocked,
      Predicate<LogRecord> damaged,
      Policy policy) {
    ChainState stored = ChainState.of(page);
    Map<String, Long> out = new LinkedHashMap<>(stored.counters());
    Map<String, TreeSet<Long>> held = new HashMap<>();
    for (Map.Entry<String, List<Long>> e : stored.held().entrySet()) {
      if (out.containsKey(e.getKey())) {
        held.put(e.getKey(), new TreeSet<>(e.getValue()));
      }
    }
    int nowMinutes = (int) Math.max(1, policy.nowMillis() / 60_000);
    Map<String, Integer> minutes = new HashMap<>();
    Map<String, Integer> free = new HashMap<>();
    for (String k : out.keySet()) {
      // An entry without a time (written before times were kept) starts aging now.
      minutes.put(k, stored.appliedMinutes().getOrDefault(k, nowMinutes));
      Integer since = stored.freeMinutes().get(k);
      if (since != null) {
        free.put(k, since);
      }
    }
    ArrayDeque<ChainState.Retired> retiredKeys = new ArrayDeque<>(stored.retired());
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
    // Records of held counters, one copy each (a second copy is a duplicate), out of the chains.
    Map<String, TreeMap<Long, LogRecord>> heldHere = new HashMap<>();
    for (Map.Entry<String, ArrayDeque<LogRecord>> w : byWriter.entrySet()) {
      List<LogRecord> chain = new ArrayList<>(w.getValue());
      chain.sort(Comparator.comparingLong(LogRecord::clientCounter));
      TreeSet<Long> holding = held.get(key(w.getKey(), tree));
      if (holding != null) {
        for (Iterator<LogRecord> it = chain.iterator(); it.hasNext(); ) {
          LogRecord r = it.next();
          if (holding.contains(r.clientCounter())) {
            heldHere
                .computeIfAbsent(w.getKey(), x -> new TreeMap<>())
                .putIfAbsent(r.clientCounter(), r);
            it.remove();
          }
        }
      }
      w.setValue(new ArrayDeque<>(chain));
    }
    // The header's bytes are bounded with the widest counter and time it can hold by the end of
    // the pass: chains reach no counter beyond the records' and the header's, times are now's
    // or the header's.
    int counterBytes = 1;
    for (long c : out.values()) {
      counterBytes = Math.max(counterBytes, CodedOutputStream.computeUInt64SizeNoTag(c));
    }
    for (LogRecord r : records) {
      counterBytes =
          Math.max(counterBytes, CodedOutputStream.computeUInt64SizeNoTag(r.clientCounter()));
    }
    for (TreeSet<Long> h : held.values()) {
      for (long c : h) {
        counterBytes = Math.max(counterBytes, CodedOutputStream.computeUInt64SizeNoTag(c));
      }
    }
    // The times of every entry in out: minutes has one for each, free for some.
    int minuteBytes = CodedOutputStream.computeUInt32SizeNoTag(nowMinutes);
    for (int m : minutes.values()) {
      minuteBytes = Math.max(minuteBytes, CodedOutputStream.computeUInt32SizeNoTag(m));
    }
    for (int m : free.values()) {
      minuteBytes = Math.max(minuteBytes, CodedOutputStream.computeUInt32SizeNoTag(m));
    }
    int cb = counterBytes;
    int mb = minuteBytes;
    Supplier<HeaderSize> headerSize =
        () -> new HeaderSize(out.keySet(), free.keySet(), held, List.copyOf(retiredKeys), cb, mb);
    int retired =
        retire(
            out,
            minutes,
            free,
            retiredKeys,
            byWriter.keySet(),
            held.keySet(),
            uri,
            policy,
            nowMinutes,
            headerSize.get().bytes());
    List<LogRecord> leftovers = new ArrayList<>();
    Map<String, Long> resumed = new HashMap<>();
    for (Iterator<Map.Entry<String, ArrayDeque<LogRecord>>> it = byWriter.entrySet().iterator();
        it.hasNext(); ) {
      Map.Entry<String, ArrayDeque<LogRecord>> w = it.next();
      String key = key(w.getKey(), tree);
      Optional<ChainState.Retired> retiredChain =
          out.containsKey(key) ? Optional.empty() : retiredOf(retiredKeys, key, uri);
      if (retiredChain.isEmpty()) {
        continue;
      }
      ChainState.Retired gone = retiredChain.get();
      if (gone.counterKnown()) {
        // Every record up to the retired counter was applied: copies of those are strays. A later
        // one means the writer lived on (its lease lapsed while it ran): its chain resumes where
        // it stopped, exactly as if it had never been retired.
        int strays = 0;
        while (!w.getValue().isEmpty()
            && w.getValue().peekFirst().clientCounter() <= gone.counter()) {
          leftovers.add(w.getValue().pollFirst());
          strays++;
        }
        if (strays > 0) {
          LOG.log(
              System.Logger.Level.INFO,
              strays
                  + " copy(ies) of records of retired chain "
                  + key
                  + " on "
                  + uri
                  + " skipped: applied before it retired");
        }
        if (w.getValue().isEmpty()) {
          it.remove();
        } else {
          resumed.put(key, gone.counter());
        }
        continue;
      }
      WriterLeases.State state = policy.liveness().apply(w.getKey());
      if (state == WriterLeases.State.FREE) {
        LOG.log(
            System.Logger.Level.WARNING,
            w.getValue().size()
                + " record(s) of retired chain "
                + key
                + " on "
                + uri
                + " skipped: its writer is gone and the chain was applied"
                + " and retired before (stray copies)");
        leftovers.addAll(w.getValue());
      } else {
        LOG.log(
            System.Logger.Level.ERROR,
            w.getValue().size()
                + " record(s) of retired chain "
                + key
                + " on "
                + uri
                + " held back: its writer's lease answers "
                + state);
        deferred.addAll(w.getValue());
      }
      it.remove();
    }
    HeaderSize size = headerSize.get();
    // Repeatedly take, among the records that are next in their chain and whose lane
    // dependencies are applied, the earliest in commit order: every chain stays in counter order,
    // every dependency is applied first, and independent writers interleave by commit time. A
    // chain that has no entry yet starts only if its entry fits the budget.
    //
    // Done with a heap of ready heads rather than by rescanning every chain per record taken: a
    // head waiting for a dependency is parked under the chain it waits for and looked at again
    // only when that chain advances, so a pass costs O(records × log chains). Readiness moves
    // one way only during a pass: counters only grow (a met dependency stays met), and the
    // header only grows (a new chain that no longer fits never will), so a head that fails the
    // budget when it comes off the heap is dropped for good, exactly as a rescan would drop it.
    List<LogRecord> chained = new ArrayList<>();
    Set<String> roomless = new HashSet<>(); // writers whose chain found no room to start
    ReadyHeads.Hold hold =
        (key, r) -> {
          TreeSet<Long> holding = held.computeIfAbsent(key, k -> new TreeSet<>());
          if (holding.size() >= MAX_HELD
              || size.bytesWith(key, holding.size() + 1) > policy.budgetBytes()) {
            return false; // no room: it waits with the rest of its chain
          }
          size.put(key, holding.size() + 1);
          holding.add(r.clientCounter());
          out.put(key, r.clientCounter());
          minutes.put(key, nowMinutes);
          return true;
        };
    ReadyHeads heads =
        new ReadyHeads(
            byWriter,
            out,
            retiredCounters(retiredKeys),
            held,
            heldHere,
            blocked,
            damaged,
            hold,
            tree,
            uri);
    for (String writer : byWriter.keySet()) {
      heads.offer(writer);
    }
    for (LogRecord best = heads.poll(); best != null; best = heads.poll()) {
      String key = heads.keyOf(best.clientId());
      TreeSet<Long> holding = held.get(key);
      if (holding != null && holding.remove(best.clientCounter())) {
        // A held record whose page is healthy again: applied now, in counter order. Its bytes
        // stay counted for the rest of the pass, so that the header's bound only grows.
        // heldHere has it: the heads offer a held counter's record only from there.
        Objects.requireNonNull(heldHere.get(best.clientId()), "held records")
            .remove(best.clientCounter());
        minutes.put(key, nowMinutes);
        chained.add(best);
        heads.advanced(best.clientId(), key);
        continue;
      }
      boolean recorded = out.containsKey(key);
      if (!recorded && size.bytesWith(key, 0) > policy.budgetBytes()) {
        roomless.add(best.clientId());
        continue; // its chain waits for room, with the rest of it
      }
      // A head not held is the first of its writer's chain (ReadyHeads.offer).
      Objects.requireNonNull(byWriter.get(best.clientId()), "chain").pollFirst();
      out.put(key, best.clientCounter());
      if (!recorded) {
        size.put(key, 0);
        if (resumed.remove(key) != null) {
          retiredKeys.removeIf(r -> isRetiredChain(r, key, uri));
        }
      }
      minutes.put(key, nowMinutes);
      free.remove(key); // a chain that advances has a live writer, or one that was until lately
      chained.add(best);
      heads.advanced(best.clientId(), key);
    }
    // What is left follows a gap or an unmet dependency, or waits for room: it waits, with the
    // rest of its chain.
    int waiting = 0;
    int waitingWriters = 0;
    for (Map.Entry<String, ArrayDeque<LogRecord>> w : byWriter.entrySet()) {
      if (!w.getValue().isEmpty() && roomless.contains(w.getKey())) {
        waiting += w.getValue().size();
        waitingWriters++;
      }
      deferred.addAll(w.getValue());
    }
    for (TreeMap<Long, LogRecord> h : heldHere.values()) {
      deferred.addAll(h.values()); // still blocked by damage, or behind a held record not here
    }
    if (waiting > 0) {
      LOG.log(
          System.Logger.Level.INFO,
          waiting
              + " record(s) of "
              + waitingWriters
              + " writer(s) for "
              + uri
              + " wait for room in"
              + " the header ("
              + size.bytes()
              + " of "
              + policy.budgetBytes()
              + " bytes) until chains of closed or dead writers retire");
    }
    unchained.sort(Checkpointer.COMMIT_ORDER);
    List<LogRecord> apply = new ArrayList<>(unchained.size() + chained.size());
    apply.addAll(unchained);
    apply.addAll(chained); // in the order chosen above, not re-sorted
    minutes.keySet().retainAll(out.keySet());
    free.keySet().retainAll(out.keySet());
    Map<String, List<Long>> heldOut = new HashMap<>();
    held.forEach(
        (k, h) -> {
          if (!h.isEmpty() && out.containsKey(k)) {
            heldOut.put(k, List.copyOf(h));
          }
        });
    return new Filtered(
        apply,
        deferred,
        out,
        minutes,
        List.copyOf(retiredKeys),
        leftovers,
        waiting,
        waitingWriters,
        retired,
        free,
        heldOut);
  }

  /**
   * Removes from {@code out} the entries of this queue's chains whose writers are dead and that
   * have not advanced for the horizon (not those with records in this checkpoint, nor those
   * holding counters back), remembering
   * their key hashes; returns how many. A candidate whose lease is found free for the first time
   * gets its free time in {@code free}; one found held or unknown loses it. Probes only once the
   * header's bytes ({@code size}, at most) fill half its budget.
   */
  private static int retire(
      Map<String, Long> out,
      Map<String, Integer> minutes,
      Map<String, Integer> free,
      ArrayDeque<ChainState.Retired> retiredKeys,
      Set<String> writersNow,
      Set<String> holding,
      String uri,
      Policy policy,
      int nowMinutes,
      int size) {
    if (size <= policy.budgetBytes() / 2 || policy.horizonMillis() == Long.MAX_VALUE) {
      return 0;
    }
    long horizonMinutes = policy.horizonMillis() / 60_000 + 1;
    // Whole minutes that surely span a death time, whatever the seconds of the two probes.
    long deathMinutes =
        policy.deathMillis() == Long.MAX_VALUE ? Long.MAX_VALUE : policy.deathMillis() / 60_000 + 1;
    List<Candidate> candidates = new ArrayList<>();
    for (Map.Entry<String, Long> e : out.entrySet()) {
      String k = e.getKey();
      int applied = minutes.getOrDefault(k, nowMinutes);
      writerOf(k)
          .filter(
              writer ->
                  !writersNow.contains(writer)
                      && !holding.contains(k)
                      && nowMinutes - applied >= horizonMinutes)
          .ifPresent(writer -> candidates.add(new Candidate(k, writer, e.getValue(), applied)));
    }
    candidates.sort(Comparator.comparingInt(Candidate::appliedMinutes));
    int probes = size > policy.budgetBytes() ? PROBES_OVER_BUDGET : PROBES;
    Map<String, WriterLeases.State> seen = new HashMap<>();
    int retired = 0;
    for (Candidate c : candidates) {
      String k = c.key();
      String incarnation = WriterIds.incarnationOf(c.writer());
      WriterLeases.State state = seen.get(incarnation);
      if (state == null) {
        if (probes-- <= 0) {
          break;
        }
        state = policy.liveness().apply(c.writer());
        seen.put(incarnation, state);
      }
      if (state != WriterLeases.State.FREE) {
        free.remove(k); // held, or the probe failed (a restart?): the count starts again
        continue;
      }
      Integer since = free.putIfAbsent(k, nowMinutes);
      if (since != null && nowMinutes - since >= deathMinutes) {
        out.remove(k);
        minutes.remove(k);
        free.remove(k);
        retiredKeys.removeIf(r -> isRetiredChain(r, k, uri));
        retiredKeys.addLast(new ChainState.Retired(k.hashCode(), c.counter()));
        while (retiredKeys.size() > RETIRED_KEPT) {
          retiredKeys.removeFirst();
        }
        retired++;
      }
    }
    if (retired > 0) {
      LOG.log(
          System.Logger.Level.INFO,
          "retired " + retired + " chain(s) of closed or dead" + " writers from " + uri);
    }
    return retired;
  }

  /** Per key hash of a retired chain whose counter is known, that counter. */
  private static Map<Integer, Long> retiredCounters(ArrayDeque<ChainState.Retired> retired) {
    Map<Integer, Long> counters = new HashMap<>();
    for (ChainState.Retired r : retired) {
      if (r.counterKnown()) {
        counters.put(r.keyHash(), r.counter());
      }
    }
    return counters;
  }

  /** The retired chain {@code key} of the page at {@code uri}, if there is one. */
  private static Optional<ChainState.Retired> retiredOf(
      ArrayDeque<ChainState.Retired> retired, String key, String uri) {
    for (ChainState.Retired r : retired) {
      if (isRetiredChain(r, key, uri)) {
        return Optional.of(r);
      }
    }
    return Optional.empty();
  }

  /**
   * An entry of the header that {@link #retire} may retire.
   *
   * @param key the chain's header key
   * @param writer its writer
   * @param counter the counter it reached
   * @param appliedMinutes when it last advanced (minutes since the epoch)
   */
  private record Candidate(String key, String writer, long counter, int appliedMinutes) {}

  /**
   * The writer of a header key: of a tree chain ({@code t:}) of a root, or of a data-page chain
   * ({@code q:}); empty for any other key. Both kinds may be retired by either kind of
   * checkpoint: a root that was a leaf keeps its data-page chains after it split, and its
   * data-page queue may never be checkpointed again.
   */
  private static Optional<String> writerOf(String key) {
    return key.startsWith(TREE_KEY) || key.startsWith(PAGE_KEY)
        ? Optional.of(key.substring(2))
        : Optional.empty();
  }
}
