package io.stratus.bench.tpcw.harness;

import io.stratus.CorruptLogMessageException;
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
 * message counted once (a message left in its queue and received again is not counted twice). The
 * harness reads the count at the start and end of the measurement interval and around the drain,
 * so that the background's cost per record applied can be compared between the interval and the
 * drain. A message that cannot be read counts no record.
 */
final class AppliedRecords implements CallInterceptor {
  private final String prefix;
  private final Set<String> seen = ConcurrentHashMap.newKeySet();
  private final LongAdder records = new LongAdder();

  /** Counts the records of queues whose URI starts with {@code prefix}. */
  AppliedRecords(String prefix) {
    this.prefix = prefix;
  }

  @Override
  public <T> CompletableFuture<T> intercept(Call<T> call, Supplier<CompletableFuture<T>> proceed) {
    CompletableFuture<T> result = proceed.get();
    if (call.operation() == Operation.QUEUE_RECEIVE && call.target().startsWith(prefix)) {
      result.thenAccept(
          value -> {
            if (value instanceof List<?> messages) {
              for (Object o : messages) {
                if (o instanceof QueueMessage m && seen.add(m.messageId())) {
                  records.add(recordsOf(m));
                }
              }
            }
          });
    }
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
}
