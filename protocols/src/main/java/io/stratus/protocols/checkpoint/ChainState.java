package io.stratus.protocols.checkpoint;

import com.google.protobuf.InvalidProtocolBufferException;
import io.stratus.CorruptPageException;
import io.stratus.pagemanager.Page;
import io.stratus.protocols.checkpoint.proto.StoredChainState;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import java.util.function.Function;

/**
 * The queue protocols' state in a page, kept in the page's opaque protocol state ({@code
 * chain_state.proto}): per chain key ({@link WriteChains#key}), the highest counter applied; when
 * each chain last advanced; and hashes of retired chain keys. Read through {@link #of(Page)},
 * which decodes once per page object. Immutable.
 *
 * @param counters per chain key, the highest counter applied
 * @param appliedMinutes per chain key (some may lack), when the chain last advanced, in minutes
 *     since the epoch
 * @param retired hashes of retired chain keys, oldest first
 */
public record ChainState(Map<String, Long> counters, Map<String, Integer> appliedMinutes,
    List<Integer> retired) {
  /** No chains. */
  public static final ChainState EMPTY = new ChainState(Map.of(), Map.of(), List.of());

  /** The one decoder, so that pages memoize its result ({@link Page#protocolState(Function)}). */
  private static final Function<byte[], ChainState> DECODER = ChainState::decode;

  public ChainState {
    counters = Collections.unmodifiableMap(new HashMap<>(counters));
    Map<String, Integer> times = new HashMap<>();
    for (Map.Entry<String, Integer> e : appliedMinutes.entrySet()) {
      if (counters.containsKey(e.getKey())) { // only keys that have a counter
        times.put(e.getKey(), e.getValue());
      }
    }
    appliedMinutes = Collections.unmodifiableMap(times);
    retired = List.copyOf(retired);
  }

  /** The chain state of {@code page} (empty when it has none). */
  public static ChainState of(Page page) {
    try {
      return page.protocolState(DECODER);
    } catch (CorruptPageException e) {
      throw new CorruptPageException(page.uri(), e.getMessage(), e);
    }
  }

  /** The highest counter of {@code key} applied here, 0 when none. */
  public long counter(String key) {
    return counters.getOrDefault(key, 0L);
  }

  /** {@code page} with this state. */
  public Page writeTo(Page page) {
    return page.toBuilder().protocolState(encode()).build();
  }

  /** This state with {@code counters} instead (chain times of other keys dropped). */
  public ChainState withCounters(Map<String, Long> newCounters) {
    return new ChainState(newCounters, appliedMinutes, retired);
  }

  /** The stored form; empty bytes for no chains. */
  public byte[] encode() {
    if (counters.isEmpty() && retired.isEmpty()) {
      return new byte[0];
    }
    StoredChainState.Builder b = StoredChainState.newBuilder().putAllCounters(counters);
    if (!appliedMinutes.isEmpty()) {
      for (String key : new TreeSet<>(counters.keySet())) {
        b.addAppliedMinutes(appliedMinutes.getOrDefault(key, 0));
      }
    }
    return b.addAllRetired(retired).build().toByteArray();
  }

  private static ChainState decode(byte[] bytes) {
    if (bytes.length == 0) {
      return EMPTY;
    }
    StoredChainState stored;
    try {
      stored = StoredChainState.parseFrom(bytes);
    } catch (InvalidProtocolBufferException e) {
      throw new CorruptPageException("(protocol state)", "unreadable chain state: "
          + e.getMessage(), e);
    }
    Map<String, Integer> times = new HashMap<>();
    List<Integer> minutes = stored.getAppliedMinutesList();
    if (minutes.size() == stored.getCountersCount()) {
      int i = 0;
      for (String key : new TreeSet<>(stored.getCountersMap().keySet())) {
        int m = minutes.get(i++);
        if (m != 0) {
          times.put(key, m);
        }
      }
    }
    return new ChainState(stored.getCountersMap(), times, stored.getRetiredList());
  }
}
