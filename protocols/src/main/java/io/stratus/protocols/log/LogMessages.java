package io.stratus.protocols.log;

import com.google.protobuf.ByteString;
import com.google.protobuf.CodedOutputStream;
import com.google.protobuf.InvalidProtocolBufferException;
import io.stratus.CorruptLogMessageException;
import io.stratus.RecordTooLargeException;
import io.stratus.protocols.LogicalChange;
import io.stratus.protocols.log.proto.LaneDependencyProto;
import io.stratus.protocols.log.proto.LogKind;
import io.stratus.protocols.log.proto.LogMessageProto;
import io.stratus.protocols.log.proto.LogRecordListProto;
import io.stratus.protocols.log.proto.LogRecordProto;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.zip.CRC32C;

/**
 * Packs log records into queue messages and back.
 *
 * <p>Why packing: every queue request costs money and a round trip, so a commit sends as few
 * messages as it can — as many records per message as fit under the queue's size limit (SQS: 1 MiB
 * today, 8 KB in 2008). Packing is greedy and keeps the records' order, so records of one key stay
 * in commit order within and across the messages of one commit.
 *
 * <p>A message is a protobuf {@code LogMessageProto}: a format version, a CRC32C over the records,
 * and the records. {@link #unpack} checks all three and throws {@link CorruptLogMessageException}
 * rather than return a record from a damaged message. Stateless and thread-safe.
 */
public final class LogMessages {
  /** The message format this code writes and reads. */
  public static final int FORMAT_VERSION = 1;

  /** Bytes a message costs besides its records: version (2), checksum (5), records framing (6). */
  static final int ENVELOPE_OVERHEAD = 13;

  private LogMessages() {}

  /**
   * The records in as few messages as greedy, order-keeping packing allows, each at most {@code
   * maxMessageBytes} long.
   *
   * @throws RecordTooLargeException when one record alone does not fit into a message
   */
  public static List<byte[]> pack(List<LogRecord> records, int maxMessageBytes) {
    List<byte[]> messages = new ArrayList<>();
    List<LogRecordProto> current = new ArrayList<>();
    long currentSize = 0;
    for (LogRecord r : records) {
      LogRecordProto p = toProto(r);
      int size = p.getSerializedSize();
      long framed = 1 + CodedOutputStream.computeUInt32SizeNoTag(size) + (long) size;
      if (framed + ENVELOPE_OVERHEAD > maxMessageBytes) {
        throw RecordTooLargeException.forQueueMessage(
            framed, maxMessageBytes - ENVELOPE_OVERHEAD, maxMessageBytes);
      }
      if (!current.isEmpty() && currentSize + framed + ENVELOPE_OVERHEAD > maxMessageBytes) {
        messages.add(seal(current));
        current = new ArrayList<>();
        currentSize = 0;
      }
      current.add(p);
      currentSize += framed;
    }
    if (!current.isEmpty()) {
      messages.add(seal(current));
    }
    return messages;
  }

  /** The records of one message, in the order they were packed. */
  public static List<LogRecord> unpack(byte[] message) {
    LogMessageProto envelope;
    try {
      envelope = LogMessageProto.parseFrom(message);
    } catch (InvalidProtocolBufferException e) {
      throw new CorruptLogMessageException("not a log message", e);
    }
    if (envelope.getFormatVersion() != FORMAT_VERSION) {
      throw new CorruptLogMessageException("unknown format version " + envelope.getFormatVersion());
    }
    // A flipped tag turns a field into an unknown one that the parser skips, and the bytes after
    // it may then parse as other fields: no message this class packs has unknown fields.
    if (!envelope.getUnknownFields().asMap().isEmpty()) {
      throw new CorruptLogMessageException("unknown fields in the envelope");
    }
    ByteString body = envelope.getRecords();
    if (crc(body) != envelope.getCrc32C()) {
      throw new CorruptLogMessageException("checksum mismatch");
    }
    LogRecordListProto list;
    try {
      list = LogRecordListProto.parseFrom(body);
    } catch (InvalidProtocolBufferException e) {
      throw new CorruptLogMessageException("unreadable records", e);
    }
    if (list.getRecordsCount() == 0 || !list.getUnknownFields().asMap().isEmpty()) {
      throw new CorruptLogMessageException("no records, or unknown fields among them");
    }
    List<LogRecord> records = new ArrayList<>(list.getRecordsCount());
    for (LogRecordProto p : list.getRecordsList()) {
      records.add(fromProto(p));
    }
    return records;
  }

