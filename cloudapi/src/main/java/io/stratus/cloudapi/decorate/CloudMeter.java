package io.stratus.cloudapi.decorate;

import io.stratus.cloudapi.Operation;
import java.util.EnumMap;
import java.util.Map;
import java.util.concurrent.atomic.LongAdder;

/**
 * Counts Cloud API calls per {@link Operation}: calls, failures, payload bytes each way, and 64 KiB
 * request units. Fed by a {@link MeteringInterceptor}; read with {@link #snapshot()}, which can
 * then be priced under any {@link PriceTable}, so one run reports its cost under several tables.
 *
 * <p>Concurrency: lock-free. Every operation has its own {@link LongAdder}s, created up front in an
 * array (indexed by the operation's ordinal) that is never modified afterwards, so recording from many threads never contends on one
 * counter or on the array. A snapshot taken while calls are being recorded may see a call's count
 * without (yet) its bytes; snapshots taken while no call is completing are exact.
 */
public final class CloudMeter {
  /** The payload size that SQS bills as one request: 64 KiB. */
  public static final long UNIT_BYTES = 64 * 1024;

  private final Counters[] counters = new Counters[Operation.values().length];
  private final LongAdder calls = new LongAdder();

  public CloudMeter() {
    for (Operation op : Operation.values()) {
      counters[op.ordinal()] = new Counters();
    }
  }

  /** {@code max(1, ceil(bytes / 64 KiB))}: the request units of one call moving {@code bytes}. */
  public static long units64KiB(long bytes) {
    if (bytes < 0) {
      throw new IllegalArgumentException("bytes must not be negative: " + bytes);
    }
    return Math.max(1, (bytes + UNIT_BYTES - 1) / UNIT_BYTES);
  }

  /** Counts one completed call. */
  void record(Operation op, long bytesSent, long bytesReceived, boolean failed) {
    Counters c = counters[op.ordinal()];
    c.bytesSent.add(bytesSent);
    c.bytesReceived.add(bytesReceived);
    c.units.add(units64KiB(bytesSent + bytesReceived));
    if (failed) {
      c.failures.increment();
    }
    c.calls.increment();
    calls.increment();
  }

  /**
   * Adds counts taken elsewhere, e.g. to move the calls a scratch meter counted for one task to
   * the meter of the category the task turned out to belong to (known only when it has ended).
   */
  public void add(MeterSnapshot counts) {
    for (Map.Entry<Operation, OperationStats> e : counts.perOperation().entrySet()) {
      OperationStats s = e.getValue();
      if (s.calls() == 0 && s.bytesSent() == 0 && s.bytesReceived() == 0) {
        continue;
      }
      Counters c = counters[e.getKey().ordinal()];
      c.bytesSent.add(s.bytesSent());
      c.bytesReceived.add(s.bytesReceived());
      c.units.add(s.requestUnits64KiB());
      c.failures.add(s.failures());
      c.calls.add(s.calls());
      calls.add(s.calls());
    }
  }

  /**
   * Calls counted so far, of every operation: a cheap check (one counter) of whether anything was
   * counted since an earlier look, without taking a {@link #snapshot()}.
   */
  public long calls() {
    return calls.sum();
  }

  /** The counts so far, as an immutable value. */
  public MeterSnapshot snapshot() {
    Map<Operation, OperationStats> stats = new EnumMap<>(Operation.class);
    for (Operation op : Operation.values()) {
      Counters c = counters[op.ordinal()];
      stats.put(
          op,
          new OperationStats(
              c.calls.sum(),
              c.failures.sum(),
              c.bytesSent.sum(),
              c.bytesReceived.sum(),
              c.units.sum()));
    }
    return new MeterSnapshot(stats);
  }

  @Override
  public String toString() {
    return "CloudMeter" + snapshot();
  }

  private static final class Counters {
    final LongAdder calls = new LongAdder();
    final LongAdder failures = new LongAdder();
    final LongAdder bytesSent = new LongAdder();
    final LongAdder bytesReceived = new LongAdder();
    final LongAdder units = new LongAdder();
  }
}
