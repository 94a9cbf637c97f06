package io.stratus.bench.tpcw.rbe;

import io.stratus.bench.tpcw.rbe.BrowserTally.Counts;
import io.stratus.bench.tpcw.workload.Bookstore;
import io.stratus.bench.tpcw.workload.Mix;
import io.stratus.cloudapi.decorate.PriceTable;
import io.stratus.cloudapi.decorate.PriceTables;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.SplittableRandom;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.DoubleConsumer;
import java.util.function.LongSupplier;
import org.HdrHistogram.Histogram;

/**
 * The remote browser emulator (RBE) of TPC-W: N emulated browsers (EBs), each a platform thread
 * with its own browser session and random source, walk the mix's transition matrix against a
 * {@link Bookstore}; after a warm-up that is not measured, the emulator measures for the configured
 * interval, then stops every browser, waits for them (a bounded time) and runs the {@linkplain
 * Builder#drain drain} before reporting.
 *
 * <p>Time: phase boundaries, response times and user sessions are read from an injectable ticker
 * ({@code nanoTime}), so that tests drive a run with a fake clock; waiting (think times, the
 * end-user round trip) goes through an injectable {@link Waiter}. The emulator's own thread waits
 * for the browsers on a latch in slices of real time, calling the progress callback after each.
 *
 * <p>Randomness: browser i's random source is seeded with the i-th value drawn from the run seed;
 * its page choices, think times, session lengths and its bookstore session's seed come from that
 * source (in separate streams). So a seeded run makes the same choices per browser: each
 * browser's page sequence is reproducible when nothing fails, though the interleaving of browsers,
 * and hence the database's state, is not.
 *
 * <p>Test mode ({@link Builder#interactionsPerBrowser}): each browser also stops after that many
 * interactions, which makes a run with a fake bookstore deterministic in what it executes.
 *
 * <p>An emulator runs one {@link #run} at a time; it may be run again afterwards.
 */
public final class Emulator {
  /** How often, in real time, the emulator's thread wakes to report progress. */
  private static final long PROGRESS_INTERVAL_NANOS = TimeUnit.MILLISECONDS.toNanos(200);

  /** The shortest wait of the emulator's thread, so that it never spins near a phase boundary. */
  private static final long MIN_SLICE_NANOS = TimeUnit.MILLISECONDS.toNanos(1);

  /** Think times are capped at this multiple of their mean (TPC-W clause 5.3.2.1). */
  static final double THINK_TIME_CAP = 10;

  /** User-session minimum durations are capped at this multiple of their mean (60 / 15 min). */
  static final double SESSION_CAP = 4;

  private final int ebs;
  private final Mix mix;
  private final long warmUpNanos;
  private final long measureNanos;
  private final int windows;
  private final long thinkTimeMeanNanos;
  private final long endUserRoundTripNanos;
  private final long sessionMeanNanos;
  private final long sessionThinkTimeMeanNanos;
  private final long seed;
  private final long interactionsPerBrowser;
  private final LongSupplier nanoTime;
  private final Waiter waiter;
  private final InteractionAttribution attribution;
  private final PriceTable paperPrices;
  private final PriceTable todayPrices;
  private final DoubleConsumer progress;
  private final long stopTimeoutNanos;
  private final Runnable drain;
  private final AtomicBoolean running = new AtomicBoolean();

  private Emulator(Builder b) {
    this.ebs = b.ebs;
    this.mix = b.mix;
    this.warmUpNanos = b.warmUpNanos;
    this.measureNanos = b.measureNanos;
    this.windows = b.windows;
    this.thinkTimeMeanNanos = b.thinkTimeMeanNanos;
    this.endUserRoundTripNanos = b.endUserRoundTripNanos;
    this.sessionMeanNanos = b.sessionMeanNanos;
    this.sessionThinkTimeMeanNanos = b.sessionThinkTimeMeanNanos;
    this.seed = b.seed;
    this.interactionsPerBrowser = b.interactionsPerBrowser;
    this.nanoTime = b.nanoTime;
    this.waiter = b.waiter;
    this.attribution = b.attribution;
    this.paperPrices = b.paperPrices;
    this.todayPrices = b.todayPrices;
    this.progress = b.progress;
    this.stopTimeoutNanos = b.stopTimeoutNanos;
    this.drain = b.drain;
  }

