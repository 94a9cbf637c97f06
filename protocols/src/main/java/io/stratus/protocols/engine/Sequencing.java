package io.stratus.protocols.engine;

import io.stratus.protocols.log.LogRecord;
import java.util.List;
import java.util.Map;

/**
 * How a handle orders the records of its commits — one of the engine's strategies.
 *
 * <ul>
 *   <li>{@link #none()}: records carry no counters; a checkpoint applies what it receives in
 *       commit-time order (the basic protocol);
 *   <li>{@link WriterLanes}: records are numbered per (writer lane, queue) and carry the other
 *       lanes' completed counters, so checkpoints apply each writer's records exactly once and in
 *       order (monotonic writes; the monotonic and atomic protocols).
 * </ul>
 *
 * <p>Contract: a commit MUST hold a {@link Slot} from before it numbers its records until it knows
 * what became of them, and MUST then report exactly one of {@link Slot#completed} (the records
 * arrived or will) or {@link Slot#giveBack} (they never will). Implementations are thread-safe.
 */
public interface Sequencing extends AutoCloseable {

  /** One commit's place in the order, held by the committing thread until {@link #close}. */
  interface Slot extends AutoCloseable {
    /** Numbers the records per queue (replacing each list's elements); no-op when unordered. */
    void number(Map<String, List<LogRecord>> byQueue);

    /** The numbered records arrived or will: commits that begin from now on come after them. */
    void completed(Map<String, List<LogRecord>> byQueue);

    /** The numbered records will never reach a PU queue: their counters are free again. */
    void giveBack(Map<String, List<LogRecord>> byQueue);

    /** Releases the place. */
    @Override
    void close();
  }

  /** A place for one commit; may wait while every place is taken. */
  Slot acquire();

  /**
   * Whether a record that may be missing stalls the writer's later records: then a commit whose
   * outcome is unknown must be sent again until it is known to have arrived, and is never just
   * reported and forgotten.
   */
  boolean gapsStall();

  /** Releases what the strategy holds (its writer lease); the default holds nothing. */
  @Override
  default void close() {}

  /** No order: records carry no counters (the basic protocol). */
  static Sequencing none() {
    return Unordered.INSTANCE;
  }

  /** The strategy of {@link #none()}. */
  final class Unordered implements Sequencing, Slot {
    private static final Unordered INSTANCE = new Unordered();

    private Unordered() {}

    @Override
    public Slot acquire() {
      return this;
    }

    @Override
    public boolean gapsStall() {
      return false;
    }

    @Override
    public void number(Map<String, List<LogRecord>> byQueue) {}

    @Override
    public void completed(Map<String, List<LogRecord>> byQueue) {}

    @Override
    public void giveBack(Map<String, List<LogRecord>> byQueue) {}

    @Override
    public void close() {}
  }
}
