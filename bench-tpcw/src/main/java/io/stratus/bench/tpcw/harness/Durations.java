package io.stratus.bench.tpcw.harness;

import java.time.Duration;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Parses and prints the durations of the command line: a number with a unit, {@code 250ms},
 * {@code 30s}, {@code 2m}, {@code 1h}, or an ISO-8601 duration ({@code PT30S}); {@code 0} alone is
 * zero.
 */
public final class Durations {
  private static final Pattern SIMPLE = Pattern.compile("(\\d+(?:\\.\\d+)?)\\s*(ms|s|m|h)");

  private Durations() {}

  /** Parses {@code text}; throws IllegalArgumentException saying what is expected. */
  public static Duration parse(String text) {
    String t = text.trim().toLowerCase(Locale.ROOT);
    if (t.equals("0")) {
      return Duration.ZERO;
    }
    Matcher m = SIMPLE.matcher(t);
    if (m.matches()) {
      double n = Double.parseDouble(m.group(1));
      double millis =
          switch (m.group(2)) {
            case "ms" -> n;
            case "s" -> n * 1_000;
            case "m" -> n * 60_000;
            default -> n * 3_600_000;
          };
      return Duration.ofNanos(Math.round(millis * 1_000_000));
    }
    try {
      return Duration.parse(text.trim().toUpperCase(Locale.ROOT));
    } catch (RuntimeException e) {
      throw new IllegalArgumentException(
          "bad duration '" + text + "' (expected e.g. 250ms, 30s, 2m, 1h or PT30S)");
    }
  }

  /** Short form: "250ms", "30s", "1.5s", "2m". */
  public static String format(Duration d) {
    long ms = d.toMillis();
    if (ms == 0) {
      return "0s";
    }
    if (ms % 60_000 == 0) {
      return (ms / 60_000) + "m";
    }
    if (ms % 1_000 == 0) {
      return (ms / 1_000) + "s";
    }
    if (ms < 1_000) {
      return ms + "ms";
    }
    return String.format(Locale.ROOT, "%.3gs", ms / 1000.0);
  }
}
