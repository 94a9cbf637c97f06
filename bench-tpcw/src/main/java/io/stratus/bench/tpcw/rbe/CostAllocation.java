package io.stratus.bench.tpcw.rbe;

import io.stratus.bench.tpcw.workload.Interaction;
import io.stratus.cloudapi.decorate.MeterSnapshot;
import io.stratus.cloudapi.decorate.PriceTable;
import java.util.EnumMap;
import java.util.Map;

/**
 * The rule that charges the background usage of a measurement interval to the interactions: each
 * interaction that wrote pays a share in proportion to the records it wrote; its own calls it pays
 * anyway (what {@link InteractionAttribution} metered on its thread).
 *
 * <p>Why that rule: background calls in a Stratus run are checkpoints (which apply exactly the
 * records that committed interactions sent to the pending-update queues) and the atomic protocols'
 * propagation of committed log records; both scale with the records written and exist only
 * because of them. So interaction i gets the fraction {@code W_i / W} of the background, where
 * {@code W_i} is the records written by its measured interactions that reported {@code wrote} and
 * {@code W} the sum over all interactions. Interactions that wrote nothing get no share; when
 * nothing was written ({@code W = 0}) no background is allocated at all, and the report shows it
 * only as its own total.
 */
final class CostAllocation {
  private CostAllocation() {}

  /** Calls and dollars (under the two price tables) charged to one interaction, in total. */
  record Charge(double requests, double dollarsPaper, double dollarsToday) {
    static final Charge NONE = new Charge(0, 0, 0);

    Charge plus(Charge o) {
      return new Charge(
          requests + o.requests, dollarsPaper + o.dollarsPaper, dollarsToday + o.dollarsToday);
    }

    Charge times(double factor) {
      return new Charge(requests * factor, dollarsPaper * factor, dollarsToday * factor);
    }

    static Charge of(MeterSnapshot usage, PriceTable paper, PriceTable today) {
      return new Charge(
          usage.requests(), usage.cost(paper).doubleValue(), usage.cost(today).doubleValue());
    }
  }

  /**
   * The fraction of the background each interaction pays: {@code W_i / W} (zero for all when
   * {@code W = 0}).
   *
   * @param recordsWritten per interaction, the records written by its measured interactions that
   *     reported {@code wrote}
   */
  static Map<Interaction, Double> backgroundShares(Map<Interaction, Long> recordsWritten) {
    long total = 0;
    for (Interaction wi : Interaction.values()) {
      total += recordsWritten.getOrDefault(wi, 0L);
    }
    Map<Interaction, Double> shares = new EnumMap<>(Interaction.class);
    for (Interaction wi : Interaction.values()) {
      long w = recordsWritten.getOrDefault(wi, 0L);
      shares.put(wi, total == 0 ? 0.0 : (double) w / total);
    }
    return shares;
  }
}
