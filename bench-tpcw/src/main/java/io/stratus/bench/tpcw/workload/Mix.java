package io.stratus.bench.tpcw.workload;

import java.util.EnumMap;
import java.util.Locale;
import java.util.Map;

/**
 * The three TPC-W workload mixes and the share of each interaction in their steady state, in per
 * cent (specification 1.8, clause 5.2.1). The emulator reaches these shares by walking the mix's
 * transition matrix; the shares are what its statistics are checked against.
 */
public enum Mix {
  BROWSING(
      new double[] {
        29.00, 11.00, 11.00, 21.00, 12.00, 11.00, 2.00, 0.82, 0.75, 0.69, 0.30, 0.25, 0.10, 0.09
      }),
  SHOPPING(
      new double[] {
        16.00, 5.00, 5.00, 17.00, 20.00, 17.00, 11.60, 3.00, 2.60, 1.20, 0.75, 0.66, 0.10, 0.09
      }),
  ORDERING(
      new double[] {
        9.12, 0.46, 0.46, 12.35, 14.53, 13.08, 13.53, 12.86, 12.73, 10.18, 0.25, 0.22, 0.12, 0.11
      });

  private final Map<Interaction, Double> percent = new EnumMap<>(Interaction.class);

  Mix(double[] shares) {
    Interaction[] all = Interaction.values();
    for (int i = 0; i < all.length; i++) {
      percent.put(all[i], shares[i]);
    }
  }

  /** The interaction's steady-state share of this mix, in per cent. */
  public double percent(Interaction wi) {
    return percent.get(wi);
  }

  /** Parses "browsing", "shopping" or "ordering" (any case). */
  public static Mix parse(String name) {
    try {
      return valueOf(name.trim().toUpperCase(Locale.ROOT));
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException(
          "unknown mix '" + name + "' (expected browsing, shopping or ordering)");
    }
  }

  /** Lower-case name, as on the command line. */
  public String id() {
    return name().toLowerCase(Locale.ROOT);
  }
}
