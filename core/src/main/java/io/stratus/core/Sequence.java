package io.stratus.core;

import io.stratus.InvalidRequestException;
import io.stratus.cloudapi.CloudException;
import io.stratus.cloudapi.CloudFutures;
import io.stratus.cloudapi.CounterService;

/**
 * Unique ids without a hot spot: each handle takes a block of ids at a time from the counter
 * service and hands them out from memory, as AppScale's datastore allocates id blocks from
 * ZooKeeper. One counter request serves {@link #blockSize()} calls of {@link #next()}.
 *
 * <p><b>Promises.</b> Every id handed out by any handle of the database under one sequence name is
 * unique and positive, across clients and restarts, because counter values only grow (a restarted
 * counter service continues in a higher epoch) and block {@code v} is the ids {@code v ×
 * blockSize} to {@code v × blockSize + blockSize − 1}. Ids of one handle grow; ids of different
 * handles interleave. <b>Gaps</b> are normal: a handle that closes or crashes drops the rest of
 * its block. All handles of one sequence must use the same block size.
 *
 * <p>Thread-safe: request threads share one instance ({@link Database#sequence}); a new block is
 * fetched by one thread while the others wait for it.
 */
public final class Sequence {
  /** The block size of {@link Database#sequence(String)}. */
  public static final int DEFAULT_BLOCK_SIZE = 100;

  /** The largest block size. */
  public static final int MAX_BLOCK_SIZE = 1 << 20;

  private final String name;
  private final String counterUri;
  private final CounterService counters;
  private final int blockSize;
  private long next; // guarded by this
  private long end; // exclusive; guarded by this

  Sequence(String name, String counterUri, CounterService counters, int blockSize) {
    if (blockSize < 1 || blockSize > MAX_BLOCK_SIZE) {
      throw new InvalidRequestException(
          "sequence block size must be 1 to " + MAX_BLOCK_SIZE + ", got " + blockSize);
    }
    this.name = name;
    this.counterUri = counterUri;
    this.counters = counters;
    this.blockSize = blockSize;
  }

  /** The sequence's name. */
  public String name() {
    return name;
  }

  /** How many ids one counter request reserves. */
  public int blockSize() {
    return blockSize;
  }

  /**
   * The next id: from the current block, or from a new one (one counter request).
   *
   * @throws io.stratus.CloudServiceException when the counter service fails; retryable unless
   *     the service refused the request for good (a lost reply only leaves a gap of ids)
   */
  public synchronized long next() {
    if (next == end) {
      long block;
      try {
        block = CloudFutures.await(counters.increment(counterUri));
      } catch (CloudException e) {
        throw CloudFailures.reading("next id of sequence " + name, e);
      }
      long first;
      try {
        first = Math.multiplyExact(block, (long) blockSize);
        Math.addExact(first, blockSize);
      } catch (ArithmeticException e) {
        throw new InvalidRequestException(
            "sequence "
                + name
                + " has run out of ids with block"
                + " size "
                + blockSize
                + " (counter value "
                + block
                + ")");
      }
      next = first;
      end = first + blockSize;
    }
    return next++;
  }

  @Override
  public String toString() {
    return "Sequence{" + name + ", block " + blockSize + "}";
  }
}
