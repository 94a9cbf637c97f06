package io.stratus.protocols;

import io.stratus.DeadLetter;
import io.stratus.cloudapi.AdvancedMessage;
import io.stratus.cloudapi.AdvancedQueueService;
import io.stratus.cloudapi.CloudException;
import io.stratus.cloudapi.CloudFutures;
import io.stratus.cloudapi.ItemSummary;
import io.stratus.cloudapi.QueueMessage;
import io.stratus.cloudapi.SimpleQueueService;
import io.stratus.cloudapi.StorageService;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalLong;
import org.jspecify.annotations.Nullable;

/**
 * The dead-letter area: damaged queue messages (a bad checksum, an unknown format) moved out of
 * their queue into storage, where an operator can inspect, replay or discard them. Messages of
 * simple queues (pending-update and ATOMIC queues) and of advanced queues (the shared ATOMIC and
 * ATOMIC COMMIT queues of advanced atomicity) alike; an advanced message keeps its key.
 *
 * <p>Why move them: a message that can never be applied, left in its queue, came back to every
 * checkpoint of that queue for as long as the queue's retention, and under the monotonic protocols
 * its writer's later records for that page waited behind it; dropping it would lose whatever it
 * held without a trace. Moving it keeps the bytes and frees the queue. Why storage and not a
 * second queue: an item has no retention limit, can be listed and read without hiding it from
 * others, and costs nothing while nobody looks.
 *
 * <p>An item ({@link StorageLayout#deadLetter}) holds the message's bytes exactly as received
 * together with its queue, message id, the reason and when it was set aside, in a small format of
 * its own (so nothing depends on storage metadata surviving a backend). {@link #setAside} puts the
 * item first and deletes the message from its queue after, so a crash between leaves both (the
 * next pass sets it aside again, onto the same item): nothing is lost. {@link #replay} sends the
 * bytes back to their queue, then deletes the item. Thread-safe.
 */
public final class DeadLetters {
  /** The first bytes of every dead-letter item, with the format version after them. */
  private static final int MAGIC = 0x53444c54; // "SDLT"

  private static final int FORMAT_VERSION = 2;

  /** The format without a message key, written before advanced messages were set aside. */
  private static final int FORMAT_WITHOUT_KEY = 1;

  /** A reason longer than this is cut: it is a message for a person, not data. */
  static final int MAX_REASON_CHARS = 1_000;

  private final StorageService storage;
  private final @Nullable SimpleQueueService queues;
  private final @Nullable AdvancedQueueService advancedQueues;
  private final StorageLayout layout;
  private final Clock clock;
  private final DamageReports reports;

  /**
   * The dead-letter area of the database {@code layout} describes, for messages of simple queues
   * only; {@code queues} may be null (to list and read the area without setting anything aside).
   */
  public DeadLetters(
      StorageService storage,
      @Nullable SimpleQueueService queues,
      StorageLayout layout,
      Clock clock,
      DamageReports reports) {
    this(storage, queues, null, layout, clock, reports);
  }

  /**
   * The dead-letter area of the database {@code layout} describes; {@code queues} or {@code
   * advancedQueues} may be null (a database without them sets none of their messages aside).
   */
  public DeadLetters(
      StorageService storage,
      @Nullable SimpleQueueService queues,
      @Nullable AdvancedQueueService advancedQueues,
      StorageLayout layout,
      Clock clock,
      DamageReports reports) {
    this.storage = Objects.requireNonNull(storage, "storage");
    this.queues = queues;
    this.advancedQueues = advancedQueues;
    this.layout = Objects.requireNonNull(layout, "layout");
    this.clock = Objects.requireNonNull(clock, "clock");
    this.reports = Objects.requireNonNull(reports, "reports");
  }

  /** The dead-letter area of the context's database, reporting to the context's damage reports. */
  public static DeadLetters of(ProtocolContext ctx) {
    return new DeadLetters(
        ctx.services().storage(),
        ctx.services().hasSimpleQueues() ? ctx.services().simpleQueues() : null,
        ctx.services().hasAdvancedQueues() ? ctx.services().advancedQueues() : null,
        new StorageLayout(ctx.databaseUri()),
        ctx.clock(),
        ctx.damage());
  }

  /**
   * Moves damaged message {@code m} of {@code queue} into the area: puts its item, then deletes the
   * message. The caller must be the queue's only consumer for the moment (it holds the queue's
   * checkpoint or recovery lock), so no other client applies or deletes the message meanwhile.
   * When a cloud call fails the message stays in its queue and is reported as damaged; a later
   * pass tries again. A message the services could not open ({@link QueueMessage#isReadable()}
   * false: client-side encryption failed) stays too, reported: there are no bytes to keep.
   *
   * @return whether the message was moved
   */
  public boolean setAside(String queue, QueueMessage m, String why) {
    if (!m.isReadable() || queues == null) {
      // Client-side encryption could not open it: its bytes are not ours to keep, and a key
      // missing here (rotation not yet everywhere) makes it readable in place once it arrives.
      // Without a simple queue service there is no queue to take it out of: it stays reported.
      reports.corruptMessage(queue, m.messageId(), why);
      return false;
    }
    String item = layout.deadLetter(queue, m.messageId());
    try {
      CloudFutures.await(
          storage.put(
              item, encode(queue, m.messageId(), why, clock.millis(), m.payload()), Map.of()));
      CloudFutures.await(queues.delete(queue, m.receiptHandle()));
    } catch (CloudException e) {
      reports.corruptMessage(
          queue, m.messageId(), why + " (setting it aside failed: " + e.getMessage() + ")");
      return false;
    }
    reports.setAside(queue, m.messageId(), item, why);
    return true;
  }

