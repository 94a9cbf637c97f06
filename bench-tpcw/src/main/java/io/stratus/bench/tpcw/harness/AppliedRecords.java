package io.stratus.bench.tpcw.harness;

import io.stratus.CorruptLogMessageException;
import io.stratus.bench.tpcw.rbe.InteractionAttribution;
import io.stratus.cloudapi.Operation;
import io.stratus.cloudapi.QueueMessage;
import io.stratus.cloudapi.decorate.Call;
import io.stratus.cloudapi.decorate.CallInterceptor;
import io.stratus.protocols.log.LogMessages;
import io.stratus.protocols.log.LogPayloads;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.Supplier;

/**
 * Counts the log records checkpoints take out of the pending-update queues, in one client's
 * decorator chain: the records of every message received from a queue under {@code prefix}, each
 * message counted once (a message left in its queue and received again is not counted twice). A
 * receive's records count in the run phase the receive started in, as its request is charged
 * ({@link InteractionAttribution}): those of receives started in the measurement interval are the
 * interval's own checkpoints' ({@link #duringInterval()}), those started after it the drain's
 * ({@link #afterInterval()}), whether a background checkpoint still running when the browsers
 * stopped or the close took them. So the background's cost per record applied can be compared
 * between the interval and the drain on the same split as their requests. A message that cannot
 * be read counts no record.
 */
final class AppliedRecords implements CallInterceptor {
  private final String prefix;
  private final InteractionAttribution phases;
  private final Set<String> seen = ConcurrentHashMap.newKeySet();
  private final LongAdder records = new LongAdder();
  private final LongAdder duringInterval = new LongAdder();
  private final LongAdder afterInterval = new LongAdder();

  /**
   * Counts the records of queues whose URI starts with {@code prefix}, by the run phase of {@code
   * phases} (the attribution of the same chain) when each receive starts.
   */
  AppliedRecords(String prefix, InteractionAttribution phases) {
    this.prefix = prefix;
    this.phases = phases;
  }

  @Override
  public <T> CompletableFuture<T> intercept(Call<T> call, Supplier<CompletableFuture<T>> proceed) {
    if (call.operation() != Operation.QUEUE_RECEIVE || !call.target().startsWith(prefix)) {
      return proceed.get();
    }
    LongAdder phase =
        phases.inInterval() ? duringInterval : phases.afterInterval() ? afterInterval : null;
    CompletableFuture<T> result = proceed.get();
    result.thenAccept(
        value -> {
          if (value instanceof List<?> messages) {
            for (Object o : messages) {
              if (o instanceof QueueMessage m && seen.add(m.messageId())) {
                int n = recordsOf(m);
                records.add(n);
                if (phase != null) {
                  phase.add(n);
                }
              }
            }
          }
        });
    return result;
  }

  private static int recordsOf(QueueMessage m) {
    try {
      return LogMessages.unpack(LogPayloads.of(m)).size();
    } catch (CorruptLogMessageException e) {
      return 0;
    }
  }

  /** Records counted so far. */
  long count() {
    return records.sum();
  }

  /** Records of the receives that started in the measurement interval. */
  long duringInterval() {
    return duringInterval.sum();
  }

  /** Records of the receives that started after the measurement interval. */
  long afterInterval() {
    return afterInterval.sum();
  }
}
