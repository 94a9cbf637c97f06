package io.stratus;

/** A record (or index entry) does not fit into one page of the configured page size. */
public class RecordTooLargeException extends InvalidRequestException {
  private static final long serialVersionUID = 1L;

  public RecordTooLargeException(int recordBytes, int maxBytes) {
    super(
        "a record of "
            + recordBytes
            + " bytes does not fit into a page; at most "
            + maxBytes
            + " bytes fit at the configured page size");
  }
}