  /** A builder with the defaults listed on its setters. */
  public static Builder builder() {
    return new Builder();
  }

  /**
   * Runs the browsers against {@code bookstore}: warm-up, measurement interval, stop. Returns when
   * every browser has stopped, or the stop timeout has passed (see {@link
   * EmulatorReport#unfinishedBrowsers()}).
   *
   * <p>If the calling thread is interrupted, the run stops early: the browsers finish their current
   * interaction, the report covers what was measured, and the thread's interrupt flag is set again.
   *
   * @throws IllegalStateException if a browser died of something other than a failed interaction
   *     (the bookstore's {@code newSession} threw, or an {@link Error}), or this emulator is
   *     already running
   */
  public EmulatorReport run(Bookstore bookstore) {
    Objects.requireNonNull(bookstore, "bookstore");
    return runClients(List.of(new Client(bookstore, attribution, drain))).total();
  }

  /**
   * Runs {@link Builder#ebs} browsers for each client, all on one clock: warm-up, measurement
   * interval, stop, then each client's drain in turn. Browser {@code i} of the run (client {@code i
   * / ebs}) draws its seed as the {@code i}-th value of the run seed, so a single client runs
   * exactly as {@link #run} does. The builder's attribution and drain are not used: each client
   * brings its own.
   *
   * @return the whole run and each client's part of it
   * @throws IllegalStateException as {@link #run} does
   */
  public ClientsReport runClients(List<Client> clients) {
    if (clients.isEmpty()) {
      throw new IllegalArgumentException("no client to run");
    }
    if (!running.compareAndSet(false, true)) {
      throw new IllegalStateException("this emulator is already running");
    }
    try {
      return runOnce(List.copyOf(clients));
    } finally {
      running.set(false);
    }
  }

  /**
   * One application server of a run.
   *
   * @param bookstore its bookstore, over its own database handle
   * @param attribution the attribution in that handle's decorator chain
   * @param drain what to run after the browsers stop (see {@link Builder#drain})
   */
  public record Client(Bookstore bookstore, InteractionAttribution attribution, Runnable drain) {
    /** Checks the parts. */
    public Client {
      Objects.requireNonNull(bookstore, "bookstore");
      Objects.requireNonNull(attribution, "attribution");
      Objects.requireNonNull(drain, "drain");
    }
  }

  /**
   * A run of several clients.
   *
   * @param total every browser of every client, the usage of all clients' handles together
   * @param perClient each client's browsers and its handle's usage, in the order given
   * @param windows the measurement interval's {@linkplain Builder#windows windows}, all clients
   *     together, in order
   * @param measurements each client's raw measurements, from which the rest is built and which a
   *     client in a process of its own hands to the parent ({@link #of})
   */
  public record ClientsReport(
      EmulatorReport total,
      List<EmulatorReport> perClient,
      List<WindowStats> windows,
      List<ClientMeasurements> measurements) {

    /**
     * The report of a run whose clients measured {@code perClient} (each of them possibly in a
     * process of its own), built exactly as a run of them all in one emulator reports it.
     *
     * @param perClient each client's raw measurements, in client order
     * @param mix the mix the browsers followed
     * @param paper the price table of the papers' time
     * @param today today's price table
     */
    public static ClientsReport of(
        List<ClientMeasurements> perClient, Mix mix, PriceTable paper, PriceTable today) {
      ClientMeasurements all = ClientMeasurements.sum(perClient);
      List<EmulatorReport> reports = new ArrayList<>();
      for (ClientMeasurements m : perClient) {
        reports.add(m.report(mix, paper, today));
      }
      EmulatorReport total = perClient.size() == 1 ? reports.get(0) : all.report(mix, paper, today);
      return new ClientsReport(
          total, List.copyOf(reports), all.windowStats(paper, today), List.copyOf(perClient));
    }
  }

