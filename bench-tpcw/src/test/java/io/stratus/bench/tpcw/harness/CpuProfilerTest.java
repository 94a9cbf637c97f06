package io.stratus.bench.tpcw.harness;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import io.stratus.bench.tpcw.harness.CpuProfiler.Part;
import io.stratus.bench.tpcw.harness.CpuProfiler.ThreadSample;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/** The CPU profile charges each thread's CPU to the part its stack is in, from scripted samples. */
class CpuProfilerTest {

  @Test
  void theInnermostStratusFrameDecidesThePart() {
    assertThat(CpuProfiler.partOf("io.stratus.core.Database", true))
        .isEqualTo(Part.LIBRARY_FOREGROUND);
    assertThat(CpuProfiler.partOf("io.stratus.protocols.Checkpointer", false))
        .isEqualTo(Part.LIBRARY_BACKGROUND);
    assertThat(CpuProfiler.partOf("io.stratus.bench.tpcw.bookstore.Work", true))
        .isEqualTo(Part.HARNESS);
    assertThat(CpuProfiler.partOf("io.stratus.cloudapi.inprocess.InProcessStorage", true))
        .isEqualTo(Part.CLOUD);
    assertThat(CpuProfiler.partOf("io.stratus.cloudapi.decorate.LatencyInterceptor", false))
        .isEqualTo(Part.CLOUD);
    assertThat(CpuProfiler.partOf(null, true)).isEqualTo(Part.OTHER);
  }

  @Test
  void eachThreadsCpuGoesWhereItsStackWas() {
    List<List<ThreadSample>> script = new ArrayList<>();
    // Browser thread 1: in the library, then in the harness, then blocked (its CPU since the
    // last sample goes where it last ran). Checkpoint thread 2: in the library. Thread 3 appears
    // late: its first sample only sets its start.
    script.add(
        List.of(
            new ThreadSample(1, true, true, "io.stratus.core.Transaction", 1_000_000),
            new ThreadSample(2, false, true, "io.stratus.protocols.Checkpoints", 0)));
    script.add(
        List.of(
            new ThreadSample(1, true, true, "io.stratus.core.Transaction", 4_000_000),
            new ThreadSample(2, false, true, "io.stratus.protocols.Checkpoints", 2_000_000),
            new ThreadSample(3, true, true, "io.stratus.bench.tpcw.rbe.Emulator", 9_000_000)));
    script.add(
        List.of(
            new ThreadSample(1, true, true, "io.stratus.bench.tpcw.bookstore.Work", 5_000_000),
            new ThreadSample(2, false, false, null, 2_000_000),
            new ThreadSample(3, true, false, null, 10_000_000)));
    script.add(List.of(new ThreadSample(1, true, false, null, 7_000_000)));
    AtomicLong process = new AtomicLong();
    AtomicLong collection = new AtomicLong();
    int[] next = {0};
    CpuProfiler profiler =
        new CpuProfiler(
            () -> script.get(next[0]++),
            new CpuProfiler.JvmTimes(
                () -> process.addAndGet(10_000_000), () -> collection.addAndGet(4), () -> -1));
    CpuProfiler.Totals start = profiler.totals();
    for (int i = 0; i < script.size(); i++) {
      profiler.sample();
    }
    CpuProfile p = CpuProfiler.between(start, profiler.totals(), 2);
    // thread 1: 3 ms library, then 1 ms harness, then 2 ms still harness (where it last ran)
    assertThat(p.libraryForeground()).isCloseTo(1_500, within(1e-9));
    // thread 2: 2 ms library background; thread 3: 1 ms harness
    assertThat(p.libraryBackground()).isCloseTo(1_000, within(1e-9));
    assertThat(p.harness()).isCloseTo(2_000, within(1e-9));
    assertThat(p.cloud()).isZero();
    assertThat(p.library()).isCloseTo(2_500, within(1e-9));
    assertThat(p.process()).as("the process's 10 ms over 2 interactions").isEqualTo(5_000);
    assertThat(p.garbageCollection()).as("4 ms of collections over 2").isEqualTo(2_000);
    assertThat(p.compilation()).as("unknown").isNaN();
    assertThat(p.samples()).isEqualTo(4);
  }

  @Test
  void noInteractionsNoProfile() {
    CpuProfiler profiler =
        new CpuProfiler(List::of, new CpuProfiler.JvmTimes(() -> 0, () -> 0, () -> 0));
    assertThat(CpuProfiler.between(profiler.totals(), profiler.totals(), 0))
        .isEqualTo(CpuProfile.NONE);
  }
}
