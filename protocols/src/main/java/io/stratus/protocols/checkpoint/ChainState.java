package io.stratus.protocols.checkpoint;

import com.google.protobuf.InvalidProtocolBufferException;
import io.stratus.CorruptPageException;
import io.stratus.pagemanager.Page;
import io.stratus.protocols.checkpoint.proto.ChainGroup;
import io.stratus.protocols.checkpoint.proto.HeldCounters;
import io.stratus.protocols.checkpoint.proto.StoredChainState;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.function.Function;

/**
 * The queue protocols' state in a page, kept in the page's opaque protocol state ({@code
 * chain_state.proto}): per chain key ({@link WriteChains#key}), the highest counter applied; when
 * each chain last advanced; since when its writer's lease has been found free (the death count of
 * {@link WriterLeases}, kept here so that any client's next checkpoint continues it); the
 * retired chains (their keys' hashes and the counters they had reached); and per chain the counters it advanced past without applying them (their
 * records wait for a corrupt page's repair, {@link WriteChains}). Read through {@link #of(Page)},
 * which decodes once per page object. The same stored form carries the page's {@link
 * CheckpointTimes}; writing either part keeps the other. Immutable.
 *
 * <p>Kept by full chain key here, but stored grouped by what the keys share but a lane number (an
 * incarnation's lanes, {@link StoredKey}), because an incarnation's id is most of a key's bytes
 * and a handle writes from several lanes: per lane only its number, counter and times are stored.
 * Pages written before keep one map of chains with times aligned by sorted key; both forms are
 * read, only the grouped one is written.
 *
 * @param counters per chain key, the highest counter applied
 * @param appliedMinutes per chain key (some may lack), when the chain last advanced, in minutes
 *     since the epoch
 * @param retired retired chains, oldest first
 * @param freeMinutes per chain key (some may lack), when a probe first found its writer's lease
 *     free, in minutes since the epoch
 * @param held per chain key (some may lack), the counters at most its counter whose records were
 *     not applied yet, ascending
 */
