package io.stratus.core;

import java.time.Instant;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * Where {@link Database#verify} learns of items set aside as undeliverable: log messages that
 * could not be applied (damaged, or failing every attempt) and were moved out of their queue so
 * they stop blocking it. The verifier reports each as a {@link Finding.Kind#DEAD_LETTER} warning:
 * a dead letter is a committed change that no page reflects until an operator deals with it.
 *
 * <p>The verifier only reads through this interface; an implementation must not consume or
 * delete what it lists. {@link #NONE} lists nothing. Implementations must be thread-safe.
 */
@FunctionalInterface
public interface DeadLetterSource {
  /** A source that lists nothing. */
  DeadLetterSource NONE = List::of;

  /** The dead-lettered items of the database now. */
  List<DeadLetter> deadLetters();

  /**
   * One dead-lettered item.
   *
   * @param uri where the item is kept now
   * @param origin the queue (or other place) it was taken from
   * @param reason why it was set aside
   * @param since when it was set aside, if known
   */
  record DeadLetter(String uri, String origin, String reason, Optional<Instant> since) {
    /** Checks the parts. */
    public DeadLetter {
      Objects.requireNonNull(uri, "uri");
      Objects.requireNonNull(origin, "origin");
      Objects.requireNonNull(reason, "reason");
      Objects.requireNonNull(since, "since");
    }
  }
}
