package io.stratus.protocols.engine;

import io.stratus.protocols.log.LogRecord;
import io.stratus.protocols.log.PuQueues.Target;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * A commit's log records per PU queue and the targets (data pages, trees) they feed, as {@link
 * Router} made them; the {@link Sequencing} strategy numbers the lists in place.
 *
 * @param byQueue the records per queue URI, in routing order
 * @param targets the data pages and trees the queues feed
 * @param records how many records in all
 */
public record Routed(Map<String, List<LogRecord>> byQueue, Set<Target> targets, int records) {
  /** A commit that changes nothing. */
  static final Routed NOTHING = new Routed(Map.of(), Set.of(), 0);
}
