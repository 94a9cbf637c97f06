package io.stratus.bench.tpcw.harness;

import io.stratus.bench.tpcw.bookstore.BookstoreSchema;
import io.stratus.bench.tpcw.bookstore.DataGenerator;
import io.stratus.bench.tpcw.bookstore.LoadReport;
import io.stratus.bench.tpcw.bookstore.Scale;
import io.stratus.bench.tpcw.bookstore.StratusBookstore;
import io.stratus.bench.tpcw.rbe.Emulator;
import io.stratus.cloudapi.CloudServices;
import io.stratus.cloudapi.decorate.CloudMeter;
import io.stratus.cloudapi.time.SystemScheduler;
import io.stratus.core.Database;
import io.stratus.core.DatabaseConfig;
import java.lang.management.CompilationMXBean;
import java.lang.management.ManagementFactory;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.BiFunction;
import java.util.function.LongSupplier;

/**
 * The unmeasured runs before the measured ones ({@link Schedule#warmPass()}): each protocol of the
 * plan browses a bookstore of its own until the JIT compiler has settled ({@link JitSettling}: at
 * least 2 s, then until it compiled for less than 5% of a second) or at most a given time ({@link
 * Defaults#WARM_PASS} by default), so that the JVM has compiled the code of every protocol, the
 * bookstore and the emulator before anything is measured, and no protocol is measured with colder
 * code, or beside a busier compiler, than another.
 *
 * <p>The protocols run at the same time, each on a fresh in-process cloud with the latency
 * profile of its placement, whatever cloud the plan measures: what is warmed is this JVM's code,
 * and an in-process cloud costs nothing. The bookstore is the size the measured runs browse (items,
 * browsers, customers per browser): a smaller one takes other paths through the B-trees, the
 * searches and the order scans, which the compiler would then meet for the first time in the first
 * measured run. The queue protocols copy one load ({@link LoadTemplates}); given the plan's
 * templates, that load is the one the measured runs copy too, so on the in-process cloud it costs
 * the plan nothing. Nothing of these runs is reported; a failure fails the plan, since the measured
 * runs would hit it too.
 */
final class WarmPass {
  /** How often the compiler's work is read while the protocols browse. */
  private static final long SETTLING_CHECK_MILLIS = 250;

  private WarmPass() {}

  /**
   * Runs the warm pass of {@code runs} (one per protocol) until the JIT compiler has settled
   * ({@link JitSettling}) or {@code longest} has passed, then waits, at most {@code longest}
   * again, for the compilations it left queued; with {@code interactionsPerEb} above 0 each
   * browser also stops after that many interactions (and nothing is waited for).
   *
   * @param templates the bookstores the queue protocols copy; the plan's own when it measures on
   *     the in-process cloud, so that the measured runs copy the load made here
   * @param templateLoad loads a template's bookstore (see {@link LoadTemplates#copyInto})
   */
  static Warmed run(
      List<Sweep.Planned> runs,
      Duration longest,
      long interactionsPerEb,
      SystemScheduler scheduler,
      LoadTemplates templates,
      BiFunction<CloudServices, RunSettings, LoadSummary> templateLoad) {
    long started = System.nanoTime();
    boolean settled;
    List<CloudConnection> clouds = new ArrayList<>();
    try {
      List<String> databases = new ArrayList<>();
      for (int k = 0; k < runs.size(); k++) {
        RunSettings s = settings(runs.get(k).settings(), longest);
        CloudConnection cloud = CloudConnection.open(CloudTarget.inProcess(), "w" + k, s.seed());
        clouds.add(cloud);
        databases.add(prepare(cloud.services(), "w" + k, s, templates, templateLoad));
      }
      settled = browseAll(runs, longest, interactionsPerEb, scheduler, clouds, databases, started);
    } finally {
      clouds.forEach(CloudConnection::close);
    }
    if (!settled && interactionsPerEb == 0) {
      // The compilations the browsers queued must not run beside the first measured run.
      settled = JitSettling.awaitThisJvm(longest.toMillis());
    }
    return new Warmed(Duration.ofNanos(System.nanoTime() - started), settled);
  }

  /**
   * What the warm pass did.
   *
   * @param took how long it took, loads included
   * @param settled whether the compiler settled before the longest time
   */
  record Warmed(Duration took, boolean settled) {}

  /**
   * Loads the bookstore of {@code s} into {@code raw} (the queue protocols copy a template of
   * {@code templates}); returns its database.
   */
  private static String prepare(
      CloudServices raw,
      String runId,
      RunSettings s,
      LoadTemplates templates,
      BiFunction<CloudServices, RunSettings, LoadSummary> templateLoad) {
    if (LoadTemplates.applies(CloudTarget.inProcess(), s)) {
      templates.copyInto(raw, s, templateLoad);
      return LoadTemplates.DATABASE_URI;
    }
    String database = ClientHandle.databaseUri(runId);
    load(raw, database, s);
    return database;
  }

