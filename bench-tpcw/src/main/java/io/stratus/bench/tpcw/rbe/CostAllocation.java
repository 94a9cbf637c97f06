package io.stratus.bench.tpcw.rbe;

import io.stratus.bench.tpcw.workload.Interaction;
import io.stratus.cloudapi.decorate.MeterSnapshot;
import io.stratus.cloudapi.decorate.PriceTable;
import java.util.EnumMap;
import java.util.Map;

/**
 * Charges the cloud usage of the measurement interval to the interactions: each pays its own calls
 * (what {@link InteractionAttribution} metered on its thread), and the update interactions that
 * wrote also pay the background calls of the interval, in proportion to the records they wrote.
 *
 * <p>Why that rule: background calls in a Stratus run are checkpoints (which apply exactly the
 * records that committed update interactions sent to the pending-update queues) and the atomic
 * protocol's propagation of committed log records; both scale with the records written and exist
 * only because of them. So interaction i gets the fraction {@code W_i / W} of the background,
 * where {@code W_i} is the records written by its measured interactions that reported {@code
 * wrote} and {@code W} the sum over all update interactions. Interactions that wrote nothing get
 * no share; when nothing was written ({@code W = 0}) no background is allocated at all, and the
 * report shows it only as its own total. The background of the interval is what started in it,
 * which is an approximation at both ends: a checkpoint of the warm-up's writes that runs in the
 * interval is charged to it, one of the interval's writes that runs after it is not; over an
 * interval of several checkpoint intervals the two nearly cancel.
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
   * The fraction of the background each interaction pays: {@code W_i / W} for update interactions
   * (zero for the others and for all when {@code W = 0}).
   *
   * @param recordsWritten per interaction, the records written by its measured interactions that
   *     reported {@code wrote}
   */
  static Map<Interaction, Double> backgroundShares(Map<Interaction, Long> recordsWritten) {
    long total = 0;
    for (Interaction wi : Interaction.values()) {
      if (wi.isUpdate()) {
        total += recordsWritten.getOrDefault(wi, 0L);
      }
    }
    Map<Interaction, Double> shares = new EnumMap<>(Interaction.class);
    for (Interaction wi : Interaction.values()) {
      long w = wi.isUpdate() ? recordsWritten.getOrDefault(wi, 0L) : 0;
      shares.put(wi, total == 0 ? 0.0 : (double) w / total);
    }
    return shares;
  }

  /** Each interaction's own calls plus its share of {@code background}, in total. */
  static Map<Interaction, Charge> charges(
      Map<Interaction, MeterSnapshot> direct, MeterSnapshot background,
      Map<Interaction, Long> recordsWritten, PriceTable paper, PriceTable today) {
    Charge backgroundCharge = Charge.of(background, paper, today);
    Map<Interaction, Double> shares = backgroundShares(recordsWritten);
    Map<Interaction, Charge> charges = new EnumMap<>(Interaction.class);
    for (Interaction wi : Interaction.values()) {
      MeterSnapshot own = direct.getOrDefault(wi, MeterSnapshot.empty());
      charges.put(wi, Charge.of(own, paper, today).plus(backgroundCharge.times(shares.get(wi))));
    }
    return charges;
  }
}
