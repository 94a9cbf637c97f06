package io.stratus.bench.tpcw.rbe;

import io.stratus.bench.tpcw.workload.Interaction;
import io.stratus.bench.tpcw.workload.InteractionOutcome;
import java.util.ArrayList;
import java.util.List;

/**
 * What one emulated browser measured in the measurement interval: per interaction and ending
 * ({@link Slots}), the counts, the errors and what the bookstore reported; its response times go in batches to the run's shared
 * {@link ResponseTimes}.
 *
 * <p>Why one per browser: recording must not make browsers contend, and several hundred browsers
 * record thousands of interactions a second. Each browser records into its own tally; the
 * emulator merges the tallies after the run. The monitor is only contended by that merge (the
 * progress counter is read without it): a straggler still running when the emulator gives up
 * waiting for it cannot tear the merged numbers, it just misses the merge.
 */
final class BrowserTally {
  /** Error samples each browser keeps; the report keeps the first few of all browsers. */
  static final int SAMPLES_PER_BROWSER = 5;

  /** Response times buffered before they are added to the shared histograms. */
  static final int BATCH = 128;

  private final Counts[] measured = new Counts[Slots.COUNT];
  private final List<String> errorSamples = new ArrayList<>();
  private final ResponseTimes responseTimes;
  private final WindowCounts windows;
  private final byte[] batchSlots = new byte[BATCH];
  private final long[] batchMicros = new long[BATCH];
  private int batched;
  private long warmUpInteractions;
  private volatile long interactionsDone;

  BrowserTally(ResponseTimes responseTimes, int windows) {
    this.responseTimes = responseTimes;
    this.windows = new WindowCounts(windows);
    for (int i = 0; i < measured.length; i++) {
      measured[i] = new Counts();
    }
  }

  /**
   * Records one interaction.
   *
   * @param inMeasurement whether it started in the measurement interval
   * @param window the window of the interval it started in (see {@link RunControl#windowAt})
   * @param responseNanos its response time (server time plus the end-user round trip)
   * @param outcome what it did, or null when it failed
   * @param failure why it failed, or null
   */
  synchronized void record(
      Interaction wi,
      boolean inMeasurement,
      int window,
      long responseNanos,
      InteractionOutcome outcome,
      Throwable failure) {
    interactionsDone++;
    if (failure != null && errorSamples.size() < SAMPLES_PER_BROWSER) {
      errorSamples.add(
          (inMeasurement ? "" : "(warm-up) ")
              + wi.label()
              + ": "
              + failure.getClass().getName()
              + ": "
              + failure.getMessage());
    }
    if (!inMeasurement) {
      warmUpInteractions++;
      return;
    }
    if (failure != null) {
      measured[Slots.failed(wi)].errors++;
      windows.errors[window]++;
      return;
    }
    int slot = Slots.of(wi, outcome.wrote());
    Counts c = measured[slot];
    c.completed++;
    long micros = Math.max(0, (responseNanos + 500) / 1000);
    c.sumMicros += micros;
    windows.completed(window, micros, outcome.wrote(), outcome.recordsWritten());
    batchSlots[batched] = (byte) slot;
    batchMicros[batched] = micros;
    if (++batched == BATCH) {
      flush();
    }
    c.recordsRead += outcome.recordsRead();
    c.recordsWritten += outcome.recordsWritten();
    c.retries += outcome.retries();
    if (outcome.wrote()) {
      c.wrote++;
      c.recordsWrittenByWriters += outcome.recordsWritten();
    }
    if (outcome.stalenessMillis() >= 0) {
      c.stalenessSamples++;
      c.stalenessSumMillis += outcome.stalenessMillis();
      c.stalenessMaxMillis = Math.max(c.stalenessMaxMillis, outcome.stalenessMillis());
    }
  }

  /** Interactions recorded so far, either phase; read without locking for progress. */
  long interactionsDone() {
    return interactionsDone;
  }

  /**
   * Adds this browser's numbers to {@code into} (per {@link Slots slot}) and its samples to {@code
   * samples}, and its buffered response times to the shared histograms; returns its warm-up
   * interactions.
   */
  synchronized long mergeInto(Counts[] into, List<String> samples) {
    flush();
    for (int i = 0; i < measured.length; i++) {
      into[i].add(measured[i]);
    }
    samples.addAll(errorSamples);
    return warmUpInteractions;
  }

  /** Adds this browser's counts per window of the measurement interval to {@code into}. */
  synchronized void mergeWindowsInto(WindowCounts into) {
    into.add(windows);
  }

  /** Adds the buffered response times to the shared histograms now. */
  synchronized void flushResponseTimes() {
    flush();
  }

  private void flush() {
    responseTimes.add(batchSlots, batchMicros, batched);
    batched = 0;
  }

  /** The measured numbers of one interaction (or, merged, of a group). Not thread-safe. */
  static final class Counts {
    long completed;
    long errors;
    long sumMicros;
    long recordsRead;
    long recordsWritten;
    long retries;

    /** Completed interactions that reported {@code wrote}. */
    long wrote;

    /** Records written by the completed interactions that reported {@code wrote}. */
    long recordsWrittenByWriters;

    long stalenessSamples;
    long stalenessSumMillis;
    long stalenessMaxMillis;

    void add(Counts o) {
      completed += o.completed;
      errors += o.errors;
      sumMicros += o.sumMicros;
      recordsRead += o.recordsRead;
      recordsWritten += o.recordsWritten;
      retries += o.retries;
      wrote += o.wrote;
      recordsWrittenByWriters += o.recordsWrittenByWriters;
      stalenessSamples += o.stalenessSamples;
      stalenessSumMillis += o.stalenessSumMillis;
      stalenessMaxMillis = Math.max(stalenessMaxMillis, o.stalenessMaxMillis);
    }

    /** Interactions started in the interval, failed ones included: what the meters charge. */
    long attempts() {
      return completed + errors;
    }
  }
}