  private ClientsReport runOnce(List<Client> clients) {
    List<InteractionAttribution> attributions = clients.stream().map(Client::attribution).toList();
    List<InteractionAttribution.Usage> before =
        attributions.stream().map(InteractionAttribution::snapshot).toList();
    long start = nanoTime.getAsLong();
    RunControl control =
        new RunControl(nanoTime, attributions, start, warmUpNanos, measureNanos, windows);
    List<List<InteractionAttribution.Usage>> boundaries = new ArrayList<>();
    for (InteractionAttribution a : attributions) {
      a.beginRun(warmUpNanos > 0 ? InteractionAttribution.WARM_UP : InteractionAttribution.MEASURE);
    }
    CountDownLatch finished = new CountDownLatch(ebs * clients.size());
    List<ResponseTimes> responseTimes = new ArrayList<>();
    List<List<EmulatedBrowser>> byClient = new ArrayList<>();
    SplittableRandom seeds = new SplittableRandom(seed);
    for (Client c : clients) {
      ResponseTimes times = new ResponseTimes();
      responseTimes.add(times);
      byClient.add(browsers(c, byClient.size() * ebs, seeds, control, times, finished));
    }
    List<EmulatedBrowser> browsers = byClient.stream().flatMap(List::stream).toList();
    boolean interrupted = false;
    try {
      int started = 0;
      try {
        for (EmulatedBrowser b : browsers) {
          b.start();
          started++;
        }
      } finally {
        for (int i = started; i < browsers.size(); i++) {
          finished.countDown(); // never started: nothing to wait for
        }
      }
      interrupted = awaitEnd(control, finished, browsers, attributions, boundaries);
    } finally {
      while (boundaries.size() <= windows) {
        boundaries.add(usage(attributions)); // the run ended early: the rest are empty
      }
      control.stop();
      browsers.forEach(EmulatedBrowser::wakeToStop);
      interrupted |= awaitQuietly(finished, stopTimeoutNanos);
      attributions.forEach(a -> a.advance(InteractionAttribution.AFTER));
      try {
        if (!interrupted) {
          clients.forEach(c -> c.drain().run());
        }
      } finally {
        browsers.forEach(b -> b.tap().close());
        attributions.forEach(InteractionAttribution::endRun);
      }
    }
    browsers.forEach(b -> b.tally().flushResponseTimes());
    double[] seconds = new double[windows];
    for (int w = 0; w < windows; w++) {
      seconds[w] = (control.windowStart(w + 1) - control.windowStart(w)) / 1e9;
    }
    List<ClientMeasurements> measurements = new ArrayList<>();
    for (int k = 0; k < clients.size(); k++) {
      InteractionAttribution.Usage atStart = before.get(k);
      List<InteractionAttribution.Usage> fromStart = new ArrayList<>();
      for (List<InteractionAttribution.Usage> b : boundaries) {
        fromStart.add(b.get(k).minus(atStart));
      }
      WindowCounts windowCounts = new WindowCounts(windows);
      byClient.get(k).forEach(b -> b.tally().mergeWindowsInto(windowCounts));
      measurements.add(
          measurements(
              control,
              byClient.get(k),
              responseTimes.get(k).copies(),
              attributions.get(k).snapshot().minus(atStart),
              windowCounts,
              fromStart,
              seconds));
    }
    if (interrupted) {
      Thread.currentThread().interrupt();
    }
    progress.accept(1.0);
    return ClientsReport.of(measurements, mix, paperPrices, todayPrices);
  }

  /** The usage of each client's attribution now, in client order. */
  private static List<InteractionAttribution.Usage> usage(
      List<InteractionAttribution> attributions) {
    return attributions.stream().map(InteractionAttribution::snapshot).toList();
  }

