package io.stratus.protocols.log;

import com.google.protobuf.ByteString;
import com.google.protobuf.CodedOutputStream;
import com.google.protobuf.InvalidProtocolBufferException;
import io.stratus.CorruptLogMessageException;
import io.stratus.RecordTooLargeException;
import io.stratus.protocols.log.proto.AtomicEntryKind;
import io.stratus.protocols.log.proto.AtomicEntryProto;
import io.stratus.protocols.log.proto.LogMessageProto;
import io.stratus.protocols.log.proto.LogRecordProto;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * The messages of a client's ATOMIC queue (paper 000, section 5.1; paper 001, section 5.1): a
 * transaction's log records packed into as few messages as the size limit allows, each numbered,
 * then one commit record carrying how many messages and records the transaction has; or, when
 * all of it fits into one message (the common case), a single complete-transaction message that
 * is both, so that an atomic commit costs one queue round trip.
 *
 * <p>Why numbered messages and counts: a simple queue may return fewer messages than it holds and
 * may deliver one twice, so a recoverer must tell "all of the transaction is here" from "some is
 * still hidden". With the commit record's message count and each message's index, duplicates
 * (even with different message ids) are recognized and completeness is exact.
 *
 * <p>Format version 2 of {@code LogMessageProto} (PU messages stay version 1), with a CRC32C over
 * the entry. Stateless and thread-safe.
 */
public final class AtomicMessages {
  /** The envelope version of ATOMIC queue messages. */
  public static final int FORMAT_VERSION = 2;

  private AtomicMessages() {}

  /**
   * One decoded ATOMIC queue message: log records, a commit record, a complete transaction
   * ({@code commitRecord} and {@code complete}: the records and the commit record in one message),
   * or a propagation marker ({@code propagated}: the transaction's records all reached their PU
   * queues; no records of its own).
   */
  public record Entry(
      boolean commitRecord,
      boolean complete,
      boolean propagated,
      String commitKey,
      long commitTimeMillis,
      int messageIndex,
      int messageCount,
      int recordCount,
      List<LogRecord> records) {
    public Entry {
      Objects.requireNonNull(commitKey, "commitKey");
      records = List.copyOf(records);
    }
  }

  /**
   * The records of one commit in as few numbered messages as fit under {@code maxMessageBytes}.
   *
   * @throws RecordTooLargeException when one record alone does not fit
   */
  public static List<byte[]> pack(
      String commitKey, long commitTimeMillis, List<LogRecord> records, int maxMessageBytes) {
    AtomicEntryProto empty =
        header(AtomicEntryKind.LOG_RECORDS, commitKey, commitTimeMillis)
            .setMessageIndex(Integer.MAX_VALUE)
            .build();
    // envelope + the entry's own fields (index at its widest) + framing of the entry
    int overhead = LogMessages.ENVELOPE_OVERHEAD + empty.getSerializedSize() + 5;
    List<List<LogRecordProto>> groups = new ArrayList<>();
    List<LogRecordProto> current = new ArrayList<>();
    long size = 0;
    for (LogRecord r : records) {
      LogRecordProto p = LogMessages.toProto(r);
      int n = p.getSerializedSize();
      long framed = 1 + CodedOutputStream.computeUInt32SizeNoTag(n) + (long) n;
      if (framed + overhead > maxMessageBytes) {
        throw RecordTooLargeException.forQueueMessage(
            framed, maxMessageBytes - overhead, maxMessageBytes);
      }
      if (!current.isEmpty() && size + framed + overhead > maxMessageBytes) {
        groups.add(current);
        current = new ArrayList<>();
        size = 0;
      }
      current.add(p);
      size += framed;
    }
    if (!current.isEmpty()) {
      groups.add(current);
    }
    List<byte[]> out = new ArrayList<>(groups.size());
    for (int i = 0; i < groups.size(); i++) {
      out.add(
          seal(
              header(AtomicEntryKind.LOG_RECORDS, commitKey, commitTimeMillis)
                  .setMessageIndex(i)
                  .addAllRecords(groups.get(i))
                  .build()));
    }
    return out;
  }

  /** The commit record of a commit of {@code messages} messages holding {@code records}. */
  public static byte[] commitRecord(
      String commitKey, long commitTimeMillis, int messages, int records) {
    return seal(
        header(AtomicEntryKind.COMMIT_RECORD, commitKey, commitTimeMillis)
            .setMessageCount(messages)
            .setRecordCount(records)
            .build());
  }

