package io.stratus.core;

import io.stratus.btree.TreeCursor;
import io.stratus.cloudapi.CloudException;
import java.util.NoSuchElementException;

/** A scan's records ({@link Transaction#scan}); checks its transaction on every step. */
final class ScanCursor implements RecordCursor {
  private final TreeCursor entries;
  private final Runnable checkOpen;
  private final String what;
  private boolean closed;

  /**
   * @param checkOpen throws when the transaction has ended
   * @param what the operation, for failure messages
   */
  ScanCursor(TreeCursor entries, Runnable checkOpen, String what) {
    this.entries = entries;
    this.checkOpen = checkOpen;
    this.what = what;
  }

  @Override
  public boolean hasNext() {
    if (closed) {
      return false;
    }
    checkOpen.run();
    try {
      return entries.hasNext();
    } catch (CloudException e) {
      throw CloudFailures.reading(what, e);
    }
  }

  @Override
  public Record next() {
    if (!hasNext()) {
      throw new NoSuchElementException();
    }
    TreeCursor.Entry e = entries.next();
    return Record.wrap(Key.wrap(e.keyUnsafe()), e.valueUnsafe()); // the scan's own copies
  }

  @Override
  public void close() {
    closed = true;
  }
}
