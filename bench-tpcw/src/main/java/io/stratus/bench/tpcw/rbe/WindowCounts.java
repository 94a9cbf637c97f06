package io.stratus.bench.tpcw.rbe;

/**
 * Per window of the measurement interval (see {@link Emulator.Builder#windows}): what the
 * interactions that started in it did. One per browser, filled under its tally's lock and merged
 * after the run; not thread-safe.
 */
final class WindowCounts {
  final long[] completed;
  final long[] errors;
  final long[] sumMicros;
  final long[] updates;
  final long[] updateMicros;
  final long[] recordsWritten;

  WindowCounts(int windows) {
    completed = new long[windows];
    errors = new long[windows];
    sumMicros = new long[windows];
    updates = new long[windows];
    updateMicros = new long[windows];
    recordsWritten = new long[windows];
  }

  int size() {
    return completed.length;
  }

  /** Records a completed interaction of window {@code w}. */
  void completed(int w, long micros, boolean wrote, long written) {
    completed[w]++;
    sumMicros[w] += micros;
    if (wrote) {
      updates[w]++;
      updateMicros[w] += micros;
      recordsWritten[w] += written;
    }
  }

  void add(WindowCounts o) {
    for (int w = 0; w < size(); w++) {
      completed[w] += o.completed[w];
      errors[w] += o.errors[w];
      sumMicros[w] += o.sumMicros[w];
      updates[w] += o.updates[w];
      updateMicros[w] += o.updateMicros[w];
      recordsWritten[w] += o.recordsWritten[w];
    }
  }
}
