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
    if (name == null || !NAME.matcher(name).matches() || name.equals(".")
        || name.equals("..")) {
      throw new InvalidRequestException("invalid " + what + " name "
          + (name == null ? "null" : "\"" + name + "\"") + ": use 1 to " + MAX_LENGTH
          + " letters, digits, '_', '-' or '.'");
    }
    return name;
  }
}
