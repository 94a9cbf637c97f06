package io.stratus.bench.tpcw.rbe;

import org.HdrHistogram.Histogram;

/**
 * The response-time histograms of one run, one per interaction and ending ({@link Slots}), in
 * microseconds with three significant digits, fed in batches by the browsers' tallies.
 *
 * <p>Why shared and batched instead of a histogram per browser and interaction: a histogram that
 * covers a minute at microsecond resolution with three digits holds about 17,000 counters (140
 * KB); 28 per browser for several hundred browsers would take about a gigabyte. Each browser
 * instead buffers its last {@value BrowserTally#BATCH} response times and adds them here in one
 * call, so the lock is taken once per batch: a few times a second for the whole run, never a point
 * of contention.
 */
final class ResponseTimes {
  private final Histogram[] histograms = new Histogram[Slots.COUNT];

  ResponseTimes() {
    for (int i = 0; i < histograms.length; i++) {
      histograms[i] = new Histogram(3); // auto-resizing: no value is ever out of range
    }
  }

  /** Adds the first {@code n} response times of a batch; {@code slots[i]} is a {@link Slots}. */
  synchronized void add(byte[] slots, long[] micros, int n) {
    for (int i = 0; i < n; i++) {
      histograms[slots[i]].recordValue(micros[i]);
    }
  }

  /** Copies of the histograms as they are now, indexed by {@link Slots}. */
  synchronized Histogram[] copies() {
    Histogram[] copies = new Histogram[histograms.length];
    for (int i = 0; i < histograms.length; i++) {
      copies[i] = histograms[i].copy();
    }
    return copies;
  }
}
