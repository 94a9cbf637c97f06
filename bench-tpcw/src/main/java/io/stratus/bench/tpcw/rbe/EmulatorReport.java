package io.stratus.bench.tpcw.rbe;

import io.stratus.bench.tpcw.rbe.BrowserTally.Counts;
import io.stratus.bench.tpcw.rbe.CostAllocation.Charge;
import io.stratus.bench.tpcw.rbe.InteractionAttribution.Ending;
import io.stratus.bench.tpcw.workload.Interaction;
import io.stratus.bench.tpcw.workload.Mix;
import io.stratus.bench.tpcw.workload.ResponseStats;
import io.stratus.cloudapi.decorate.MeterSnapshot;
import io.stratus.cloudapi.decorate.PriceTable;
import java.util.Collections;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.function.IntPredicate;
import org.HdrHistogram.Histogram;

/**
 * What one emulator run measured over its measurement interval: response times, counts, errors,
 * work and staleness per interaction and per group, throughput, and cloud usage per interaction.
 *
 * <p>Which interactions count: those that started in the measurement interval (whenever they
 * ended). Response-time statistics cover the completed ones; {@link ResponseStats#errors()} counts
 * the failed ones. The observed mix is the completed counts' shares ({@link #observedPercent}).
 *
 * <p>Groups are by what an interaction did in the run, not by what it may do: "update" holds the
 * completed interactions that committed a write, "read" those that wrote nothing (a Shopping Cart
 * that only showed the cart, a Customer Registration, which writes nothing). A failed interaction
 * counts in the group of what its interaction may do ({@link Interaction#isUpdate()}).
 *
 * <p>Cloud usage per interaction: {@link ResponseStats#requestsPerInteraction()} and the
 * milli-dollars are (the interactions' own calls + their share of the background) / (completed +
 * failed interactions), since failed interactions made calls too. Own calls are those {@link
 * InteractionAttribution} metered on the browser's thread, kept per ending (wrote, read only,
 * failed), so each group pays exactly its own calls. The background charged to the interval is
 * what started in it plus what started after it until the run ended, which includes the drain
 * (the checkpoint of everything the interval left queued, run by the emulator's {@link
 * Emulator.Builder#drain drain}): so every record the interval committed is paid for. Background
 * calls of a Stratus run are checkpoints, which apply exactly the records that committed update
 * interactions queued, and the atomic protocols' propagation of committed records; both scale
 * with the records written. So interaction i pays the fraction {@code W_i / W} of that
 * background, where {@code W_i} is the records written by its measured interactions that wrote
 * and {@code W} their sum over all interactions; interactions that wrote nothing pay none, and
 * when {@code W = 0} nothing is allocated. One approximation remains at the start: a checkpoint of
 * warm-up writes that runs in the interval is charged to the interval. {@link #background()} and
 * {@link #drain()} give the background as totals, {@link Work#backgroundShare()} each
 * interaction's fraction, {@link #directUsage()} each interaction's own calls.
 *
 * <p>Immutable.
 */
public final class EmulatorReport {
  /** Error samples kept in all. */
  public static final int MAX_ERROR_SAMPLES = 20;

  private final Mix mix;
  private final int ebs;
  private final double measuredSeconds;
  private final Map<Interaction, ResponseStats> perInteraction;
  private final ResponseStats read;
  private final ResponseStats update;
  private final ResponseStats total;
  private final Map<Interaction, Work> work;
  private final Map<Interaction, Histogram> histograms;
  private final Map<Interaction, MeterSnapshot> directUsage;
  private final MeterSnapshot background;
  private final MeterSnapshot drain;
  private final MeterSnapshot warmUpUsage;
  private final MeterSnapshot warmUpBackground;
  private final double backgroundMilliDollarsPaper;
  private final double backgroundMilliDollarsToday;
  private final long warmUpInteractions;
  private final List<String> errorSamples;
  private final int unfinishedBrowsers;

  /**
   * Per interaction, what its measured interactions reported doing.
   *
   * @param recordsRead records read by the completed interactions
   * @param recordsWritten records they wrote
   * @param retries commits they retried
   * @param wrote completed interactions that committed at least one write
   * @param backgroundShare the fraction of the background usage charged to this interaction
   */
  public record Work(
      long recordsRead, long recordsWritten, long retries, long wrote, double backgroundShare) {}

  private EmulatorReport(Builder b) {
    this.mix = b.mix;
    this.ebs = b.ebs;
    this.measuredSeconds = b.measuredSeconds;
    this.perInteraction = Collections.unmodifiableMap(b.perInteraction);
    this.read = b.read;
    this.update = b.update;
    this.total = b.total;
    this.work = Collections.unmodifiableMap(b.work);
    this.histograms = Collections.unmodifiableMap(b.histograms);
    this.directUsage = Collections.unmodifiableMap(b.directUsage);
    this.background = b.background;
    this.drain = b.drain;
    this.warmUpUsage = b.warmUpUsage;
    this.warmUpBackground = b.warmUpBackground;
    this.backgroundMilliDollarsPaper = b.backgroundMilliDollarsPaper;
    this.backgroundMilliDollarsToday = b.backgroundMilliDollarsToday;
    this.warmUpInteractions = b.warmUpInteractions;
    this.errorSamples = List.copyOf(b.errorSamples);
    this.unfinishedBrowsers = b.unfinishedBrowsers;
  }

