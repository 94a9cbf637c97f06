package io.stratus.bench.tpcw.rbe;

import io.stratus.bench.tpcw.workload.Interaction;
import io.stratus.cloudapi.decorate.Call;
import io.stratus.cloudapi.decorate.CallInterceptor;
import io.stratus.cloudapi.decorate.CloudMeter;
import io.stratus.cloudapi.decorate.MeterSnapshot;
import io.stratus.cloudapi.decorate.MeteringInterceptor;
import java.util.Collections;
import java.util.EnumMap;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Supplier;

/**
 * Meters every Cloud API call and charges it to the web interaction that made it, so that the
 * report can give the cloud requests and dollars of each interaction.
 *
 * <p>Use: put it in the decorator chain of the database's services, outermost ({@code
 * Decorators.wrap(services, attribution, latency, faults, ...)}), so that it sees each call on the
 * thread that starts it; then give it to {@link Emulator.Builder#attribution}. The rule:
 *
 * <ul>
 *   <li>A call started on an emulated browser's thread while it executes an interaction of the
 *       measurement interval goes to that interaction's meter.
 *   <li>A call started on a browser's thread while it executes a warm-up interaction goes to the
 *       warm-up meter.
 *   <li>Every other call is background: started on another thread (background checkpoints, the
 *       atomic protocol's asynchronous propagation) or on a browser's thread outside any
 *       interaction (opening its session). It goes to the background meter of the run phase the
 *       call starts in: warm-up, measurement, or outside the run (loading the database, shutting
 *       down).
 * </ul>
 *
 * <p>"Started on the thread" is exact only for the outermost interceptor: the decorators call
 * {@link #intercept} synchronously on the caller's thread when a call starts. A call chained on
 * another's completion ({@code thenCompose}, {@code exceptionallyCompose}, as the queue sender does
 * to create a missing queue and resend) starts on whichever thread completed the first call (a
 * latency decorator's scheduler, an SDK thread); so the attribution completes the future it returns
 * with the first call's mark set on that thread, and the chained call counts where the first did.
 * Work an interaction hands to another thread (an executor, an {@code ...Async} stage) is
 * background; Stratus does this only for checkpoints (which never run on the application thread)
 * and the atomic protocol's propagation, which is what the report's allocation rule (see {@link
 * EmulatorReport}) spreads over the writing interactions.
 *
 * <p>Concurrency: the interaction mark is a thread-local set and cleared by the browser thread
 * itself (and, around a completion, by the completing thread, which restores its own mark); the
 * run phase is one atomic integer that only moves forward within a run; metering is the lock-free
 * {@link CloudMeter}. Calls never block here. One emulator run at a time may use an
 * instance; the emulator takes snapshots at the start and end of its run, so an instance may serve
 * several runs one after another.
 */
public final class InteractionAttribution implements CallInterceptor {
  /** Run phases as background calls see them; the order is the order of a run. */
  static final int OUTSIDE = 0;
  static final int WARM_UP = 1;
  static final int MEASURE = 2;
  static final int AFTER = 3;

  private final Map<Interaction, MeteringInterceptor> measured =
      new EnumMap<>(Interaction.class);
  private final MeteringInterceptor warmUpInteractions = metering();
  private final MeteringInterceptor backgroundOutside = metering();
  private final MeteringInterceptor backgroundWarmUp = metering();
  private final MeteringInterceptor backgroundMeasure = metering();
  private final ThreadLocal<MeteringInterceptor> current = new ThreadLocal<>();
  private final AtomicInteger phase = new AtomicInteger(OUTSIDE);

  /** An attribution with empty meters, outside any run. */
  public InteractionAttribution() {
    for (Interaction wi : Interaction.values()) {
      measured.put(wi, metering());
    }
  }

