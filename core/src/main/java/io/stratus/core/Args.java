package io.stratus.core;

import io.stratus.InvalidRequestException;

/** Argument checks of the public API: a missing argument is a documented error, not an NPE. */
final class Args {
  private Args() {}

  /** {@code value}, or {@link InvalidRequestException} naming {@code what} when it is null. */
  static <T> T notNull(T value, String what) {
    if (value == null) {
      throw new InvalidRequestException(what + " must not be null");
    }
    return value;
  }
}