  private List<EmulatedBrowser> browsers(
      Client client,
      int firstIndex,
      SplittableRandom seeds,
      RunControl control,
      ResponseTimes responseTimes,
      CountDownLatch finished) {
    Navigation navigation = Navigation.of(mix);
    NegativeExponential think = new NegativeExponential(thinkTimeMeanNanos, THINK_TIME_CAP);
    NegativeExponential session = new NegativeExponential(sessionMeanNanos, SESSION_CAP);
    NegativeExponential sessionThink =
        new NegativeExponential(
            thinkTimeMeanNanos > 0 ? 0 : sessionThinkTimeMeanNanos, THINK_TIME_CAP);
    List<EmulatedBrowser> browsers = new ArrayList<>(ebs);
    for (int i = 0; i < ebs; i++) {
      browsers.add(
          new EmulatedBrowser(
              firstIndex + i,
              seeds.nextLong(),
              client.bookstore(),
              navigation,
              control,
              client.attribution(),
              waiter,
              think,
              session,
              sessionThink,
              endUserRoundTripNanos,
              interactionsPerBrowser,
              responseTimes,
              finished));
    }
    return browsers;
  }

  /**
   * Waits until the run's end on the emulator's clock or until every browser has stopped,
   * reporting progress, moving the background phase at the boundaries and adding the usage of
   * every attribution to {@code boundaries} when it passes the start of each window of the
   * measurement interval and its end. True if interrupted.
   */
  private boolean awaitEnd(
      RunControl control,
      CountDownLatch finished,
      List<EmulatedBrowser> browsers,
      List<InteractionAttribution> attributions,
      List<List<InteractionAttribution.Usage>> boundaries) {
    try {
      while (true) {
        long now = nanoTime.getAsLong();
        control.phaseAt(now);
        long elapsed = control.elapsed(now);
        while (boundaries.size() <= windows && elapsed >= control.windowStart(boundaries.size())) {
          boundaries.add(usage(attributions));
        }
        progress.accept(fraction(control, elapsed, browsers));
        if (elapsed >= control.measureEnd()) {
          return false;
        }
        long boundary =
            elapsed < control.warmUpEnd()
                ? control.warmUpEnd()
                : control.windowStart(boundaries.size());
        long slice =
            Math.max(MIN_SLICE_NANOS, Math.min(PROGRESS_INTERVAL_NANOS, boundary - elapsed));
        if (finished.await(slice, TimeUnit.NANOSECONDS)) {
          return false;
        }
      }
    } catch (InterruptedException e) {
      return true;
    }
  }

  private double fraction(RunControl control, long elapsed, List<EmulatedBrowser> browsers) {
    double byTime = Math.min(1.0, Math.max(0.0, (double) elapsed / control.measureEnd()));
    if (interactionsPerBrowser == Long.MAX_VALUE) {
      return byTime;
    }
    long done = 0;
    for (EmulatedBrowser b : browsers) {
      done += b.tally().interactionsDone();
    }
    return Math.max(
        byTime, Math.min(1.0, (double) done / ((double) browsers.size() * interactionsPerBrowser)));
  }

  /** Waits for the browsers at most {@code nanos} of real time; true if interrupted. */
  private static boolean awaitQuietly(CountDownLatch finished, long nanos) {
    try {
      finished.await(nanos, TimeUnit.NANOSECONDS);
      return false;
    } catch (InterruptedException e) {
      return true;
    }
  }

  private ClientMeasurements measurements(
      RunControl control,
      List<EmulatedBrowser> browsers,
      Histogram[] responseTimes,
      InteractionAttribution.Usage usage,
      WindowCounts windowCounts,
      List<InteractionAttribution.Usage> windowBoundaries,
      double[] windowSeconds) {
    Counts[] counts = new Counts[Slots.COUNT];
    for (int i = 0; i < counts.length; i++) {
      counts[i] = new Counts();
    }
    List<String> samples = new ArrayList<>();
    long warmUp = 0;
    int unfinished = 0;
    long lastEnd = Long.MIN_VALUE;
    IllegalStateException died = null;
    for (EmulatedBrowser b : browsers) {
      warmUp += b.tally().mergeInto(counts, samples);
      if (b.hasEnded()) {
        lastEnd = Math.max(lastEnd, control.elapsed(b.finishedAtNanos()));
      } else {
        unfinished++;
        lastEnd = Math.max(lastEnd, control.elapsed(nanoTime.getAsLong()));
      }
      if (b.fatal() != null) {
        if (died == null) {
          died =
              new IllegalStateException(
                  "emulated browser " + b.index() + " died: " + b.fatal(), b.fatal());
        } else {
          died.addSuppressed(b.fatal());
        }
      }
    }
    if (died != null) {
      throw died;
    }
    long measuredNanos = Math.max(0, Math.min(lastEnd, control.measureEnd()) - control.warmUpEnd());
    return new ClientMeasurements(
        browsers.size(),
        measuredNanos,
        counts,
        responseTimes,
        usage,
        warmUp,
        samples,
        unfinished,
        windowCounts,
        windowBoundaries,
        windowSeconds);
  }