public record ChainState(
    Map<String, Long> counters,
    Map<String, Integer> appliedMinutes,
    List<Retired> retired,
    Map<String, Integer> freeMinutes,
    Map<String, List<Long>> held) {
  /**
   * A chain retired from the page: its key's hash ({@link String#hashCode()}) and the counter it
   * had reached, {@link #UNKNOWN_COUNTER} when it was retired before pages kept that.
   */
  public record Retired(int keyHash, long counter) {
    /** The counter of a chain retired without it. */
    public static final long UNKNOWN_COUNTER = 0;

    /** Whether the counter it had reached is known. */
    public boolean counterKnown() {
      return counter != UNKNOWN_COUNTER;
    }
  }

  /** No chains. */
  public static final ChainState EMPTY = new ChainState(Map.of(), Map.of(), List.of());

  /**
   * The one decoder of the queue protocols' state, so that pages memoize its result ({@link
   * Page#protocolState(Function)}) for both its parts: the chains here and the {@link
   * CheckpointTimes}.
   */
  static final Function<byte[], Stored> DECODER = ChainState::decode;

  /** The queue protocols' state of a page as stored: the chains and the checkpoint times. */
  record Stored(ChainState chains, CheckpointTimes times) {
    static final Stored EMPTY = new Stored(ChainState.EMPTY, CheckpointTimes.NEVER);
  }

  public ChainState {
    counters = Collections.unmodifiableMap(new HashMap<>(counters));
    appliedMinutes = onlyCounted(appliedMinutes, counters);
    freeMinutes = onlyCounted(freeMinutes, counters);
    retired = List.copyOf(retired);
    Map<String, List<Long>> h = new HashMap<>();
    for (Map.Entry<String, List<Long>> e : held.entrySet()) {
      if (counters.containsKey(e.getKey()) && !e.getValue().isEmpty()) {
        h.put(e.getKey(), List.copyOf(new TreeSet<>(e.getValue())));
      }
    }
    held = Collections.unmodifiableMap(h);
  }

  /** Chains holding no counters back. */
  public ChainState(
      Map<String, Long> counters,
      Map<String, Integer> appliedMinutes,
      List<Retired> retired,
      Map<String, Integer> freeMinutes) {
    this(counters, appliedMinutes, retired, freeMinutes, Map.of());
  }

  /** Chains without a writer lease found free, holding no counters back. */
  public ChainState(
      Map<String, Long> counters, Map<String, Integer> appliedMinutes, List<Retired> retired) {
    this(counters, appliedMinutes, retired, Map.of());
  }

  /** The entries of {@code times} whose key has a counter, and a time. */
  private static Map<String, Integer> onlyCounted(
      Map<String, Integer> times, Map<String, Long> counters) {
    Map<String, Integer> out = new HashMap<>();
    for (Map.Entry<String, Integer> e : times.entrySet()) {
      if (counters.containsKey(e.getKey()) && e.getValue() != 0) {
        out.put(e.getKey(), e.getValue());
      }
    }
    return Collections.unmodifiableMap(out);
  }

  /** The chain state of {@code page} (empty when it has none). */
  public static ChainState of(Page page) {
    ChainState stored = stored(page).chains();
    return WriteChains.anyKeyWithUri(stored.counters.keySet())
        ? stored.keyedFor(page.uri())
        : stored;
  }

  /** The queue protocols' state of {@code page} as stored. */
  static Stored stored(Page page) {
    try {
      return page.protocolState(DECODER);
    } catch (CorruptPageException e) {
      throw new CorruptPageException(page.uri(), e.getMessage(), e);
    }
  }

  /**
   * This state, read from the page at {@code uri}, with every key in its current form ({@link
   * WriteChains#currentKey}): data-page keys that carried the page's URI lose it, and those that
   * carried another page's (copies) are dropped with their times and held counters.
   */
  private ChainState keyedFor(String uri) {
    Map<String, Long> c = new HashMap<>();
    Map<String, Integer> applied = new HashMap<>();
    Map<String, Integer> free = new HashMap<>();
    Map<String, List<Long>> h = new HashMap<>();
    for (Map.Entry<String, Long> e : counters.entrySet()) {
      String stored = e.getKey();
      Optional<String> current = WriteChains.currentKey(stored, uri);
      if (current.isEmpty()) {
        continue;
      }
      String key = current.get();
      c.put(key, e.getValue());
      if (appliedMinutes.containsKey(stored)) {
        applied.put(key, appliedMinutes.get(stored));
      }
      if (freeMinutes.containsKey(stored)) {
        free.put(key, freeMinutes.get(stored));
      }
      if (held.containsKey(stored)) {
        h.put(key, held.get(stored));
      }
    }
    return new ChainState(c, applied, retired, free, h);
  }

  /** The highest counter of {@code key} applied here, 0 when none. */
  public long counter(String key) {
    return counters.getOrDefault(key, 0L);
  }

  /**
   * Whether the record with {@code counter} of chain {@code key} was applied here: the chain
   * reached it and does not hold it back.
   */
  public boolean applied(String key, long counter) {
    return counter(key) >= counter && !held.getOrDefault(key, List.of()).contains(counter);
  }

  /** {@code page} with this state, keeping its checkpoint times. */
  public Page writeTo(Page page) {
    return page.toBuilder().protocolState(encode(CheckpointTimes.of(page))).build();
  }

  /** This state with {@code counters} instead (chain times and held counters of other keys dropped). */
  public ChainState withCounters(Map<String, Long> newCounters) {
    return new ChainState(newCounters, appliedMinutes, retired, freeMinutes, held);
  }

  /** This state with {@code counters} and {@code held} counters instead. */
  public ChainState withCounters(Map<String, Long> newCounters, Map<String, List<Long>> newHeld) {
    return new ChainState(newCounters, appliedMinutes, retired, freeMinutes, newHeld);
  }

  /**
   * The stored form; empty bytes for no chains. Chains are stored in groups of the keys that share
   * all but a trailing lane number ({@link StoredKey}), so that an incarnation's lanes store its
   * id once; {@link HeaderSize} bounds the bytes this takes.
   */
  public byte[] encode() {
    return encode(CheckpointTimes.NEVER);
  }

  /** The stored form of this state with {@code times}; empty bytes for no chains and no times. */
  public byte[] encode(CheckpointTimes times) {
    if (counters.isEmpty() && retired.isEmpty() && times.equals(CheckpointTimes.NEVER)) {
      return new byte[0];
    }
    StoredChainState.Builder b =
        StoredChainState.newBuilder()
            .setLastCheckpointMillis(times.pageMillis())
            .setTreeCheckpointMillis(times.treeMillis());
    Map<String, TreeMap<Integer, String>> groups = new TreeMap<>();
    for (String key : counters.keySet()) {
      StoredKey k = StoredKey.of(key);
      groups.computeIfAbsent(k.prefix(), p -> new TreeMap<>()).put(k.lane(), key);
    }
    for (Map.Entry<String, TreeMap<Integer, String>> g : groups.entrySet()) {
      ChainGroup.Builder group = ChainGroup.newBuilder().setPrefix(g.getKey());
      boolean anyApplied = false;
      boolean anyFree = false;
      for (String key : g.getValue().values()) {
        anyApplied |= appliedMinutes.containsKey(key);
        anyFree |= freeMinutes.containsKey(key);
      }
      for (Map.Entry<Integer, String> lane : g.getValue().entrySet()) {
        String key = lane.getValue();
        group.addLanes(lane.getKey()).addCounters(counter(key));
        if (anyApplied) {
          group.addAppliedMinutes(appliedMinutes.getOrDefault(key, 0));
        }
        if (anyFree) {
          group.addFreeMinutes(freeMinutes.getOrDefault(key, 0));
        }
      }
      b.addGroups(group);
    }
    for (Map.Entry<String, List<Long>> h : new TreeMap<>(held).entrySet()) {
      b.addHeld(HeldCounters.newBuilder().setKey(h.getKey()).addAllCounters(h.getValue()));
    }
    for (Retired r : retired) {
      b.addRetired(r.keyHash()).addRetiredCounters(r.counter());
    }
    return b.build().toByteArray();
  }

  /**
   * A chain key as stored: the prefix it shares with its siblings and its lane number plus one, or
   * the whole key and 0 when it does not end in a lane number ({@code .} and a decimal number
   * without leading zeros, of at most nine digits). Keys of pages written before lanes, and
   * data-page keys that carried the page's URI, are stored whole.
   */
  record StoredKey(String prefix, int lane) {
    /** Digits a stored lane number has at most, so that it and one more fit an int. */
    private static final int MAX_LANE_DIGITS = 9;

    static StoredKey of(String key) {
      int dot = key.lastIndexOf('.');
      int digits = key.length() - dot - 1;
      if (dot < 0 || digits == 0 || digits > MAX_LANE_DIGITS) {
        return new StoredKey(key, 0);
      }
      for (int i = dot + 1; i < key.length(); i++) {
        char c = key.charAt(i);
        if (c < '0' || c > '9' || (c == '0' && i == dot + 1 && digits > 1)) {
          return new StoredKey(key, 0);
        }
      }
      return new StoredKey(key.substring(0, dot + 1), Integer.parseInt(key.substring(dot + 1)) + 1);
    }

    /** The key this stands for. */
    String key() {
      return lane == 0 ? prefix : prefix + (lane - 1);
    }
  }

  private static Stored decode(byte[] bytes) {
    if (bytes.length == 0) {
      return Stored.EMPTY;
    }
    StoredChainState stored;
    try {
      stored = StoredChainState.parseFrom(bytes);
    } catch (InvalidProtocolBufferException e) {
      throw unreadable("invalid protobuf: " + e.getMessage(), e);
    }
    // Pages written before chains were grouped keep them in one map, with times aligned by key.
    Map<String, Long> counters = new HashMap<>(stored.getCountersMap());
    Map<String, Integer> applied =
        byKey(stored.getCountersMap().keySet(), stored.getAppliedMinutesList());
    Map<String, Integer> free =
        byKey(stored.getCountersMap().keySet(), stored.getFreeMinutesList());
    for (ChainGroup g : stored.getGroupsList()) {
      int n = g.getLanesCount();
      if (g.getCountersCount() != n) {
        throw unreadable(
            "a chain group of " + n + " lanes has " + g.getCountersCount() + " counters");
      }
      for (int i = 0; i < n; i++) {
        String key = new StoredKey(g.getPrefix(), g.getLanes(i)).key();
        if (counters.put(key, g.getCounters(i)) != null) {
          throw unreadable("chain " + key + " is stored twice");
        }
        if (g.getAppliedMinutesCount() == n && g.getAppliedMinutes(i) != 0) {
          applied.put(key, g.getAppliedMinutes(i));
        }
        if (g.getFreeMinutesCount() == n && g.getFreeMinutes(i) != 0) {
          free.put(key, g.getFreeMinutes(i));
        }
      }
    }
    return new Stored(
        new ChainState(
            counters,
            applied,
            retired(stored.getRetiredList(), stored.getRetiredCountersList()),
            free,
            held(stored.getHeldList())),
        new CheckpointTimes(stored.getLastCheckpointMillis(), stored.getTreeCheckpointMillis()));
  }

  private static CorruptPageException unreadable(String why) {
    return new CorruptPageException("(protocol state)", "unreadable chain state: " + why);
  }

  private static CorruptPageException unreadable(String why, Exception cause) {
    return new CorruptPageException("(protocol state)", "unreadable chain state: " + why, cause);
  }

  /** Retired chains from their stored hashes and the aligned counters (unknown when not aligned). */
  private static List<Retired> retired(List<Integer> hashes, List<Long> counters) {
    List<Retired> retired = new ArrayList<>(hashes.size());
    for (int i = 0; i < hashes.size(); i++) {
      long counter = counters.size() == hashes.size() ? counters.get(i) : Retired.UNKNOWN_COUNTER;
      retired.add(new Retired(hashes.get(i), counter));
    }
    return retired;
  }

  private static Map<String, List<Long>> held(List<HeldCounters> stored) {
    Map<String, List<Long>> held = new HashMap<>();
    for (HeldCounters h : stored) {
      held.put(h.getKey(), h.getCountersList());
    }
    return held;
  }

  /** Times stored aligned with the ascending keys, by key; none when not aligned. */
  private static Map<String, Integer> byKey(Set<String> keys, List<Integer> minutes) {
    Map<String, Integer> times = new HashMap<>();
    if (minutes.size() == keys.size()) {
      int i = 0;
      for (String key : new TreeSet<>(keys)) {
        int m = minutes.get(i++);
        if (m != 0) {
          times.put(key, m);
        }
      }
    }
    return times;
  }
}
