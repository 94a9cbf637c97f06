package io.stratus.core;

import io.stratus.CloudServiceException;
import io.stratus.CorruptPageException;
import io.stratus.InvalidRequestException;
import io.stratus.cloudapi.CloudFutures;
import io.stratus.cloudapi.ConflictException;
import io.stratus.cloudapi.OutcomeUnknownException;
import io.stratus.cloudapi.PreconditionFailedException;
import io.stratus.cloudapi.StoredItem;
import io.stratus.cloudapi.SupportsConditionalPut;
import io.stratus.cloudapi.UnreadablePayloadException;
import java.nio.ByteBuffer;
import java.util.Arrays;
import java.util.Map;
import java.util.Optional;
import java.util.zip.CRC32C;

/**
 * Where a {@link Sequence}'s blocks come from: one storage object per sequence holds the lowest id
 * no handle has reserved yet, and a handle reserves a block by advancing it with a conditional put
 * (If-None-Match for the first block, If-Match on the version it read for every later one).
 *
 * <p><b>Why ids are unique.</b> Of two handles that read the same version, only one put succeeds;
 * the other fails its condition and reads again, so every block is reserved by one handle, and a
 * block starts where the one before it ended. The object lives in the database's storage, which
 * outlives every client, so a restarted client, a new process, or a restarted lock or counter
 * service continues above every block reserved before. A put whose reply is lost is not trusted:
 * the handle reads again and reserves another block, so a block that was reserved after all is a
 * gap, never a duplicate. Why a version can be trusted although S3's is a digest of the content:
 * the stored value only grows, so no content (and no version) comes back.
 *
 * <p><b>Format</b> (17 bytes, before any encryption of the storage): the magic {@code "SSEQ"}, the
 * format version 1, the next free id (8 bytes, big-endian), and a CRC-32C of the 13 bytes before
 * it.
 *
 * <p>Thread-safe: it holds no mutable state; concurrent reservations race in storage as those of
 * different processes do.
 */
final class SequenceBlocks {
  /** The first id of every sequence. */
  static final long FIRST_ID = 1;

  /**
   * How many lost races a reservation tolerates before it gives up (a retryable failure). Each
   * lost race means another handle reserved a block, so this many handles would have to reserve
   * blocks within one reservation of this one.
   */
  static final int MAX_ATTEMPTS = 64;

  private static final byte[] MAGIC = {'S', 'S', 'E', 'Q'};
  private static final byte FORMAT = 1;
  static final int ENCODED_LENGTH = MAGIC.length + 1 + Long.BYTES + Integer.BYTES;

  private final String name;
  private final String uri;
  private final SupportsConditionalPut storage;

  /**
   * @param name the sequence's name, for messages
   * @param uri the sequence's object
   */
  SequenceBlocks(String name, String uri, SupportsConditionalPut storage) {
    this.name = name;
    this.uri = uri;
    this.storage = storage;
  }

  /**
   * Reserves the {@code size} ids from the stored next free id on, for this caller alone.
   *
   * @return the first id of the block
   * @throws InvalidRequestException when the block would pass {@link Sequence#MAX_ID}
   * @throws CloudServiceException (retryable) when other handles won the race {@link
   *     #MAX_ATTEMPTS} times
   * @throws CorruptPageException when the stored object is not a sequence's
   * @throws io.stratus.cloudapi.CloudException when storage fails
   */
  long reserve(int size) {
    for (int attempt = 1; ; attempt++) {
      Optional<StoredItem> current = read();
      long first = current.map(i -> decode(i.payload())).orElse(FIRST_ID);
      if (first - 1 > Sequence.MAX_ID - size) {
        throw new InvalidRequestException(
            "sequence "
                + name
                + " has no block of "
                + size
                + " ids left: the next id would be "
                + first
                + " and ids stop at "
                + Sequence.MAX_ID
                + " (2^53 - 1, the largest integer JSON clients read exactly); use a new"
                + " sequence name");
      }
      byte[] next = encode(first + size);
      try {
        if (current.isPresent()) {
          CloudFutures.await(
              storage.putIfVersionMatches(uri, next, Map.of(), current.get().version()));
        } else {
          CloudFutures.await(storage.putIfAbsent(uri, next, Map.of()));
        }
        return first;
      } catch (PreconditionFailedException | ConflictException e) {
        // Another handle reserved a block meanwhile: read its end.
        if (attempt == MAX_ATTEMPTS) {
          throw lostRaces(e);
        }
      } catch (OutcomeUnknownException e) {
        if (Thread.currentThread().isInterrupted()) {
          throw e; // the caller was interrupted, not the reply lost: stop here
        }
        // The block may be ours or not: take another and leave this one a gap.
        if (attempt == MAX_ATTEMPTS) {
          throw lostRaces(e);
        }
      }
    }
  }

  private CloudServiceException lostRaces(RuntimeException lastLoss) {
    return new CloudServiceException(
        "reserving a block of sequence "
            + name
            + " lost the race to other handles "
            + MAX_ATTEMPTS
            + " times (nothing was reserved; safe to retry; a larger block size makes races"
            + " rarer)",
        lastLoss,
        true,
        false);
  }

  /** The stored form of the next free id {@code next}. */
  static byte[] encode(long next) {
    ByteBuffer b = ByteBuffer.allocate(ENCODED_LENGTH);
    b.put(MAGIC).put(FORMAT).putLong(next);
    CRC32C crc = new CRC32C();
    crc.update(b.array(), 0, b.position());
    b.putInt((int) crc.getValue());
    return b.array();
  }

  private Optional<StoredItem> read() {
    try {
      return CloudFutures.await(storage.get(uri));
    } catch (UnreadablePayloadException e) {
      throw corrupt("it cannot be opened (" + e.getMessage() + ")", e);
    }
  }

  private long decode(byte[] bytes) {
    if (bytes.length != ENCODED_LENGTH) {
      throw corrupt("it holds " + bytes.length + " bytes, not " + ENCODED_LENGTH);
    }
    ByteBuffer b = ByteBuffer.wrap(bytes);
    byte[] magic = new byte[MAGIC.length];
    b.get(magic);
    byte format = b.get();
    long next = b.getLong();
    CRC32C crc = new CRC32C();
    crc.update(bytes, 0, b.position());
    if ((int) crc.getValue() != b.getInt()) {
      throw corrupt("its checksum does not match");
    }
    if (!Arrays.equals(magic, MAGIC) || format != FORMAT) {
      throw corrupt("it is not a sequence of this version");
    }
    if (next < FIRST_ID || next - 1 > Sequence.MAX_ID) {
      throw corrupt("its next id " + next + " is out of range");
    }
    return next;
  }

  private CorruptPageException corrupt(String problem) {
    return new CorruptPageException(uri, corruptMessage(problem));
  }

  private CorruptPageException corrupt(String problem, Throwable cause) {
    return new CorruptPageException(uri, corruptMessage(problem), cause);
  }

  private String corruptMessage(String problem) {
    return problem
        + "; sequence "
        + name
        + " cannot tell which ids it handed out: restore the object from a backup, or use a"
        + " new sequence name";
  }
}
