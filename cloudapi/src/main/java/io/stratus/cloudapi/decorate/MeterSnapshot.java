package io.stratus.cloudapi.decorate;

import io.stratus.cloudapi.Operation;
import java.math.BigDecimal;
import java.util.Collections;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;

/**
 * The counts of a {@link CloudMeter} at one moment, per {@link Operation}, and their price under a
 * {@link PriceTable}. Subtract an earlier snapshot ({@link #minus}) to get the counts and cost of
 * an interval, e.g. per benchmark phase or per web interaction.
 *
 * <p>Immutable and thread-safe. Every operation is present (with {@link OperationStats#ZERO} when
 * it was never called).
 */
public final class MeterSnapshot {
  private static final MeterSnapshot EMPTY = new MeterSnapshot(new EnumMap<>(Operation.class));

  private final Map<Operation, OperationStats> stats;

  MeterSnapshot(Map<Operation, OperationStats> stats) {
    EnumMap<Operation, OperationStats> all = new EnumMap<>(Operation.class);
    for (Operation op : Operation.values()) {
      all.put(op, stats.getOrDefault(op, OperationStats.ZERO));
    }
    this.stats = Collections.unmodifiableMap(all);
  }

  /** A snapshot with no calls. */
  public static MeterSnapshot empty() {
    return EMPTY;
  }

  /**
   * A snapshot holding {@code stats} (operations not in it count zero): counts taken elsewhere,
   * e.g. read back from where another process wrote them.
   */
  public static MeterSnapshot of(Map<Operation, OperationStats> stats) {
    return new MeterSnapshot(Objects.requireNonNull(stats, "stats"));
  }

  /** The counts of one operation. */
  public OperationStats stats(Operation op) {
    return stats.getOrDefault(Objects.requireNonNull(op, "op"), OperationStats.ZERO);
  }

  /** The counts of every operation, in {@link Operation} order. */
  public Map<Operation, OperationStats> perOperation() {
    return stats;
  }

  /** The counts of all operations together. */
  public OperationStats total() {
    OperationStats t = OperationStats.ZERO;
    for (OperationStats s : stats.values()) {
      t = t.plus(s);
    }
    return t;
  }

  /** The counts of one service's operations together. */
  public OperationStats total(Operation.Service service) {
    OperationStats t = OperationStats.ZERO;
    for (Map.Entry<Operation, OperationStats> e : stats.entrySet()) {
      if (e.getKey().service() == service) {
        t = t.plus(e.getValue());
      }
    }
    return t;
  }

  /** All calls, of every operation. */
  public long requests() {
    return total().calls();
  }

  /** The counts between {@code earlier} and this snapshot. */
  public MeterSnapshot minus(MeterSnapshot earlier) {
    Map<Operation, OperationStats> diff = new EnumMap<>(Operation.class);
    for (Operation op : Operation.values()) {
      diff.put(op, stats(op).minus(earlier.stats(op)));
    }
    return new MeterSnapshot(diff);
  }

  /** The counts of this snapshot and {@code other} together, e.g. of two meters. */
  public MeterSnapshot plus(MeterSnapshot other) {
    Map<Operation, OperationStats> sum = new EnumMap<>(Operation.class);
    for (Operation op : Operation.values()) {
      sum.put(op, stats(op).plus(other.stats(op)));
    }
    return new MeterSnapshot(sum);
  }

  /** Whether no call was counted. */
  public boolean isEmpty() {
    for (OperationStats s : stats.values()) {
      if (!s.equals(OperationStats.ZERO)) {
        return false;
      }
    }
    return true;
  }

  /** The exact cost in dollars under {@code table}: requests plus transfer. */
  public BigDecimal cost(PriceTable table) {
    BigDecimal sum = BigDecimal.ZERO;
    for (BigDecimal part : costBreakdown(table).values()) {
      sum = sum.add(part);
    }
    return sum;
  }

  /**
   * The exact cost in dollars per price class of {@code table} (in the table's order), then {@link
   * PriceTable#TRANSFER_IN} and {@link PriceTable#TRANSFER_OUT}. Compare amounts with {@code
   * compareTo}: their scales differ.
   */
  public Map<String, BigDecimal> costBreakdown(PriceTable table) {
    Map<String, Long> requests = new LinkedHashMap<>();
    for (PriceTable.PriceClass pc : table.priceClasses()) {
      requests.put(pc.name(), 0L);
    }
    for (Map.Entry<Operation, OperationStats> e : stats.entrySet()) {
      PriceTable.PriceClass pc = table.priceClass(e.getKey());
      long n =
          pc.billing() == PriceTable.Billing.PER_CALL
              ? e.getValue().calls()
              : e.getValue().requestUnits64KiB();
      requests.merge(pc.name(), n, Long::sum);
    }
    Map<String, BigDecimal> cost = new LinkedHashMap<>();
    for (PriceTable.PriceClass pc : table.priceClasses()) {
      long n = requests.getOrDefault(pc.name(), 0L);
      cost.put(pc.name(), pc.pricePerRequest().multiply(BigDecimal.valueOf(n)));
    }
    OperationStats t = total();
    cost.put(
        PriceTable.TRANSFER_IN, PriceTable.transferCost(t.bytesSent(), table.transferInPerGb()));
    cost.put(
        PriceTable.TRANSFER_OUT,
        PriceTable.transferCost(t.bytesReceived(), table.transferOutPerGb()));
    return Collections.unmodifiableMap(cost);
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof MeterSnapshot && ((MeterSnapshot) o).stats.equals(stats);
  }

  @Override
  public int hashCode() {
    return stats.hashCode();
  }

  @Override
  public String toString() {
    StringBuilder sb = new StringBuilder("{");
    for (Map.Entry<Operation, OperationStats> e : stats.entrySet()) {
      if (e.getValue().calls() != 0) {
        sb.append(sb.length() > 1 ? ", " : "").append(e.getKey()).append('=').append(e.getValue());
      }
    }
    return sb.append('}').toString();
  }
}
