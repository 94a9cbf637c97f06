package io.stratus.core;

import java.util.Iterator;

/**
 * The records of a scan, in key order, fetched page by page as the iteration proceeds. Use it from
 * the transaction's thread, while the transaction is open, and close it (try-with-resources) when
 * done early. Closing does not throw.
 */
public interface RecordCursor extends Iterator<Record>, AutoCloseable {
  @Override
  void close();
}