  /**
   * Configures an {@link Emulator}. Each setter checks its value at once and throws {@link
   * IllegalArgumentException} (or {@link NullPointerException}) naming the setting.
   */
  public static final class Builder {
    private int ebs = 10;
    private Mix mix = Mix.SHOPPING;
    private long warmUpNanos = Duration.ofSeconds(5).toNanos();
    private long measureNanos = Duration.ofSeconds(25).toNanos();
    private int windows = 1;
    private long thinkTimeMeanNanos = 0;
    private long endUserRoundTripNanos = 0;
    private long sessionMeanNanos = Duration.ofMinutes(15).toNanos();
    private long sessionThinkTimeMeanNanos = EmulatedBrowser.SPEC_THINK_TIME_MEAN_NANOS;
    private long seed = 2008;
    private long interactionsPerBrowser = Long.MAX_VALUE;
    private LongSupplier nanoTime = System::nanoTime;
    private Waiter waiter = Waiter.sleeping();
    private InteractionAttribution attribution = new InteractionAttribution();
    private PriceTable paperPrices = PriceTables.paper2008();
    private PriceTable todayPrices = PriceTables.aws2026();
    private DoubleConsumer progress = fraction -> {};
    private long stopTimeoutNanos = Duration.ofSeconds(60).toNanos();
    private Runnable drain = () -> {};

    private Builder() {}

    /** Concurrent emulated browsers, 1 to 10,000 (default 10). */
    public Builder ebs(int ebs) {
      if (ebs < 1 || ebs > 10_000) {
        throw new IllegalArgumentException("ebs must be between 1 and 10000, not " + ebs);
      }
      this.ebs = ebs;
      return this;
    }

    /** The workload mix (default shopping, the specification's primary mix). */
    public Builder mix(Mix mix) {
      this.mix = Objects.requireNonNull(mix, "mix");
      return this;
    }

    /** Warm-up before measuring, zero or more (default 5 s). */
    public Builder warmUp(Duration warmUp) {
      this.warmUpNanos = nanos("warmUp", warmUp, true);
      return this;
    }

    /** The measurement interval, positive (default 25 s). */
    public Builder measure(Duration measure) {
      this.measureNanos = nanos("measure", measure, false);
      return this;
    }

    /**
     * Mean think time between a page and the next request, zero or more (default zero: none, as
     * in the papers' runs; the specification's is 7 s). Drawn negative-exponentially, capped at 10
     * times the mean.
     */
    public Builder thinkTimeMean(Duration mean) {
      this.thinkTimeMeanNanos = nanos("thinkTimeMean", mean, true);
      return this;
    }

    /**
     * The round trip between the end user's browser and the web server, zero or more (default
     * zero): added to every interaction's response time, and waited by the browser before its
     * think time. For the papers' "EC2" placement, where the web server runs next to the storage
     * but every page still travels to the user.
     */
    public Builder endUserRoundTrip(Duration roundTrip) {
      this.endUserRoundTripNanos = nanos("endUserRoundTrip", roundTrip, true);
      return this;
    }

    /**
     * Mean user-session minimum duration, positive (default 15 min, TPC-W clause 5.3.1.2); drawn
     * negative-exponentially, capped at 4 times the mean (60 min for the default).
     */
    public Builder sessionMean(Duration mean) {
      this.sessionMeanNanos = nanos("sessionMean", mean, false);
      return this;
    }

    /**
     * The mean think time that a user session's clock counts after each interaction when the
     * browsers do not think ({@link #thinkTimeMean} zero), zero or more (default 7 s, the
     * specification's): sessions then last as many interactions as the specification's would.
     * Zero makes the session clock real time only. Ignored when the browsers think: their think
     * times are on the session clock anyway.
     */
    public Builder sessionThinkTimeMean(Duration mean) {
      this.sessionThinkTimeMeanNanos = nanos("sessionThinkTimeMean", mean, true);
      return this;
    }

