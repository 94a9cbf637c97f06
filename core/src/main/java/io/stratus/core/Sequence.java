package io.stratus.core;

import io.stratus.InvalidRequestException;
import io.stratus.cloudapi.CloudException;

/**
 * Unique ids without a hot spot: each handle reserves a block of ids at a time in storage and
 * hands them out from memory, as AppScale's datastore allocates id blocks. One storage
 * reservation (a read and a conditional put) serves {@link #blockSize()} calls of {@link #next()}.
 *
 * <p><b>Promises.</b> Every id handed out by any handle of the database under one sequence name is
 * unique, across threads, handles, processes and restarts of any of them, and lies between 1 and
 * {@link #MAX_ID}, so it survives a trip through JSON. Why: the sequence's object in the
 * database's storage holds the lowest id not yet reserved, and a handle reserves a block by
 * advancing it with a conditional put, which only one of two racing handles wins. The lock and
 * counter services play no part, so a restarted counter service, a new ZooKeeper ensemble or a
 * process that runs without ZooKeeper changes nothing. Ids of one handle grow; ids of different
 * handles interleave. <b>Gaps</b> are normal: a handle that closes or crashes drops the rest of
 * its block, and so does a reservation whose reply was lost. Handles may use different block
 * sizes for one name.
 *
 * <p>Needs storage with conditional puts ({@link io.stratus.cloudapi.SupportsConditionalPut}: S3,
 * LocalStack, the in-process storage); {@link Database#sequence} refuses to make a sequence on
 * storage without them, which could not keep two handles from reserving the same block.
 *
 * <p>Thread-safe: request threads share one instance ({@link Database#sequence}); a new block is
 * reserved by one thread while the others wait for it.
 */
public final class Sequence {
  /** The block size of {@link Database#sequence(String)}. */
  public static final int DEFAULT_BLOCK_SIZE = 100;

  /** The largest block size. */
  public static final int MAX_BLOCK_SIZE = 1 << 20;

  /**
   * The largest id, 2^53 - 1: the largest integer that JavaScript and other JSON clients, which
   * read numbers as IEEE doubles, represent exactly.
   */
  public static final long MAX_ID = (1L << 53) - 1;

  private final String name;
  private final SequenceBlocks blocks;
  private final int blockSize;
  private long next; // guarded by this
  private long end; // exclusive; guarded by this

  Sequence(String name, SequenceBlocks blocks, int blockSize) {
    if (blockSize < 1 || blockSize > MAX_BLOCK_SIZE) {
      throw new InvalidRequestException(
          "sequence block size must be 1 to " + MAX_BLOCK_SIZE + ", got " + blockSize);
    }
    this.name = name;
    this.blocks = blocks;
    this.blockSize = blockSize;
  }

  /** The sequence's name. */
  public String name() {
    return name;
  }

  /** How many ids one reservation takes. */
  public int blockSize() {
    return blockSize;
  }

  /**
   * The next id: from the current block, or from a new one (one read and one conditional put in
   * storage, more when other handles reserve at the same moment).
   *
   * @throws io.stratus.CloudServiceException when storage fails, or other handles kept winning
   *     the race for the next block; retryable unless storage refused the request for good (a
   *     lost reply only leaves a gap of ids)
   * @throws InvalidRequestException when the sequence has handed out every id up to {@link
   *     #MAX_ID}
   * @throws io.stratus.CorruptPageException when the sequence's object in storage is damaged
   */
  public synchronized long next() {
    if (next == end) {
      long first;
      try {
        first = blocks.reserve(blockSize);
      } catch (CloudException e) {
        throw CloudFailures.reading("next id of sequence " + name, e);
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