  /**
   * Moves damaged message {@code m} of advanced queue {@code queue} into the area, with its key:
   * puts its item, then deletes the message. As {@link #setAside(String, QueueMessage, String)},
   * the caller holds the lock under which the queue's messages are consumed (advanced queues hide
   * nothing, so a second client doing the same writes the same item and deletes nothing more).
   *
   * @return whether the message was moved
   */
  public boolean setAside(String queue, AdvancedMessage m, String why) {
    String messageId = Long.toString(m.id());
    if (!m.isReadable() || advancedQueues == null) {
      reports.corruptMessage(queue, messageId, why);
      return false;
    }
    String item = layout.deadLetter(queue, messageId);
    try {
      CloudFutures.await(
          storage.put(
              item,
              encode(queue, messageId, why, clock.millis(), m.payload(), OptionalLong.of(m.key())),
              Map.of()));
      CloudFutures.await(advancedQueues.delete(queue, m.id()));
    } catch (CloudException e) {
      reports.corruptMessage(
          queue, messageId, why + " (setting it aside failed: " + e.getMessage() + ")");
      return false;
    }
    reports.setAside(queue, messageId, item, why);
    return true;
  }

  /** Every message in the area, oldest item name first; an unreadable item is skipped. */
  public List<DeadLetter> list() {
    List<DeadLetter> out = new ArrayList<>();
    for (ItemSummary s : CloudFutures.await(storage.listAll(layout.deadLetterPrefix()))) {
      read(s.uri()).ifPresent(out::add);
    }
    return out;
  }

  /** The message held by {@code item}, if the item exists and is a dead letter. */
  public Optional<DeadLetter> read(String item) {
    return CloudFutures.await(storage.get(item)).flatMap(i -> decode(item, i.payload()));
  }

  /**
   * Sends {@code entry}'s bytes back to its queue and then deletes its item (a crash between
   * leaves both: replaying again sends it twice, which the protocols' idempotent records and
   * writer chains absorb). For a message whose format a newer client understands, or whose
   * damage an operator repaired by hand in the item.
   *
   * @return the id of the message sent
   */
  public String replay(DeadLetter entry) {
    String id;
    if (entry.key().isPresent()) {
      if (advancedQueues == null) {
        throw new IllegalStateException("this database has no advanced queue service");
      }
      id =
          Long.toString(
              CloudFutures.await(
                  advancedQueues.send(entry.queue(), entry.payload(), entry.key().getAsLong())));
    } else {
      if (queues == null) {
        throw new IllegalStateException("this database has no simple queue service");
      }
      id = CloudFutures.await(queues.send(entry.queue(), entry.payload()));
    }
    CloudFutures.await(storage.delete(entry.item()));
    return id;
  }

  /** Deletes {@code entry}'s item: what the message held is given up for good. */
  public void discard(DeadLetter entry) {
    CloudFutures.await(storage.delete(entry.item()));
  }

  /**
   * The stored form of a dead letter: what {@link #setAside} puts, for tools that write one (a
   * repaired message put back for {@link #replay}, a test's damaged message).
   */
  public static byte[] encode(
      String queue, String messageId, String reason, long atMillis, byte[] payload) {
    return encode(queue, messageId, reason, atMillis, payload, OptionalLong.empty());
  }

  /**
   * The stored form of a dead letter of an advanced queue ({@code key} present) or of a simple
   * queue ({@code key} empty).
   */
  public static byte[] encode(
      String queue,
      String messageId,
      String reason,
      long atMillis,
      byte[] payload,
      OptionalLong key) {
    String why =
        reason.length() > MAX_REASON_CHARS ? reason.substring(0, MAX_REASON_CHARS) + "..." : reason;
    ByteArrayOutputStream bytes = new ByteArrayOutputStream(payload.length + 256);
    try (DataOutputStream out = new DataOutputStream(bytes)) {
      out.writeInt(MAGIC);
      out.writeInt(FORMAT_VERSION);
      out.writeUTF(queue);
      out.writeUTF(messageId);
      out.writeUTF(why);
      out.writeLong(atMillis);
      out.writeBoolean(key.isPresent());
      out.writeLong(key.orElse(0));
      out.writeInt(payload.length);
      out.write(payload);
    } catch (IOException e) {
      throw new IllegalStateException("writing to memory failed", e);
    }
    return bytes.toByteArray();
  }

  static Optional<DeadLetter> decode(String item, byte[] bytes) {
    try (DataInputStream in = new DataInputStream(new ByteArrayInputStream(bytes))) {
      if (in.readInt() != MAGIC) {
        return Optional.empty();
      }
      int format = in.readInt();
      if (format != FORMAT_VERSION && format != FORMAT_WITHOUT_KEY) {
        return Optional.empty();
      }
      String queue = in.readUTF();
      String messageId = in.readUTF();
      String reason = in.readUTF();
      Instant at = Instant.ofEpochMilli(in.readLong());
      OptionalLong key = OptionalLong.empty();
      if (format == FORMAT_VERSION) {
        boolean keyed = in.readBoolean();
        long k = in.readLong();
        key = keyed ? OptionalLong.of(k) : OptionalLong.empty();
      }
      int n = in.readInt();
      if (n < 0 || n > in.available()) {
        return Optional.empty();
      }
      byte[] payload = in.readNBytes(n);
      return Optional.of(new DeadLetter(item, queue, messageId, reason, at, payload, key));
    } catch (IOException e) {
      return Optional.empty();
    }
  }
}