    /**
     * Equal windows the measurement interval is split into, 1 to 100 (default 1): the report gives
     * each window's throughput, response time and cost ({@link ClientsReport#windows}), which show
     * how much the figures vary within the run.
     */
    public Builder windows(int windows) {
      if (windows < 1 || windows > 100) {
        throw new IllegalArgumentException("windows must be between 1 and 100, not " + windows);
      }
      this.windows = windows;
      return this;
    }

    /** The run seed, from which every browser's seed is derived (default 2008). */
    public Builder seed(long seed) {
      this.seed = seed;
      return this;
    }

    /**
     * Test mode: each browser also stops after {@code n} interactions (at least 1), warm-up ones
     * included. The time limits still apply; give a long measurement interval to run by count
     * alone.
     */
    public Builder interactionsPerBrowser(long n) {
      if (n < 1) {
        throw new IllegalArgumentException("interactionsPerBrowser must be positive, not " + n);
      }
      this.interactionsPerBrowser = n;
      return this;
    }

    /** The clock of phases, response times and sessions, in nanoseconds (default nanoTime). */
    public Builder nanoTime(LongSupplier nanoTime) {
      this.nanoTime = Objects.requireNonNull(nanoTime, "nanoTime");
      return this;
    }

    /** How browsers wait (default {@link Waiter#sleeping()}). */
    public Builder waiter(Waiter waiter) {
      this.waiter = Objects.requireNonNull(waiter, "waiter");
      return this;
    }

    /**
     * The attribution that is in the database's decorator chain (default: a private one that sees
     * no calls, so every interaction reports zero requests).
     */
    public Builder attribution(InteractionAttribution attribution) {
      this.attribution = Objects.requireNonNull(attribution, "attribution");
      return this;
    }

    /**
     * The two price tables of the report, the paper's and today's (default {@link
     * PriceTables#paper2008()} and {@link PriceTables#aws2026()}); pass their {@code
     * withoutTransfer()} for a client inside the cloud.
     */
    public Builder priceTables(PriceTable paper, PriceTable today) {
      this.paperPrices = Objects.requireNonNull(paper, "paper");
      this.todayPrices = Objects.requireNonNull(today, "today");
      return this;
    }

    /**
     * Called from the thread that runs the emulator, a few times a second and once with 1.0 at
     * the end, with the elapsed fraction of the run (warm-up plus measurement; in test mode the
     * larger of that and the fraction of interactions done). Must be quick.
     */
    public Builder progress(DoubleConsumer progress) {
      this.progress = Objects.requireNonNull(progress, "progress");
      return this;
    }

    /**
     * How long, in real time, to wait for the browsers to finish their last interaction after the
     * run has ended, positive (default 60 s).
     */
    public Builder stopTimeout(Duration timeout) {
      this.stopTimeoutNanos = nanos("stopTimeout", timeout, false);
      return this;
    }

    /**
     * Work to run after the browsers have stopped, before the run ends (default: nothing): the
     * harness drains what the measurement interval committed (a checkpoint of every queue), so
     * that its cost is charged to the interval. Its calls count as background of the interval,
     * reported separately as {@link EmulatorReport#drain()}. Not run when the run was interrupted.
     * Runs on the emulator's thread; an exception it throws ends the run with that exception.
     */
    public Builder drain(Runnable drain) {
      this.drain = Objects.requireNonNull(drain, "drain");
      return this;
    }

    public Emulator build() {
      return new Emulator(this);
    }

    private static long nanos(String name, Duration d, boolean zeroAllowed) {
      Objects.requireNonNull(d, name);
      if (d.isNegative() || (!zeroAllowed && d.isZero())) {
        throw new IllegalArgumentException(
            name + " must be " + (zeroAllowed ? "zero or more" : "positive") + ", not " + d);
      }
      try {
        return d.toNanos();
      } catch (ArithmeticException e) {
        throw new IllegalArgumentException(name + " is too long: " + d);
      }
    }
  }
}