  /**
   * Loads the bookstore of {@code s} into {@code raw} on the database {@link
   * LoadTemplates#DATABASE_URI}, unmetered: the template load of a warm pass whose templates no
   * measured run copies.
   */
  static LoadSummary loadTemplate(CloudServices raw, RunSettings s) {
    return load(raw, LoadTemplates.DATABASE_URI, s);
  }

  private static LoadSummary load(CloudServices raw, String database, RunSettings s) {
    try (Database db =
        Database.open(
            BookstoreSchema.configure(DatabaseConfig.builder(raw, database))
                .protocol(s.protocol())
                .pageSize(s.pageSize())
                .clientId("tpcw-warm-load")
                .build())) {
      BookstoreSchema.install(db, s.index().placement());
      LoadReport r = new DataGenerator(db, scale(s), s.seed(), Clock.systemUTC()).load();
      return new LoadSummary(r.rowsPerTable(), r.elapsed(), Duration.ZERO, 0, 0, 0, 0);
    }
  }

  private static Scale scale(RunSettings s) {
    return new Scale(s.items(), s.totalEbs(), s.customersPerEb());
  }

  /**
   * Every protocol browses its bookstore at once, until the compiler settles or the longest;
   * returns whether it settled.
   */
  private static boolean browseAll(
      List<Sweep.Planned> runs,
      Duration longest,
      long interactionsPerEb,
      SystemScheduler scheduler,
      List<CloudConnection> clouds,
      List<String> databases,
      long started) {
    // The browsers stop at their next interaction once this clock has jumped past the end.
    AtomicBoolean over = new AtomicBoolean();
    long jump = longest.toNanos() + TimeUnit.HOURS.toNanos(1);
    LongSupplier clock = () -> System.nanoTime() + (over.get() ? jump : 0);
    CompilationMXBean jit = ManagementFactory.getCompilationMXBean();
    boolean jitTimed = jit != null && jit.isCompilationTimeMonitoringSupported();
    JitSettling settling = new JitSettling(JitSettling.WARM_PASS_MIN_MILLIS);
    boolean settled = false;
    ExecutorService pool = Executors.newFixedThreadPool(Math.max(1, runs.size()));
    try {
      List<Future<?>> done = new ArrayList<>();
      for (int k = 0; k < runs.size(); k++) {
        RunSettings s = settings(runs.get(k).settings(), longest);
        CloudServices raw = clouds.get(k).services();
        String database = databases.get(k);
        String runId = "w" + k;
        done.add(
            pool.submit(
                () -> browse(raw, database, s, runId, interactionsPerEb, clock, scheduler)));
      }
      for (int k = 0; k < done.size(); k++) {
        while (true) {
          try {
            done.get(k).get(SETTLING_CHECK_MILLIS, TimeUnit.MILLISECONDS);
            break;
          } catch (TimeoutException e) {
            long now = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - started);
            if (settling.settledAfter(now, jitTimed ? jit.getTotalCompilationTime() : -1)) {
              settled = true;
              over.set(true);
            }
          } catch (ExecutionException e) {
            over.set(true);
            Throwable cause = e.getCause();
            throw new IllegalStateException(
                "the warm pass of "
                    + runs.get(k).settings().protocol().name().toLowerCase(Locale.ROOT)
                    + " failed: "
                    + cause.getMessage(),
                cause);
          } catch (InterruptedException e) {
            over.set(true);
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted during the warm pass", e);
          }
        }
      }
    } finally {
      pool.shutdownNow();
    }
    return settled;
  }

  /**
   * The warm pass's settings for a run of {@code s}: its bookstore (items, browsers, clients,
   * customers per browser, seed, page size) on the in-process cloud with the placement's latency,
   * browsing without think time or end-user round trip for at most {@code length}; one client of
   * it browses.
   */
  static RunSettings settings(RunSettings s, Duration length) {
    return s.toBuilder()
        .cloud(CloudTarget.Kind.IN_PROCESS.id())
        .latencyProfile(s.latencyProfile().equals("real") ? s.placement() : s.latencyProfile())
        .warmUp(Duration.ZERO)
        .measure(length)
        .thinkTimeMean(Duration.ZERO)
        .endUserRoundTrip(Duration.ZERO)
        .build();
  }

  private static void browse(
      CloudServices raw,
      String database,
      RunSettings s,
      String runId,
      long interactionsPerEb,
      LongSupplier clock,
      SystemScheduler scheduler) {
    ClientHandle c =
        ClientHandle.open(
            CloudTarget.inProcess(), raw, database, 0, runId, s, new CloudMeter(), scheduler);
    try {
      BookstoreSchema.install(c.db(), s.index().placement());
      Emulator.Builder emulator =
          Emulator.builder()
              .ebs(s.ebs())
              .mix(s.mix())
              .warmUp(s.warmUp())
              .measure(s.measure())
              .seed(s.seed())
              .nanoTime(clock)
              .attribution(c.attribution());
      if (interactionsPerEb > 0) {
        emulator.interactionsPerBrowser(interactionsPerEb);
      }
      emulator.build().run(new StratusBookstore(c.db(), scale(s), Clock.systemUTC(), s.seed()));
    } finally {
      c.latency().off(); // the close's checkpoints warm nothing that needs simulated waits
      c.db().close();
    }
  }
}
