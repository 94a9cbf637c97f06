package io.stratus;

/**
 * A record (or index entry) is too large: it does not fit into one page of the configured page
 * size, or its log record does not fit into one message of the queue its commit travels through
 * (a limit of the queue service, whatever the page size). Nothing changed; the message names the
 * limit that was hit.
 */
public class RecordTooLargeException extends InvalidRequestException {
  private static final long serialVersionUID = 1L;

  /** A record of {@code recordBytes} that does not fit a page, where {@code maxBytes} fit. */
  public RecordTooLargeException(int recordBytes, int maxBytes) {
    super(
        "a record of "
            + recordBytes
            + " bytes does not fit into a page; at most "
            + maxBytes
            + " bytes fit at the configured page size");
  }

  private RecordTooLargeException(String message) {
    super(message);
  }

  /**
   * A log record of {@code logRecordBytes} that does not fit into one queue message: the queue
   * service takes messages of at most {@code maxMessageBytes}, which leaves {@code
   * maxLogRecordBytes} for one log record.
   */
  public static RecordTooLargeException forQueueMessage(
      long logRecordBytes, int maxLogRecordBytes, int maxMessageBytes) {
    return new RecordTooLargeException(
        "a record whose log record takes "
            + logRecordBytes
            + " bytes does not fit into one queue message: the queue service takes messages of at"
            + " most "
            + maxMessageBytes
            + " bytes, which leaves "
            + maxLogRecordBytes
            + " bytes for the record's key, its value (under the isolating protocols also the"
            + " value it replaces) and their framing; a larger page size does not raise this"
            + " limit. Keep records and index entries below it, for example by storing a large"
            + " value as an object of its own and keeping its name in the record");
  }

  /**
   * An index entry of {@code entryBytes} (search key and record key) that the index service cannot
   * hold: its values take at most {@code maxEntryBytes} of them.
   */
  public static RecordTooLargeException forIndexService(long entryBytes, int maxEntryBytes) {
    return new RecordTooLargeException(
        "an index entry of about "
            + entryBytes
            + " bytes (search key and record key) does not fit the index service, which holds"
            + " entries of at most about "
            + maxEntryBytes
            + " bytes; shorten the search key or keep the index in a client-side tree");
  }
}
