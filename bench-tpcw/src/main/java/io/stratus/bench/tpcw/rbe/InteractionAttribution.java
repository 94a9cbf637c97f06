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
 *       measurement interval goes to that interaction's meter, and there to the part of how the
 *       interaction ended ({@link Ending}): it wrote, it only read, or it failed. The ending is
 *       known only afterwards, so each browser counts its calls in a scratch meter of its own (a
 *       {@link Tap}) and moves them to the right meter when the interaction ends.
 *   <li>A call started on a browser's thread while it executes a warm-up interaction goes to the
 *       warm-up meter.
 *   <li>Every other call is background: started on another thread (background checkpoints, the
 *       atomic protocol's asynchronous propagation) or on a browser's thread outside any
 *       interaction (opening its session). It goes to the background meter of the run phase the
 *       call starts in: warm-up, measurement, after the measurement (browsers finishing, the drain
 *       of what the interval committed), or outside the run (loading the database, shutting down).
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
 * <p>A call that completes after its interaction has ended (a chained resend) still lands in the
 * browser's scratch meter; the tap moves it with the browser's next interaction or when the run
 * ends, so no call is lost from the totals.
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

  /** How a measured interaction ended, which decides the group its calls are charged to. */
  public enum Ending {
    /** It committed at least one write: an update interaction of the run. */
    WROTE,
    /** It completed without writing: a read interaction of the run. */
    READ_ONLY,
    /** It ended with an exception. */
    FAILED
  }

  private final Map<Interaction, Map<Ending, CloudMeter>> measured =
      new EnumMap<>(Interaction.class);
  private final CloudMeter warmUpInteractions = new CloudMeter();
  private final MeteringInterceptor backgroundOutside = metering();
  private final MeteringInterceptor backgroundWarmUp = metering();
  private final MeteringInterceptor backgroundMeasure = metering();
  private final MeteringInterceptor backgroundAfter = metering();
  private final ThreadMarkedMetering marks = new ThreadMarkedMetering();
  private final AtomicInteger phase = new AtomicInteger(OUTSIDE);

  /** An attribution with empty meters, outside any run. */
  public InteractionAttribution() {
    for (Interaction wi : Interaction.values()) {
      Map<Ending, CloudMeter> endings = new EnumMap<>(Ending.class);
      for (Ending e : Ending.values()) {
        endings.put(e, new CloudMeter());
      }
      measured.put(wi, endings);
    }
  }

  @Override
  public <T> CompletableFuture<T> intercept(Call<T> call, Supplier<CompletableFuture<T>> proceed) {
    return marks.intercept(call, proceed, background(phase.get()));
  }

  /**
   * Whether a background call starting now belongs to the measurement interval (and not to the
   * warm-up, to after the interval, or to no run).
   */
  public boolean inInterval() {
    return phase.get() == MEASURE;
  }

  /**
   * Whether a background call starting now comes after the measurement interval: the browsers'
   * last interactions' background work and the drain, charged to the interval as its drain.
   */
  public boolean afterInterval() {
    return phase.get() == AFTER;
  }

  /** A new tap for one emulated browser. */
  Tap newTap() {
    return new Tap();
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
    Map<Interaction, Map<Ending, MeterSnapshot>> perInteraction = new EnumMap<>(Interaction.class);
    for (Map.Entry<Interaction, Map<Ending, CloudMeter>> e : measured.entrySet()) {
      Map<Ending, MeterSnapshot> endings = new EnumMap<>(Ending.class);
      e.getValue().forEach((ending, meter) -> endings.put(ending, meter.snapshot()));
      perInteraction.put(e.getKey(), Collections.unmodifiableMap(endings));
    }
    return new Usage(
        Collections.unmodifiableMap(perInteraction), warmUpInteractions.snapshot(),
        backgroundWarmUp.meter().snapshot(), backgroundMeasure.meter().snapshot(),
        backgroundAfter.meter().snapshot(), backgroundOutside.meter().snapshot());
  }

  private MeteringInterceptor background(int runPhase) {
    return switch (runPhase) {
      case WARM_UP -> backgroundWarmUp;
      case MEASURE -> backgroundMeasure;
      case AFTER -> backgroundAfter;
      default -> backgroundOutside;
    };
  }

  private static MeteringInterceptor metering() {
    return new MeteringInterceptor(new CloudMeter());
  }

  /**
   * One browser's view of the attribution: it marks the browser's thread while an interaction
   * runs, counts that interaction's calls in a scratch meter, and moves them to the meter of the
   * interaction and its ending when it ends. Used by its browser's thread, and once by the
   * emulator after the run ({@link #close}); synchronized for that hand-over, never contended.
   */
  final class Tap {
    private final CloudMeter scratch = new CloudMeter();
    private final MeteringInterceptor marker = new MeteringInterceptor(scratch);
    private MeterSnapshot moved = MeterSnapshot.empty();
    private long movedCalls;
    private CloudMeter last;
    private Interaction interaction;
    private boolean inMeasurement;

    private Tap() {}

    /** Marks the calling thread as executing {@code interaction}, measured or warm-up. */
    synchronized void enter(Interaction interaction, boolean inMeasurement) {
      this.interaction = interaction;
      this.inMeasurement = inMeasurement;
      marks.mark(marker);
    }

    /** Ends the calling thread's mark and charges the interaction's calls to how it ended. */
    synchronized void exit(Ending ending) {
      marks.mark(null);
      moveTo(inMeasurement ? measured.get(interaction).get(ending) : warmUpInteractions);
    }

    /** Moves calls that completed after their interaction ended to where that one went. */
    synchronized void close() {
      if (last != null) {
        moveTo(last);
      }
    }

    private void moveTo(CloudMeter target) {
      last = target;
      if (scratch.calls() == movedCalls) {
        return; // most interactions are served from the cache: nothing to move
      }
      MeterSnapshot now = scratch.snapshot();
      movedCalls = now.requests();
      MeterSnapshot delta = now.minus(moved);
      moved = now;
      if (!delta.isEmpty()) {
        target.add(delta);
      }
    }
  }

  /**
   * Snapshots of all meters; {@link #minus} gives one run's usage.
   *
   * @param measured calls of measured interactions, per interaction and ending
   * @param warmUp calls of warm-up interactions
   * @param backgroundWarmUp background calls started during the warm-up
   * @param backgroundMeasure background calls started during the measurement interval
   * @param backgroundAfter background calls started after the measurement interval, before the
   *     run ended: the browsers' last interactions finishing and the drain of what the interval
   *     committed
   * @param backgroundOutside background calls started outside a run
   */
  record Usage(
      Map<Interaction, Map<Ending, MeterSnapshot>> measured,
      MeterSnapshot warmUp,
      MeterSnapshot backgroundWarmUp,
      MeterSnapshot backgroundMeasure,
      MeterSnapshot backgroundAfter,
      MeterSnapshot backgroundOutside) {

    /** The calls of {@code interaction}'s measured interactions with one of {@code endings}. */
    MeterSnapshot direct(Interaction interaction, Ending... endings) {
      MeterSnapshot sum = MeterSnapshot.empty();
      for (Ending e : endings) {
        sum = sum.plus(measured.get(interaction).get(e));
      }
      return sum;
    }

    /** Per interaction, all calls of its measured interactions. */
    Map<Interaction, MeterSnapshot> directPerInteraction() {
      Map<Interaction, MeterSnapshot> m = new EnumMap<>(Interaction.class);
      for (Interaction wi : Interaction.values()) {
        m.put(wi, direct(wi, Ending.values()));
      }
      return Collections.unmodifiableMap(m);
    }

    /** The usage of this and {@code other} together (e.g. of two clients). */
    Usage plus(Usage other) {
      Map<Interaction, Map<Ending, MeterSnapshot>> sum = new EnumMap<>(Interaction.class);
      for (Map.Entry<Interaction, Map<Ending, MeterSnapshot>> e : measured.entrySet()) {
        Map<Ending, MeterSnapshot> endings = new EnumMap<>(Ending.class);
        Map<Ending, MeterSnapshot> theirs = other.measured.get(e.getKey());
        e.getValue().forEach((ending, s) -> endings.put(ending, s.plus(theirs.get(ending))));
        sum.put(e.getKey(), Collections.unmodifiableMap(endings));
      }
      return new Usage(
          Collections.unmodifiableMap(sum),
          warmUp.plus(other.warmUp),
          backgroundWarmUp.plus(other.backgroundWarmUp),
          backgroundMeasure.plus(other.backgroundMeasure),
          backgroundAfter.plus(other.backgroundAfter),
          backgroundOutside.plus(other.backgroundOutside));
    }

    Usage minus(Usage earlier) {
      Map<Interaction, Map<Ending, MeterSnapshot>> diff = new EnumMap<>(Interaction.class);
      for (Map.Entry<Interaction, Map<Ending, MeterSnapshot>> e : measured.entrySet()) {
        Map<Ending, MeterSnapshot> endings = new EnumMap<>(Ending.class);
        Map<Ending, MeterSnapshot> before = earlier.measured.get(e.getKey());
        e.getValue().forEach((ending, s) -> endings.put(ending, s.minus(before.get(ending))));
        diff.put(e.getKey(), Collections.unmodifiableMap(endings));
      }
      return new Usage(
          Collections.unmodifiableMap(diff),
          warmUp.minus(earlier.warmUp),
          backgroundWarmUp.minus(earlier.backgroundWarmUp),
          backgroundMeasure.minus(earlier.backgroundMeasure),
          backgroundAfter.minus(earlier.backgroundAfter),
          backgroundOutside.minus(earlier.backgroundOutside));
    }
  }
}