  /** The mix the browsers followed. */
  public Mix mix() {
    return mix;
  }

  /** The number of emulated browsers. */
  public int ebs() {
    return ebs;
  }

  /** Per interaction, in {@link Interaction} order; interactions that never ran have count 0. */
  public Map<Interaction, ResponseStats> perInteraction() {
    return perInteraction;
  }

  /** The read interactions together ({@code !isUpdate()}). */
  public ResponseStats read() {
    return read;
  }

  /** The update interactions together. */
  public ResponseStats update() {
    return update;
  }

  /** All interactions together. */
  public ResponseStats total() {
    return total;
  }

  /** Web interactions per second: completed measured interactions / {@link #measuredSeconds()}. */
  public double interactionsPerSecond() {
    return measuredSeconds > 0 ? total.count() / measuredSeconds : 0;
  }

  /**
   * The length of the measurement interval in seconds: as configured, or shorter when the run
   * ended early (test mode's interaction budget, a stop).
   */
  public double measuredSeconds() {
    return measuredSeconds;
  }

  /** Completed measured interactions of {@code interaction}. */
  public long count(Interaction interaction) {
    return perInteraction.get(interaction).count();
  }

  /** The observed mix: each interaction's share of the completed measured ones, in per cent. */
  public Map<Interaction, Double> observedPercent() {
    Map<Interaction, Double> m = new EnumMap<>(Interaction.class);
    long all = total.count();
    for (Interaction wi : Interaction.values()) {
      m.put(wi, all == 0 ? 0.0 : 100.0 * count(wi) / all);
    }
    return Collections.unmodifiableMap(m);
  }

  /** Per interaction, the records and retries its measured interactions reported. */
  public Map<Interaction, Work> work() {
    return work;
  }

  /** Per interaction, a copy of its response-time histogram, in microseconds. */
  public Histogram responseMicros(Interaction interaction) {
    return histograms.get(interaction).copy();
  }

  /** Per interaction, the calls its measured interactions made themselves (no background). */
  public Map<Interaction, MeterSnapshot> directUsage() {
    return directUsage;
  }

  /**
   * The background calls charged to the measurement interval (checkpoints, propagation): those
   * started in it and those started after it until the run ended ({@link #drain()} included).
   */
  public MeterSnapshot background() {
    return background;
  }

  /**
   * The part of {@link #background()} started after the measurement interval: the browsers' last
   * interactions' background work and the drain of what the interval left queued.
   */
  public MeterSnapshot drain() {
    return drain;
  }

  /** All background requests charged to the measurement interval. */
  public long backgroundRequests() {
    return background.requests();
  }

  /** Their cost in milli-dollars under the first (paper's) price table. */
  public double backgroundMilliDollars2008() {
    return backgroundMilliDollarsPaper;
  }

  /** Their cost in milli-dollars under the second (today's) price table. */
  public double backgroundMilliDollars2026() {
    return backgroundMilliDollarsToday;
  }

  /** The calls the warm-up's interactions made (not measured, not in any per-interaction cost). */
  public MeterSnapshot warmUpUsage() {
    return warmUpUsage;
  }

  /** The background calls started during the warm-up (not allocated to any interaction). */
  public MeterSnapshot warmUpBackground() {
    return warmUpBackground;
  }

  /** Interactions executed (or failed) in the warm-up, not measured. */
  public long warmUpInteractions() {
    return warmUpInteractions;
  }

  /**
   * The first few errors, as "[(warm-up) ]Interaction label: exception class: message", at most 5
   * per browser and {@value #MAX_ERROR_SAMPLES} in all.
   */
  public List<String> errorSamples() {
    return errorSamples;
  }

  /** Browsers still running when the emulator stopped waiting for them (0 normally). */
  public int unfinishedBrowsers() {
    return unfinishedBrowsers;
  }

  @Override
  public String toString() {
    return String.format(
        java.util.Locale.ROOT,
        "EmulatorReport[%s, %d EBs, %.1f s, %.1f interactions/s, total %s]",
        mix.id(),
        ebs,
        measuredSeconds,
        interactionsPerSecond(),
        total);
  }

  // ---------------------------------------------------------------------------------------------

  /** Assembles a report from the merged tallies and the run's usage. */
  static final class Builder {
    private Mix mix;
    private int ebs;
    private double measuredSeconds;
    private final Map<Interaction, ResponseStats> perInteraction = new EnumMap<>(Interaction.class);
    private ResponseStats read;
    private ResponseStats update;
    private ResponseStats total;
    private final Map<Interaction, Work> work = new EnumMap<>(Interaction.class);
    private final Map<Interaction, Histogram> histograms = new EnumMap<>(Interaction.class);
    private Map<Interaction, MeterSnapshot> directUsage;
    private MeterSnapshot background;
    private MeterSnapshot drain;
    private MeterSnapshot warmUpUsage;
    private MeterSnapshot warmUpBackground;
    private double backgroundMilliDollarsPaper;
    private double backgroundMilliDollarsToday;
    private long warmUpInteractions;
    private List<String> errorSamples;
    private int unfinishedBrowsers;

