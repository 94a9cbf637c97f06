package io.stratus.zookeeper;

import java.time.DateTimeException;
import java.time.Duration;
import java.time.Instant;
import java.util.Collections;
import java.util.Map;
import java.util.NavigableMap;
import java.util.TreeMap;

/**
 * The timeouts of a lock or counter service per URI prefix, and the longest timeout ever
 * configured, as kept in one znode ({@code .../timeouts}) that every client reads.
 *
 * <p>Why one znode for all prefixes: a lookup needs the longest matching prefix among all of them,
 * which one read of one node answers; prefixes are few (one per kind of resource), so the node
 * stays small. Why the longest ever is kept: it bounds the refusal period after a restart, and a
 * lease or value handed out before the restart may carry any timeout configured before it, even
 * one shortened since; so it only grows. Both survive restarts: they live outside the state a
 * restart loses (paper 000, section 2.3.6 keeps them persistently).
 *
 * <p>Immutable; {@link #with} returns a new table.
 */
final class TimeoutTable {
  static final TimeoutTable EMPTY = new TimeoutTable(new TreeMap<>(), Duration.ZERO);

  private final NavigableMap<String, Duration> byPrefix;
  private final Duration longestEver;

  private TimeoutTable(NavigableMap<String, Duration> byPrefix, Duration longestEver) {
    this.byPrefix = Collections.unmodifiableNavigableMap(byPrefix);
    this.longestEver = longestEver;
  }

  /** This table with {@code prefix} set to {@code timeout}. */
  TimeoutTable with(String prefix, Duration timeout) {
    TreeMap<String, Duration> next = new TreeMap<>(byPrefix);
    next.put(prefix, timeout);
    return new TimeoutTable(next, timeout.compareTo(longestEver) > 0 ? timeout : longestEver);
  }

  /** This table with a longest-ever timeout of at least {@code d}; itself when it has one. */
  TimeoutTable noting(Duration d) {
    return d.compareTo(longestEver) > 0 ? new TimeoutTable(new TreeMap<>(byPrefix), d) : this;
  }

  /** The longest timeout ever configured in this table (zero when none was). */
  Duration longestEver() {
    return longestEver;
  }

  /** The timeout of the longest configured prefix of {@code uri}, else {@code fallback}. */
  Duration lookup(String uri, Duration fallback) {
    String key = uri;
    while (true) {
      Map.Entry<String, Duration> floor = byPrefix.floorEntry(key);
      if (floor == null) {
        return fallback;
      }
      if (uri.startsWith(floor.getKey())) {
        return floor.getValue();
      }
      // The floor shares a strictly shorter prefix with the URI; only keys below it can match.
      key = uri.substring(0, commonPrefixLength(floor.getKey(), uri));
    }
  }

  byte[] encode() {
    Codec.Writer w = new Codec.Writer().writeDuration(longestEver).writeInt(byPrefix.size());
    for (Map.Entry<String, Duration> e : byPrefix.entrySet()) {
      w.writeString(e.getKey()).writeDuration(e.getValue());
    }
    return w.toBytes();
  }

  static TimeoutTable decode(byte[] data) {
    if (data == null || data.length == 0) {
      return EMPTY;
    }
    Codec.Reader r = new Codec.Reader(data, "timeout table");
    Duration longest = r.readDuration();
    int n = r.readCount(16);
    TreeMap<String, Duration> map = new TreeMap<>();
    for (int i = 0; i < n; i++) {
      map.put(r.readString(), r.readDuration());
    }
    return new TimeoutTable(map, longest);
  }

  /** {@code start + d}, or {@link Instant#MAX} beyond the range of an instant. */
  static Instant plus(Instant start, Duration d) {
    try {
      return start.plus(d);
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

  @Override
  public String toString() {
    return "TimeoutTable" + byPrefix + " longest " + longestEver;
  }
}