  @Override
  public <T> CompletableFuture<T> intercept(Call<T> call, Supplier<CompletableFuture<T>> proceed) {
    MeteringInterceptor mark = current.get();
    MeteringInterceptor meter = mark != null ? mark : background(phase.get());
    CompletableFuture<T> metered = meter.intercept(call, proceed);
    if (metered.isDone()) {
      return metered; // stages added later run on the caller's thread, which has the mark
    }
    // Completes the caller's future with this call's mark set on the completing thread, so that a
    // call the caller chains on it (thenCompose, exceptionallyCompose) counts where this one did.
    CompletableFuture<T> result = new CompletableFuture<>();
    metered.whenComplete((value, failure) -> {
      MeteringInterceptor previous = current.get();
      mark(mark);
      try {
        if (failure == null) {
          result.complete(value);
        } else {
          result.completeExceptionally(failure);
        }
      } finally {
        mark(previous);
      }
    });
    return result;
  }

  private void mark(MeteringInterceptor meter) {
    if (meter == null) {
      current.remove();
    } else {
      current.set(meter);
    }
  }

  /** Marks the calling thread as executing {@code interaction}, measured or warm-up. */
  void enter(Interaction interaction, boolean inMeasurement) {
    current.set(inMeasurement ? measured.get(interaction) : warmUpInteractions);
  }

  /** Ends the calling thread's mark. */
  void exit() {
    current.remove();
  }

  /** Starts a run: background calls from now on belong to {@code first} (warm-up or measure). */
  void beginRun(int first) {
    phase.set(first);
  }

  /** Moves the run phase forward to {@code next}; never backward (browsers race to report it). */
  void advance(int next) {
    phase.getAndAccumulate(next, Math::max);
  }

  /** Ends the run: later background calls are outside the run again. */
  void endRun() {
    phase.set(OUTSIDE);
  }

  /** The counts of every meter now. */
  Usage snapshot() {
    Map<Interaction, MeterSnapshot> perInteraction = new EnumMap<>(Interaction.class);
    for (Map.Entry<Interaction, MeteringInterceptor> e : measured.entrySet()) {
      perInteraction.put(e.getKey(), e.getValue().meter().snapshot());
    }
    return new Usage(
        Collections.unmodifiableMap(perInteraction), warmUpInteractions.meter().snapshot(),
        backgroundWarmUp.meter().snapshot(), backgroundMeasure.meter().snapshot(),
        backgroundOutside.meter().snapshot());
  }

  private MeteringInterceptor background(int runPhase) {
    return switch (runPhase) {
      case WARM_UP -> backgroundWarmUp;
      case MEASURE -> backgroundMeasure;
      default -> backgroundOutside;
    };
  }

  private static MeteringInterceptor metering() {
    return new MeteringInterceptor(new CloudMeter());
  }

  /**
   * Snapshots of all meters; {@link #minus} gives one run's usage.
   *
   * @param measured calls of measured interactions, per interaction
   * @param warmUp calls of warm-up interactions
   * @param backgroundWarmUp background calls started during the warm-up
   * @param backgroundMeasure background calls started during the measurement interval
   * @param backgroundOutside background calls started outside a run
   */
  record Usage(
      Map<Interaction, MeterSnapshot> measured, MeterSnapshot warmUp,
      MeterSnapshot backgroundWarmUp, MeterSnapshot backgroundMeasure,
      MeterSnapshot backgroundOutside) {

    Usage minus(Usage earlier) {
      Map<Interaction, MeterSnapshot> diff = new EnumMap<>(Interaction.class);
      for (Map.Entry<Interaction, MeterSnapshot> e : measured.entrySet()) {
        diff.put(e.getKey(), e.getValue().minus(earlier.measured.get(e.getKey())));
      }
      return new Usage(
          Collections.unmodifiableMap(diff), warmUp.minus(earlier.warmUp),
          backgroundWarmUp.minus(earlier.backgroundWarmUp),
          backgroundMeasure.minus(earlier.backgroundMeasure),
          backgroundOutside.minus(earlier.backgroundOutside));
    }
  }
}