    static EmulatorReport build(
        Mix mix,
        int ebs,
        double measuredSeconds,
        Counts[] slots,
        Histogram[] histograms,
        InteractionAttribution.Usage usage,
        PriceTable paper,
        PriceTable today,
        long warmUpInteractions,
        List<String> errorSamples,
        int unfinishedBrowsers) {
      Builder b = new Builder();
      b.mix = mix;
      b.ebs = ebs;
      b.measuredSeconds = measuredSeconds;
      b.warmUpInteractions = warmUpInteractions;
      b.errorSamples = errorSamples.subList(0, Math.min(MAX_ERROR_SAMPLES, errorSamples.size()));
      b.unfinishedBrowsers = unfinishedBrowsers;
      b.directUsage = usage.directPerInteraction();
      b.drain = usage.backgroundAfter();
      b.background = usage.backgroundMeasure().plus(b.drain);
      b.warmUpUsage = usage.warmUp();
      b.warmUpBackground = usage.backgroundWarmUp();

      Map<Interaction, Long> written = new EnumMap<>(Interaction.class);
      for (Interaction wi : Interaction.values()) {
        written.put(wi, slots[Slots.of(wi, true)].recordsWrittenByWriters);
      }
      Map<Interaction, Double> shares = CostAllocation.backgroundShares(written);
      Charge backgroundCharge = Charge.of(b.background, paper, today);
      b.backgroundMilliDollarsPaper = backgroundCharge.dollarsPaper() * 1000;
      b.backgroundMilliDollarsToday = backgroundCharge.dollarsToday() * 1000;
      Charge[] charges = new Charge[Slots.COUNT];
      for (int slot = 0; slot < Slots.COUNT; slot++) {
        Interaction wi = Slots.interaction(slot);
        boolean wrote = Slots.wrote(slot);
        MeterSnapshot own =
            wrote ? usage.direct(wi, Ending.WROTE) : usage.direct(wi, Ending.READ_ONLY);
        if (Slots.failed(wi) == slot) {
          own = own.plus(usage.direct(wi, Ending.FAILED));
        }
        Charge c = Charge.of(own, paper, today);
        charges[slot] = wrote ? c.plus(backgroundCharge.times(shares.get(wi))) : c;
      }

      for (Interaction wi : Interaction.values()) {
        int reads = Slots.of(wi, false);
        int writes = Slots.of(wi, true);
        b.perInteraction.put(
            wi,
            group(wi.label(), slots, histograms, charges, slot -> slot == reads || slot == writes));
        Counts c = new Counts();
        c.add(slots[reads]);
        c.add(slots[writes]);
        b.work.put(
            wi, new Work(c.recordsRead, c.recordsWritten, c.retries, c.wrote, shares.get(wi)));
        Histogram h = new Histogram(3);
        h.add(histograms[reads]);
        h.add(histograms[writes]);
        b.histograms.put(wi, h);
      }
      b.read = group("read", slots, histograms, charges, slot -> !Slots.wrote(slot));
      b.update = group("update", slots, histograms, charges, Slots::wrote);
      b.total = group("total", slots, histograms, charges, slot -> true);
      return new EmulatorReport(b);
    }

    private static ResponseStats group(
        String label,
        Counts[] slots,
        Histogram[] histograms,
        Charge[] charges,
        IntPredicate member) {
      Counts sum = new Counts();
      Histogram merged = new Histogram(3);
      Charge charge = Charge.NONE;
      for (int slot = 0; slot < Slots.COUNT; slot++) {
        if (member.test(slot)) {
          sum.add(slots[slot]);
          merged.add(histograms[slot]);
          charge = charge.plus(charges[slot]);
        }
      }
      return stats(label, sum, merged, charge);
    }

    private static ResponseStats stats(String label, Counts c, Histogram h, Charge charge) {
      boolean any = c.completed > 0;
      long attempts = c.attempts();
      return new ResponseStats(
          label,
          c.completed,
          c.errors,
          any ? c.sumMicros / 1000.0 / c.completed : 0,
          any ? h.getValueAtPercentile(50) / 1000.0 : 0,
          any ? h.getValueAtPercentile(90) / 1000.0 : 0,
          any ? h.getValueAtPercentile(99) / 1000.0 : 0,
          attempts == 0 ? 0 : charge.requests() / attempts,
          attempts == 0 ? 0 : charge.dollarsPaper() * 1000 / attempts,
          attempts == 0 ? 0 : charge.dollarsToday() * 1000 / attempts,
          c.stalenessSamples == 0 ? 0 : (double) c.stalenessSumMillis / c.stalenessSamples,
          c.stalenessMaxMillis,
          c.wrote,
          any ? (double) c.recordsRead / c.completed : 0,
          any ? (double) c.recordsWritten / c.completed : 0,
          any ? (double) c.retries / c.completed : 0);
    }
  }
}