  /**
   * The marker saying that the two-step transaction {@code commitKey} has been propagated: sent
   * before any of its log messages is deleted (see {@code AtomicQueueSweeper}).
   */
  public static byte[] propagated(String commitKey, long commitTimeMillis) {
    return seal(header(AtomicEntryKind.PROPAGATED, commitKey, commitTimeMillis).build());
  }

  /**
   * A whole transaction in one message (its records and its commit record), when it fits under
   * {@code maxMessageBytes}: sending it commits the transaction in one queue round trip. Empty
   * when it does not fit (then {@link #pack} and {@link #commitRecord}, in that order).
   */
  public static Optional<byte[]> complete(
      String commitKey, long commitTimeMillis, List<LogRecord> records, int maxMessageBytes) {
    AtomicEntryProto.Builder b =
        header(AtomicEntryKind.COMPLETE_TRANSACTION, commitKey, commitTimeMillis)
            .setMessageCount(0)
            .setRecordCount(records.size());
    long size = 0;
    for (LogRecord r : records) {
      LogRecordProto p = LogMessages.toProto(r);
      size += p.getSerializedSize();
      if (size > maxMessageBytes) {
        return Optional.empty();
      }
      b.addRecords(p);
    }
    byte[] sealed = seal(b.build());
    return sealed.length <= maxMessageBytes ? Optional.of(sealed) : Optional.empty();
  }

  /** Decodes an ATOMIC queue message; damaged or foreign messages throw. */
  public static Entry decode(byte[] message) {
    LogMessageProto envelope;
    try {
      envelope = LogMessageProto.parseFrom(message);
    } catch (InvalidProtocolBufferException e) {
      throw new CorruptLogMessageException("not an ATOMIC queue message", e);
    }
    if (envelope.getFormatVersion() != FORMAT_VERSION) {
      throw new CorruptLogMessageException(
          "unknown ATOMIC format version " + envelope.getFormatVersion());
    }
    if (LogMessages.crc(envelope.getRecords()) != envelope.getCrc32C()) {
      throw new CorruptLogMessageException("checksum mismatch");
    }
    AtomicEntryProto e;
    try {
      e = AtomicEntryProto.parseFrom(envelope.getRecords());
    } catch (InvalidProtocolBufferException ex) {
      throw new CorruptLogMessageException("unreadable ATOMIC entry", ex);
    }
    if (e.getCommitKey().isEmpty()) {
      throw new CorruptLogMessageException("an ATOMIC entry without a commit key");
    }
    boolean commit;
    boolean complete = false;
    boolean propagated = false;
    if (e.getKind() == AtomicEntryKind.PROPAGATED) {
      commit = false;
      propagated = true;
    } else if (e.getKind() == AtomicEntryKind.COMMIT_RECORD) {
      commit = true;
    } else if (e.getKind() == AtomicEntryKind.LOG_RECORDS) {
      commit = false;
    } else if (e.getKind() == AtomicEntryKind.COMPLETE_TRANSACTION) {
      commit = true;
      complete = true;
      if (e.getRecordsCount() != e.getRecordCount()) {
        throw new CorruptLogMessageException(
            "a complete transaction with "
                + e.getRecordsCount()
                + " records says it has "
                + e.getRecordCount());
      }
    } else {
      throw new CorruptLogMessageException("unknown ATOMIC entry kind " + e.getKindValue());
    }
    List<LogRecord> records = new ArrayList<>(e.getRecordsCount());
    for (LogRecordProto p : e.getRecordsList()) {
      records.add(LogMessages.fromProto(p));
    }
    return new Entry(
        commit,
        complete,
        propagated,
        e.getCommitKey(),
        e.getCommitTimeMillis(),
        e.getMessageIndex(),
        e.getMessageCount(),
        e.getRecordCount(),
        records);
  }

  private static AtomicEntryProto.Builder header(
      AtomicEntryKind kind, String commitKey, long commitTimeMillis) {
    return AtomicEntryProto.newBuilder()
        .setKind(kind)
        .setCommitKey(commitKey)
        .setCommitTimeMillis(commitTimeMillis);
  }

  private static byte[] seal(AtomicEntryProto entry) {
    ByteString body = entry.toByteString();
    return LogMessageProto.newBuilder()
        .setFormatVersion(FORMAT_VERSION)
        .setCrc32C(LogMessages.crc(body))
        .setRecords(body)
        .build()
        .toByteArray();
  }
}
