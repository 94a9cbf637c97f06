package io.stratus.core;

import io.stratus.InvalidRequestException;
import java.util.regex.Pattern;

/**
 * The rule for collection and index names: they become URI segments, so they are restricted to
 * letters, digits, '_', '-' and '.', 1 to {@link #MAX_LENGTH} characters, and "." and ".." are
 * refused (they read as path steps).
 */
final class Names {
  static final int MAX_LENGTH = 100;
  private static final Pattern NAME = Pattern.compile("[A-Za-z0-9_.-]{1," + MAX_LENGTH + "}");

  private Names() {}

  /** {@code name} if valid, else {@link InvalidRequestException}. */
  static String check(String what, String name) {
    if (name == null || !NAME.matcher(name).matches() || name.equals(".") || name.equals("..")) {
      throw new InvalidRequestException(
          "invalid "
              + what
              + " name "
              + (name == null ? "null" : quote(name))
              + ": use 1 to "
              + MAX_LENGTH
              + " letters, digits, '_', '-' or '.'");
    }
    return name;
  }

  /** Longest part of a rejected name echoed in a message. */
  static final int ECHO_LENGTH = 40;

  /**
   * {@code name} as a message may show it: at most {@link #ECHO_LENGTH} characters, control and
   * other invisible characters escaped, and its full length when cut. A rejected name comes from
   * outside; echoed whole it could flood a log or forge log lines.
   */
  static String quote(String name) {
    if (name == null) {
      return "null";
    }
    StringBuilder b = new StringBuilder("\"");
    int shown = Math.min(name.length(), ECHO_LENGTH);
    for (int i = 0; i < shown; i++) {
      char c = name.charAt(i);
      if (c < 0x20
          || c == 0x7f
          || Character.isISOControl(c)
          || Character.getType(c) == Character.FORMAT) {
        b.append(String.format("\\u%04x", (int) c));
      } else {
        b.append(c);
      }
    }
    b.append('"');
    if (shown < name.length()) {
      b.append("... (").append(name.length()).append(" characters)");
    }
    return b.toString();
  }
}
