package io.stratus.bench.tpcw.harness;

import io.stratus.bench.tpcw.bookstore.DataGenerator;
import io.stratus.bench.tpcw.bookstore.Scale;
import io.stratus.bench.tpcw.bookstore.StratusBookstore;
import io.stratus.bench.tpcw.rbe.Emulator;
import io.stratus.cloudapi.decorate.CloudMeter;
import io.stratus.cloudapi.time.SystemScheduler;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

/**
 * The unmeasured runs before the measured ones ({@link Schedule#warmPass()}): each protocol of the
 * plan browses a small bookstore of its own for a while (by default {@link #LENGTH}), so that the JVM has compiled the
 * code of every protocol, the bookstore and the emulator before anything is measured, and no
 * protocol is measured with colder code than another.
 *
 * <p>The protocols run at the same time, each on a fresh in-process cloud with the latency
 * profile of its placement, whatever cloud the plan measures: what is warmed is this JVM's code,
 * and an in-process cloud costs nothing. The bookstore has the run's items and browsers but
 * {@link #CUSTOMERS_PER_EB} customers per browser, so that it loads in a fraction of a second.
 * Nothing of these runs is reported; a failure fails the plan, since the measured runs would hit
 * it too.
 */
final class WarmPass {
  /** How long each protocol browses by default. */
  static final Duration LENGTH = Duration.ofSeconds(2);

  /** Customers per browser of the warm pass's bookstores. */
  static final int CUSTOMERS_PER_EB = 50;

  private WarmPass() {}

  /**
   * Runs the warm pass of {@code runs} (one per protocol) for {@code length} and waits for it;
   * with {@code interactionsPerEb} above 0 each browser also stops after that many interactions.
   */
  static void run(
      List<Sweep.Planned> runs,
      Duration length,
      long interactionsPerEb,
      SystemScheduler scheduler) {
    ExecutorService pool = Executors.newFixedThreadPool(Math.max(1, runs.size()));
    try {
      List<Future<?>> done = new ArrayList<>();
      for (int k = 0; k < runs.size(); k++) {
        RunSettings s = settings(runs.get(k).settings(), length);
        String runId = "w" + k;
        done.add(pool.submit(() -> browse(s, runId, interactionsPerEb, scheduler)));
      }
      for (int k = 0; k < done.size(); k++) {
        try {
          done.get(k).get();
        } catch (ExecutionException e) {
          Throwable cause = e.getCause();
          throw new IllegalStateException(
              "the warm pass of "
                  + runs.get(k).settings().protocol().name().toLowerCase(Locale.ROOT)
                  + " failed: "
                  + cause.getMessage(),
              cause);
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
          throw new IllegalStateException("interrupted during the warm pass", e);
        }
      }
    } finally {
      pool.shutdownNow();
    }
  }

  /** The warm pass's settings for a run of {@code s}: see the class comment. */
  static RunSettings settings(RunSettings s, Duration length) {
    return new RunSettings(
        s.protocol(),
        CloudTarget.Kind.IN_PROCESS.id(),
        s.placement(),
        s.latencyProfile().equals("real") ? s.placement() : s.latencyProfile(),
        s.pageSize(),
        s.ttl(),
        s.checkpointInterval(),
        s.ebs(),
        s.mix(),
        s.items(),
        Math.min(CUSTOMERS_PER_EB, s.customersPerEb()),
        Duration.ZERO,
        length,
        Duration.ZERO,
        Duration.ZERO,
        s.seed());
  }

  private static void browse(
      RunSettings s, String runId, long interactionsPerEb, SystemScheduler scheduler) {
    CloudTarget target = CloudTarget.inProcess();
    try (CloudConnection cloud = CloudConnection.open(target, runId, s.seed())) {
      ClientHandle c =
          ClientHandle.open(
              target,
              cloud.services(),
              ClientHandle.databaseUri(runId),
              0,
              runId,
              s,
              new CloudMeter(),
              scheduler);
      try {
        Scale scale = new Scale(s.items(), s.totalEbs(), s.customersPerEb());
        new DataGenerator(c.db(), scale, s.seed(), Clock.systemUTC()).load();
        Emulator.Builder emulator =
            Emulator.builder()
                .ebs(s.ebs())
                .mix(s.mix())
                .warmUp(s.warmUp())
                .measure(s.measure())
                .seed(s.seed())
                .attribution(c.attribution());
        if (interactionsPerEb > 0) {
          emulator.interactionsPerBrowser(interactionsPerEb);
        }
        emulator.build().run(new StratusBookstore(c.db(), scale, Clock.systemUTC(), s.seed()));
      } finally {
        c.db().close();
      }
    }
  }
}
