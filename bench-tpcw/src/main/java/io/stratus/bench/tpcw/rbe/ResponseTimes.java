package io.stratus.bench.tpcw.rbe;

import io.stratus.bench.tpcw.workload.Interaction;
import java.util.EnumMap;
import java.util.Map;
import org.HdrHistogram.Histogram;

/**
 * The response-time histograms of one run, one per interaction, in microseconds with three
 * significant digits, fed in batches by the browsers' tallies.
 *
 * <p>Why shared and batched instead of a histogram per browser and interaction: a histogram that
 * covers a minute at microsecond resolution with three digits holds about 17,000 counters (140
 * KB); fourteen per browser for several hundred browsers would take about a gigabyte. Each browser
 * instead buffers its last {@value BrowserTally#BATCH} response times and adds them here in one
 * call, so the lock is taken once per batch: a few times a second for the whole run, never a point
 * of contention.
 */
final class ResponseTimes {
  private final Map<Interaction, Histogram> histograms = new EnumMap<>(Interaction.class);

  ResponseTimes() {
    for (Interaction wi : Interaction.values()) {
      histograms.put(wi, new Histogram(3)); // auto-resizing: no value is ever out of range
    }
  }

  /** Adds the first {@code n} response times of a batch; {@code pages[i]} is an ordinal. */
  synchronized void add(byte[] pages, long[] micros, int n) {
    Interaction[] all = Interaction.values();
    for (int i = 0; i < n; i++) {
      histograms.get(all[pages[i]]).recordValue(micros[i]);
    }
  }

  /** Copies of the histograms as they are now. */
  synchronized Map<Interaction, Histogram> copies() {
    Map<Interaction, Histogram> copies = new EnumMap<>(Interaction.class);
    histograms.forEach((wi, h) -> copies.put(wi, h.copy()));
    return copies;
  }
}
