package io.stratus.testkit;

import java.util.List;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * One violation found by a checker, readable on its own in a failing test's message.
 *
 * @param checker the checker's name (e.g. "monotonicReads")
 * @param key the key involved, or null if none in particular
 * @param txIds the transactions involved
 * @param message what was expected and what the history shows
 */
public record Anomaly(String checker, @Nullable String key, List<String> txIds, String message) {
  public Anomaly {
    Objects.requireNonNull(checker, "checker");
    Objects.requireNonNull(message, "message");
    txIds = List.copyOf(txIds);
  }

  @Override
  public String toString() {
    return "["
        + checker
        + "]"
        + (key == null ? "" : " key " + key)
        + ": "
        + message
        + (txIds.isEmpty() ? "" : " " + txIds);
  }
}
