package io.stratus.cloudapi.decorate;

import io.stratus.cloudapi.CrashPoints;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import org.jspecify.annotations.Nullable;

/**
 * {@link CrashPoints} that kill the (simulated) client process where a test says: at the N-th time
 * a named point is reached, or at random with a seeded probability. When triggered it runs the
 * {@link #onCrash} hooks (typically {@code faultInterceptor::killClient}, so that the dead client's
 * cloud calls in flight get no replies either) and throws {@link SimulatedCrashException}; every
 * later {@link #reach} throws it too, because a dead process reaches nothing.
 *
 * <p>Random crashes are decided per (seed, point, occurrence), so a run replays from its seed
 * however threads interleave.
 *
 * <p>Thread-safe: counts are atomic, the crash is decided once by compare-and-set (one thread runs
 * the hooks), and arming may happen while other threads reach points.
 */
public final class ScriptedCrashPoints implements CrashPoints {
  private final ConcurrentHashMap<String, AtomicLong> counts = new ConcurrentHashMap<>();
  private final ConcurrentHashMap<String, Long> armed = new ConcurrentHashMap<>();
  private final CopyOnWriteArrayList<Runnable> hooks = new CopyOnWriteArrayList<>();
  private final AtomicReference<String> crash = new AtomicReference<>();
  private volatile @Nullable RandomArm random;

  /** Crash points with nothing armed: every point passes until one is armed. */
  public ScriptedCrashPoints() {}

  /**
   * Crash at the {@code occurrence}-th time (1-based) {@code point} is reached. Arming a point
   * again keeps the earliest occurrence.
   */
  public ScriptedCrashPoints arm(String point, int occurrence) {
    Objects.requireNonNull(point, "point");
    if (occurrence < 1) {
      throw new IllegalArgumentException("occurrences count from 1, got " + occurrence);
    }
    armed.merge(point, (long) occurrence, Math::min);
    return this;
  }

  /**
   * Crash at each reach of one of {@code points} with probability {@code probability}, decided from
   * {@code seed}. Replaces an earlier random arming.
   */
  public ScriptedCrashPoints armRandomly(Set<String> points, long seed, double probability) {
    Objects.requireNonNull(points, "points");
    if (!(probability >= 0 && probability <= 1)) {
      throw new IllegalArgumentException("a probability must be in [0, 1], got " + probability);
    }
    random = new RandomArm(Set.copyOf(points), seed, probability);
    return this;
  }

  /** Runs {@code hook} when the crash happens, before the exception is thrown. */
  public ScriptedCrashPoints onCrash(Runnable hook) {
    hooks.add(Objects.requireNonNull(hook, "hook"));
    return this;
  }

  @Override
  public void reach(String point) {
    Objects.requireNonNull(point, "point");
    long n = counts.computeIfAbsent(point, p -> new AtomicLong()).incrementAndGet();
    String already = crash.get();
    if (already != null) {
      throw new SimulatedCrashException(
          "the process already crashed at " + already + "; it cannot reach " + point);
    }
    if (shouldCrash(point, n)) {
      String here = point + " #" + n;
      boolean first = crash.compareAndSet(null, here);
      SimulatedCrashException death =
          new SimulatedCrashException("simulated crash at " + crash.get());
      if (first) {
        runHooks(death);
      }
      throw death;
    }
  }

  private boolean shouldCrash(String point, long n) {
    Long at = armed.get(point);
    if (at != null && at == n) {
      return true;
    }
    RandomArm r = random;
    if (r == null || !r.points.contains(point)) {
      return false;
    }
    long bits = Decisions.mix(r.seed, "crash", point, n);
    return (bits >>> 11) * 0x1.0p-53 < r.probability;
  }

  /** Runs every hook once; a failing hook does not stop the others, and rides on {@code death}. */
  private void runHooks(SimulatedCrashException death) {
    for (Runnable hook : hooks) {
      try {
        hook.run();
      } catch (RuntimeException e) {
        death.addSuppressed(e);
      }
    }
  }

  /** How many times {@code point} has been reached (crashing reaches included). */
  public long reached(String point) {
    AtomicLong c = counts.get(point);
    return c == null ? 0 : c.get();
  }

  /** How many times each point has been reached, by name. */
  public Map<String, Long> reached() {
    Map<String, Long> m = new TreeMap<>();
    counts.forEach((k, v) -> m.put(k, v.get()));
    return m;
  }

  /** Whether the process has crashed. */
  public boolean crashed() {
    return crash.get() != null;
  }

  /** Where the process crashed, as "point #occurrence". */
  public Optional<String> crashedAt() {
    return Optional.ofNullable(crash.get());
  }

  private record RandomArm(Set<String> points, long seed, double probability) {}
}
