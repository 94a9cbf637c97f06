package io.stratus.bench.tpcw.harness;

import io.stratus.bench.tpcw.bookstore.BookstoreSchema;
import io.stratus.bench.tpcw.bookstore.Scale;
import io.stratus.bench.tpcw.bookstore.StalenessTracker;
import io.stratus.bench.tpcw.bookstore.StratusBookstore;
import io.stratus.bench.tpcw.rbe.Emulator;
import io.stratus.cloudapi.decorate.CloudMeter;
import io.stratus.cloudapi.time.SystemScheduler;
import io.stratus.core.DatabaseStats;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;

/**
 * The entry point of one client process of a run with {@link ClientPlacement#PROCESS}: it joins
 * the run's shared cloud and database (loaded by the parent), opens its own handle, announces that
 * it is ready, starts its browsers when the parent says, runs them for the warm-up and the
 * measurement interval, drains what its handle owes, writes its {@link ClientOutcome} and exits 0.
 * Anything that goes wrong is printed to its log and ends it with exit code 1, which fails the run.
 *
 * <p>Usage: {@code ClientProcessMain JOB-FILE} ({@link ClientJob}).
 */
public final class ClientProcessMain {
  /** Longest wait for the parent's start signal. */
  private static final long START_TIMEOUT_MILLIS = 10 * 60_000L;

  /** How often the start signal is looked for. */
  private static final long POLL_MILLIS = 20;

  /**
   * Longest wait of the client that drains the snapshot archive for the other clients' browsers
   * to stop: they share the start time and the run's length, so they stop within moments of each
   * other unless one has failed, which fails the run anyway.
   */
  private static final Duration OTHERS_STOP_TIMEOUT = Duration.ofMinutes(2);

  private ClientProcessMain() {}

  /**
   * Runs the client of the job file {@code args[0]}; exits 0 when its outcome is written, 1 if
   * anything failed, 2 on a wrong command line.
   */
  public static void main(String[] args) {
    if (args.length != 1) {
      System.err.println("usage: ClientProcessMain JOB-FILE (written by the TPC-W harness)");
      System.exit(2);
    }
    try {
      run(ClientJob.readFrom(Path.of(args[0])));
    } catch (Throwable t) { // every failure, Errors included, must reach the parent as exit 1
      System.err.println("client process failed: " + t);
      t.printStackTrace();
      System.exit(1);
    }
    // The cloud clients' thread pools must not keep the process alive once the outcome is out.
    System.exit(0);
  }

  /** Runs the client of {@code job} and writes its outcome. */
  static void run(ClientJob job) throws IOException, InterruptedException {
    RunSettings s = job.settings();
    Scale scale = new Scale(s.items(), s.totalEbs(), s.customersPerEb());
    CloudMeter meter = new CloudMeter();
    try (SystemScheduler scheduler = new SystemScheduler();
        CloudConnection cloud = CloudConnection.open(job.target(), job.runId(), s.seed())) {
      ClientHandle c =
          ClientHandle.open(
              job.target(),
              cloud.services(),
              job.databaseUri(),
              job.client(),
              job.runId(),
              s,
              meter,
              scheduler);
      AtomicReference<DrainPasses> drained = new AtomicReference<>();
      try {
        BookstoreSchema.install(c.db(), s.index().placement());
        StalenessTracker tracker = new StalenessTracker();
        StratusBookstore bookstore =
            new StratusBookstore(c.db(), scale, Clock.systemUTC(), s.seed(), tracker);
        Files.createFile(job.readyFile());
        awaitStart(job);
        double measureStarts =
            (double) s.warmUp().toMillis() / s.warmUp().plus(s.measure()).toMillis();
        AtomicReference<DatabaseStats> atStart = new AtomicReference<>();
        AtomicLong recordsAtStart = new AtomicLong();
        AtomicLong recordsAtDrain = new AtomicLong();
        Emulator.Builder emulator =
            TpcwHarness.measuredEmulator(s, job.browserSeed())
                .progress(
                    f -> {
                      if (f >= measureStarts && atStart.compareAndSet(null, c.db().stats())) {
                        recordsAtStart.set(c.records().count());
                      }
                    });
        if (job.interactionsPerEb() > 0) {
          emulator.interactionsPerBrowser(job.interactionsPerEb());
        }
        Emulator.ClientsReport report =
            emulator
                .build()
                .runClients(
                    List.of(
                        new Emulator.Client(
                            bookstore,
                            c.attribution(),
                            () -> {
                              // Each client drains what its own handle owes, as in one JVM;
                              // client 0 also drains the snapshot archive, once the others stop.
                              c.latency().off();
                              recordsAtDrain.set(c.records().count());
                              drained.set(
                                  DrainPasses.run(
                                      c.db(),
                                      s.protocol(),
                                      c.records(),
                                      ArchiveDrainTurn.ofClientProcess(
                                          job.client(),
                                          s.clients(),
                                          job::stoppedFile,
                                          OTHERS_STOP_TIMEOUT,
                                          System::nanoTime,
                                          POLL_MILLIS)));
                            })));
        if (drained.get() == null) {
          throw new IllegalStateException("the client was interrupted before its drain");
        }
        DatabaseStats end = c.db().stats();
        DatabaseStats start = atStart.get() != null ? atStart.get() : end;
        new ClientOutcome(
                report.measurements().get(0),
                meter.snapshot(),
                end.bufferPool().hits() - start.bufferPool().hits(),
                end.bufferPool().fetches() - start.bufferPool().fetches(),
                end.checkpointsRun() - start.checkpointsRun(),
                end.checkpointsFailed() - start.checkpointsFailed(),
                c.refusals().refused(),
                atStart.get() == null ? 0 : recordsAtDrain.get() - recordsAtStart.get(),
                drained.get(),
                tracker.lostUpdates(BookstoreSchema.ITEM),
                tracker.lostUpdates(BookstoreSchema.CUSTOMER),
                new OwnReads(
                    tracker.ownReadsChecked(),
                    tracker.ownStaleReads(),
                    tracker.maxOwnStalenessMillis()))
            .writeTo(job.output(), tracker);
      } finally {
        if (drained.get() == null) {
          c.db().close();
        }
      }
    }
  }

  /** Waits until the parent's start signal names a time, then until that time. */
  private static void awaitStart(ClientJob job) throws IOException, InterruptedException {
    long deadline = System.currentTimeMillis() + START_TIMEOUT_MILLIS;
    while (true) {
      if (Files.exists(job.startSignal())) {
        String text = Files.readString(job.startSignal(), StandardCharsets.UTF_8).trim();
        if (text.endsWith(";")) { // written whole
          long startAt = Long.parseLong(text.substring(0, text.length() - 1));
          long wait = startAt - System.currentTimeMillis();
          if (wait > 0) {
            Thread.sleep(wait);
          }
          return;
        }
      }
      if (System.currentTimeMillis() > deadline) {
        throw new IllegalStateException(
            "no start signal from the parent in " + job.startSignal() + " within 10 minutes");
      }
      Thread.sleep(POLL_MILLIS);
    }
  }
}
