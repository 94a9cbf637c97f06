package io.stratus.protocols.checkpoint;

import static com.google.protobuf.CodedOutputStream.computeUInt32SizeNoTag;
import static com.google.protobuf.CodedOutputStream.computeUInt64SizeNoTag;

import io.stratus.pagemanager.Page;
import java.nio.charset.StandardCharsets;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The bytes a chain state takes in a page ({@link ChainState#encode()} and the page's field for
 * it), at most, as chains start and hold counters during one checkpoint ({@link WriteChains}): a
 * header budget is kept by adding these up, so each must be an upper bound of what the encoding
 * produces, and close to it, since a 1 KB page's header holds only a few hundred bytes.
 *
 * <p>Why it follows the encoding's structure rather than a fixed cost per chain: chains are stored
 * in groups that share the beginning of their keys (the lanes of one incarnation), so the cost of
 * starting a chain depends on whether its group is there already — a few bytes for another lane,
 * the group's framing and the incarnation's bytes for the first. Values are bounded by widths given
 * up front (every counter at most so many varint bytes, every time too), which a checkpoint knows:
 * its chains reach no counter beyond its records' and the header's, and no time beyond now's and
 * the header's.
 *
 * <p>Not thread-safe: one per checkpoint pass.
 */
final class HeaderSize {
  /** Bytes of a field's tag (every field number is below 16). */
  private static final int TAG = 1;

  /** Varint bytes a time in minutes takes at most (an unsigned 32-bit value). */
  static final int ANY_MINUTES = 5;

  private final int counterBytes;
  private final int minuteBytes;

  /** Per key prefix ({@link ChainState.StoredKey}), its group. */
  private final Map<String, Group> groups = new HashMap<>();

  /** The chain keys in the header. */
  private final Set<String> keys = new HashSet<>();

  /** Per chain key holding counters, how many. */
  private final Map<String, Integer> held = new HashMap<>();

  private int groupBytes;
  private int heldBytes;
  private final int retiredBytes;

  /** A group's chains: how many, their lane numbers' bytes, whether free times are stored. */
  private static final class Group {
    final int prefixBytes;
    final boolean free;
    int lanes;
    int laneBytes;

    Group(int prefixBytes, boolean free) {
      this.prefixBytes = prefixBytes;
      this.free = free;
    }
  }

  /**
   * The bound of a header holding {@code counters}' chains, where the chains of {@code free} keep
   * free-lease times (a group stores them for all its chains once one has any), {@code held} hold
   * counters and {@code retired} are retired.
   *
   * @param counterBytes varint bytes each counter (chain, held or retired) takes at most
   * @param minuteBytes varint bytes each time takes at most
   */
  HeaderSize(
      Set<String> counters,
      Set<String> free,
      Map<String, ? extends Collection<Long>> held,
      List<ChainState.Retired> retired,
      int counterBytes,
      int minuteBytes) {
    this.counterBytes = counterBytes;
    this.minuteBytes = minuteBytes;
    Set<String> freeGroups = new HashSet<>();
    for (String key : free) {
      if (counters.contains(key)) {
        freeGroups.add(ChainState.StoredKey.of(key).prefix());
      }
    }
    for (String key : counters) {
      ChainState.StoredKey k = ChainState.StoredKey.of(key);
      groups.computeIfAbsent(k.prefix(), p -> new Group(utf8(p), freeGroups.contains(p)));
      put(key, 0);
    }
    for (Map.Entry<String, ? extends Collection<Long>> e : held.entrySet()) {
      if (counters.contains(e.getKey())) {
        put(e.getKey(), e.getValue().size());
      }
    }
    int r = 0;
    if (!retired.isEmpty()) {
      int counterSum = 0;
      for (ChainState.Retired gone : retired) {
        counterSum += computeUInt64SizeNoTag(gone.counter());
      }
      r = field(4 * retired.size()) + field(counterSum);
    }
    retiredBytes = r;
  }

  /** The bound of {@code state}, with widths taken from its own values. */
  static HeaderSize of(ChainState state) {
    long maxCounter = 0;
    for (long c : state.counters().values()) {
      maxCounter = maxUnsigned(maxCounter, c);
    }
    for (List<Long> h : state.held().values()) {
      for (long c : h) {
        maxCounter = maxUnsigned(maxCounter, c);
      }
    }
    int maxMinutes = 0;
    for (int m : state.appliedMinutes().values()) {
      maxMinutes = Integer.compareUnsigned(m, maxMinutes) > 0 ? m : maxMinutes;
    }
    for (int m : state.freeMinutes().values()) {
      maxMinutes = Integer.compareUnsigned(m, maxMinutes) > 0 ? m : maxMinutes;
    }
    return new HeaderSize(
        state.counters().keySet(),
        state.freeMinutes().keySet(),
        state.held(),
        state.retired(),
        computeUInt64SizeNoTag(maxCounter),
        computeUInt32SizeNoTag(maxMinutes));
  }

  /** The larger of two counters, as the unsigned values they are stored as. */
  static long maxUnsigned(long a, long b) {
    return Long.compareUnsigned(a, b) >= 0 ? a : b;
  }

  /** The bytes, at most. */
  int bytes() {
    return total(keys.size(), groupBytes, heldBytes);
  }

  /**
   * The bytes, at most, once chain {@code key} is in the header holding {@code heldCounters}
   * counters (instead of those it holds now).
   */
  int bytesWith(String key, int heldCounters) {
    int chains = keys.size();
    int g = groupBytes;
    if (!keys.contains(key)) {
      chains++;
      ChainState.StoredKey k = ChainState.StoredKey.of(key);
      Group group = groups.get(k.prefix());
      int laneBytes = computeUInt32SizeNoTag(k.lane());
      g +=
          group == null
              ? bytes(utf8(k.prefix()), false, 1, laneBytes)
              : bytes(group.prefixBytes, group.free, group.lanes + 1, group.laneBytes + laneBytes)
                  - bytes(group);
    }
    return total(chains, g, heldBytes + heldDelta(key, heldCounters));
  }

  /** Takes chain {@code key} into the header (if not there yet), holding {@code heldCounters}. */
  void put(String key, int heldCounters) {
    if (keys.add(key)) {
      ChainState.StoredKey k = ChainState.StoredKey.of(key);
      Group g = groups.computeIfAbsent(k.prefix(), p -> new Group(utf8(p), false));
      groupBytes -= bytes(g);
      g.lanes++;
      g.laneBytes += computeUInt32SizeNoTag(k.lane());
      groupBytes += bytes(g);
    }
    heldBytes += heldDelta(key, heldCounters);
    if (heldCounters == 0) {
      held.remove(key);
    } else {
      held.put(key, heldCounters);
    }
  }

  private int heldDelta(String key, int heldCounters) {
    Integer now = held.get(key);
    return (heldCounters == 0 ? 0 : heldBytes(key, heldCounters))
        - (now == null ? 0 : heldBytes(key, now));
  }

  private int total(int chains, int g, int h) {
    return chains == 0 && retiredBytes == 0
        ? 0
        : Page.PROTOCOL_STATE_OVERHEAD + g + h + retiredBytes;
  }

  private int bytes(Group g) {
    return bytes(g.prefixBytes, g.free, g.lanes, g.laneBytes);
  }

  /** A group: its prefix, lane numbers, counters, applied times and, if kept, free times. */
  private int bytes(int prefixBytes, boolean free, int lanes, int laneBytes) {
    if (lanes == 0) {
      return 0;
    }
    int inner =
        (prefixBytes == 0 ? 0 : field(prefixBytes))
            + field(laneBytes)
            + field(lanes * counterBytes)
            + field(lanes * minuteBytes)
            + (free ? field(lanes * minuteBytes) : 0);
    return field(inner);
  }

  /** A chain's held counters: its key and the counters. */
  private int heldBytes(String key, int counters) {
    return field(field(utf8(key)) + field(counters * counterBytes));
  }

  /** A length-delimited field of {@code length} bytes: tag, length, contents. */
  private static int field(int length) {
    return TAG + computeUInt32SizeNoTag(length) + length;
  }

  private static int utf8(String s) {
    return s.getBytes(StandardCharsets.UTF_8).length;
  }
}
