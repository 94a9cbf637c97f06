package io.stratus.cloudapi.decorate;

import io.stratus.cloudapi.Operation;
import java.util.Objects;
import java.util.SplittableRandom;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Seeded random decisions that do not depend on thread interleaving.
 *
 * <p>Why: a shared sequential {@code Random} hands out its numbers in the order threads happen to
 * ask, so a multi-threaded run cannot be replayed from its seed. Instead each decision draws from a
 * fresh {@link SplittableRandom} seeded with a hash of (seed, operation, target, ordinal), where
 * the ordinal counts the calls of that operation on that target. Whatever the interleaving, the
 * N-th put of a given URI gets the same decision.
 *
 * <p>The ordinals are kept per (operation, target) in a concurrent map that grows with the number
 * of distinct targets; fine for tests and benchmark runs, not meant for unbounded production use.
 */
final class Decisions {
  private final ConcurrentHashMap<Key, AtomicLong> ordinals = new ConcurrentHashMap<>();

  /** The 1-based ordinal of this call among the calls of {@code op} on {@code target}. */
  long nextOrdinal(Operation op, String target) {
    return ordinals.computeIfAbsent(new Key(op, target), k -> new AtomicLong()).incrementAndGet();
  }

  /**
   * The random stream of one decision. {@code purpose} keeps decorators that share a seed (faults,
   * jitter) from drawing the same numbers.
   */
  static SplittableRandom random(
      long seed, String purpose, Operation op, String target, long ordinal) {
    return new SplittableRandom(mix(mix64(seed ^ hash64(purpose)), op.name(), target, ordinal));
  }

  /** A well-mixed hash of a seed, two strings and a number. */
  static long mix(long seed, String a, String b, long n) {
    long h = mix64(seed ^ 0x9E3779B97F4A7C15L);
    h = mix64(h ^ hash64(a));
    h = mix64(h ^ hash64(b));
    return mix64(h ^ n);
  }

  /** 64-bit FNV-1a over the UTF-16 code units: stable across JVMs and runs. */
  static long hash64(String s) {
    long h = 0xcbf29ce484222325L;
    for (int i = 0; i < s.length(); i++) {
      h ^= s.charAt(i);
      h *= 0x100000001b3L;
    }
    return h;
  }

  /** Stafford's variant 13 of the MurmurHash3 finalizer (as in SplittableRandom). */
  static long mix64(long z) {
    z = (z ^ (z >>> 30)) * 0xbf58476d1ce4e5b9L;
    z = (z ^ (z >>> 27)) * 0x94d049bb133111ebL;
    return z ^ (z >>> 31);
  }

  private record Key(Operation op, String target) {
    Key {
      Objects.requireNonNull(op, "op");
      Objects.requireNonNull(target, "target");
    }
  }
}
