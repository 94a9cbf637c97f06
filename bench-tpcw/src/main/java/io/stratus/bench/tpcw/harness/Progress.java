package io.stratus.bench.tpcw.harness;

import me.tongfei.progressbar.ConsoleProgressBarConsumer;
import me.tongfei.progressbar.ProgressBar;
import me.tongfei.progressbar.ProgressBarBuilder;
import me.tongfei.progressbar.ProgressBarStyle;

/**
 * A progress bar on the error stream (so the table on standard output stays clean), or nothing
 * when bars are off. {@link #stepTo} may be called from any thread.
 */
final class Progress implements AutoCloseable {
  private final ProgressBar bar;

  private Progress(ProgressBar bar) {
    this.bar = bar;
  }

  static Progress open(boolean enabled, String task, long max, String unit) {
    if (!enabled) {
      return new Progress(null);
    }
    ProgressBar bar =
        new ProgressBarBuilder()
            .setTaskName("  " + task)
            .setInitialMax(Math.max(1, max))
            .setUnit(" " + unit, 1)
            .setStyle(ProgressBarStyle.ASCII)
            .setUpdateIntervalMillis(250)
            .continuousUpdate()
            .setConsumer(new ConsoleProgressBarConsumer(System.err))
            .build();
    return new Progress(bar);
  }

  void stepTo(long n) {
    if (bar != null) {
      bar.stepTo(Math.min(n, bar.getMax()));
    }
  }

  @Override
  public void close() {
    if (bar != null) {
      bar.stepTo(bar.getMax());
      bar.close();
    }
  }
}
