package io.stratus.cloudapi.inprocess;

import io.stratus.cloudapi.BadRequestException;
import java.time.DateTimeException;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ConcurrentSkipListMap;

/**
 * Timeouts per URI prefix with longest-prefix lookup, and the longest timeout ever configured: the
 * configuration of the lock service (lease length, paper 000, section 6.5) and of the counter
 * service (validation timeout, section 6.6), which both work the same way.
 *
 * <p>Why it is kept this way:
 *
 * <ul>
 *   <li><b>Timeouts survive restarts.</b> The paper keeps them persistently, so a service holds one
 *       instance for its whole life and a restart drops only the state the timeouts govern.
 *   <li><b>The longest timeout ever configured only grows.</b> It bounds the refusal period after a
 *       restart ({@link RefusalWindow}): a lease or value handed out before the restart may carry
 *       any timeout configured before it, even one shortened since.
 *   <li><b>Thread-safe, with lock-free reads.</b> Lookups only read a {@link
 *       ConcurrentSkipListMap}; writes are synchronized so that the maximum never misses a value.
 * </ul>
 *
 * <p>The lookup walks the sorted prefixes with {@code floorKey}: the greatest key not above the
 * URI is either a prefix of it, and then the longest one, or it shares a strictly shorter common
 * prefix with the URI, below which the search continues.
 */
final class PrefixTimeouts {
  private final String kind;
  private final Duration defaultTimeout;
  private final ConcurrentSkipListMap<String, Duration> byPrefix = new ConcurrentSkipListMap<>();
  private volatile Duration longestEver;

  /**
   * @param kind what the timeouts are of, for messages: "lock" or "counter"
   * @param defaultTimeout the timeout of a URI under no configured prefix; positive
   */
  PrefixTimeouts(String kind, Duration defaultTimeout) {
    this.kind = Objects.requireNonNull(kind, "kind");
    Objects.requireNonNull(defaultTimeout, "defaultTimeout");
    if (defaultTimeout.isNegative() || defaultTimeout.isZero()) {
      throw new IllegalArgumentException("a default timeout must be positive: " + defaultTimeout);
    }
    this.defaultTimeout = defaultTimeout;
    this.longestEver = defaultTimeout;
  }

  /** Sets the timeout of every URI whose longest configured prefix is {@code prefix}. */
  synchronized void set(String prefix, Duration timeout) {
    if (timeout == null || timeout.isNegative() || timeout.isZero()) {
      throw new BadRequestException("a " + kind + " timeout must be positive: " + timeout);
    }
    byPrefix.put(prefix, timeout);
    if (timeout.compareTo(longestEver) > 0) {
      longestEver = timeout;
    }
  }

  /** The longest timeout ever configured, the default included. */
  Duration longestEver() {
    return longestEver;
  }

  /** The timeout of the longest configured prefix of {@code uri}, else the default. */
  Duration lookup(String uri) {
    String key = uri;
    while (true) {
      Map.Entry<String, Duration> floor = byPrefix.floorEntry(key);
      if (floor == null) {
        return defaultTimeout;
      }
      if (uri.startsWith(floor.getKey())) {
        return floor.getValue();
      }
      key = uri.substring(0, commonPrefixLength(floor.getKey(), uri));
    }
  }

  /**
   * When a timeout that starts at {@code start} ends: {@code start + timeout}, or {@link
   * Instant#MAX} when that is beyond the range of an instant (a timeout may be set that long).
   */
  static Instant endOf(Instant start, Duration timeout) {
    try {
      return start.plus(timeout);
    } catch (DateTimeException | ArithmeticException e) {
      return Instant.MAX;
    }
  }

  private static int commonPrefixLength(String a, String b) {
    int n = Math.min(a.length(), b.length());
    int i = 0;
    while (i < n && a.charAt(i) == b.charAt(i)) {
      i++;
    }
    return i;
  }
}