  private static byte[] seal(List<LogRecordProto> records) {
    ByteString body = LogRecordListProto.newBuilder().addAllRecords(records).build().toByteString();
    return LogMessageProto.newBuilder()
        .setFormatVersion(FORMAT_VERSION)
        .setCrc32C(crc(body))
        .setRecords(body)
        .build()
        .toByteArray();
  }

  static int crc(ByteString body) {
    CRC32C crc = new CRC32C();
    crc.update(body.asReadOnlyByteBuffer());
    return (int) crc.getValue();
  }

  static LogRecordProto toProto(LogRecord r) {
    LogicalChange c = r.change();
    LogRecordProto.Builder b =
        LogRecordProto.newBuilder()
            .setKind(
                switch (c.kind()) {
                  case INSERT -> LogKind.INSERT;
                  case UPDATE -> LogKind.UPDATE;
                  case DELETE -> LogKind.DELETE;
                })
            .setTreeUri(c.treeUri())
            .setKey(ByteString.copyFrom(c.key()))
            .setValue(ByteString.copyFrom(c.value()))
            .setClientId(r.clientId())
            .setClientCounter(r.clientCounter())
            .setTransactionId(r.transactionId())
            .setCommitTimeMillis(r.commitTimeMillis())
            .setCommitId(r.commitId())
            .setWriteStamp(r.writeStamp())
            .setSecondaryIndex(c.secondaryIndex());
    c.dataPageUri().ifPresent(b::setDataPageUri);
    if (c.hasBefore()) {
      Optional<byte[]> before = c.before();
      b.setBeforeKnown(true).setBeforePresent(before.isPresent());
      before.ifPresent(v -> b.setBeforeValue(ByteString.copyFrom(v)));
    }
    for (LaneDependency d : r.after()) {
      b.addAfter(LaneDependencyProto.newBuilder().setLane(d.lane()).setCounter(d.counter()));
    }
    return b.build();
  }

  static LogRecord fromProto(LogRecordProto p) {
    try {
      return fromProtoUnchecked(p);
    } catch (IllegalArgumentException e) {
      throw new CorruptLogMessageException("an invalid record: " + e.getMessage(), e);
    }
  }

  private static LogRecord fromProtoUnchecked(LogRecordProto p) {
    LogicalChange.Kind kind =
        switch (p.getKind()) {
          case INSERT -> LogicalChange.Kind.INSERT;
          case UPDATE -> LogicalChange.Kind.UPDATE;
          case DELETE -> LogicalChange.Kind.DELETE;
          default ->
              throw new CorruptLogMessageException("unknown record kind " + p.getKindValue());
        };
    if (p.getTreeUri().isEmpty()) {
      throw new CorruptLogMessageException("a record without a tree URI");
    }
    Optional<String> page =
        p.getDataPageUri().isEmpty() ? Optional.empty() : Optional.of(p.getDataPageUri());
    LogicalChange change =
        new LogicalChange(
            kind,
            p.getTreeUri(),
            p.getKey().toByteArray(),
            p.getValue().toByteArray(),
            page,
            p.getSecondaryIndex());
    if (p.getBeforeKnown()) {
      change =
          change.withBefore(
              p.getBeforePresent()
                  ? Optional.of(p.getBeforeValue().toByteArray())
                  : Optional.empty());
    }
    List<LaneDependency> after = new ArrayList<>(p.getAfterCount());
    for (LaneDependencyProto d : p.getAfterList()) {
      after.add(new LaneDependency(d.getLane(), d.getCounter()));
    }
    return new LogRecord(
            change,
            p.getClientId(),
            p.getClientCounter(),
            p.getTransactionId(),
            p.getCommitTimeMillis(),
            p.getCommitId(),
            after)
        .withWriteStamp(p.getWriteStamp());
  }
}
