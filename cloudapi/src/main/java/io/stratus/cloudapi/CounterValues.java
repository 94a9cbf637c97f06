package io.stratus.cloudapi;

/**
 * How advanced-counter values carry an epoch (paper 000, section 6.6): the high bits hold the epoch
 * of the service instance that issued the value, the low {@value #SEQUENCE_BITS} bits its sequence
 * within that epoch. A restarted service starts a higher epoch, so every value it issues is above
 * every value issued before the restart, although it lost its counters.
 */
public final class CounterValues {
  /** Bits of a value that hold the sequence number within an epoch. */
  public static final int SEQUENCE_BITS = 40;

  /** The largest sequence number within one epoch. */
  public static final long MAX_SEQUENCE = (1L << SEQUENCE_BITS) - 1;

  /** The largest epoch. */
  public static final long MAX_EPOCH = (1L << (63 - SEQUENCE_BITS)) - 1;

  private CounterValues() {}

  /** The value with the given epoch and sequence. */
  public static long of(long epoch, long sequence) {
    if (epoch < 0 || epoch > MAX_EPOCH) {
      throw new IllegalArgumentException("epoch out of range: " + epoch);
    }
    if (sequence < 0 || sequence > MAX_SEQUENCE) {
      throw new IllegalArgumentException("sequence out of range: " + sequence);
    }
    return (epoch << SEQUENCE_BITS) | sequence;
  }

  public static long epoch(long value) {
    return value >>> SEQUENCE_BITS;
  }

  public static long sequence(long value) {
    return value & MAX_SEQUENCE;
  }
}
