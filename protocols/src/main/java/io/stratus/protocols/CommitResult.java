package io.stratus.protocols;

import java.util.Map;
import java.util.Objects;

/**
 * What a successful commit reports: the storage version of every page it wrote, which the page
 * transaction installs into the buffer pool so that this client reads its own commit without
 * fetching it again, and counts for statistics.
 *
 * @param committedVersions page URI to the storage version (ETag) the commit wrote; empty when the
 *     protocol wrote no pages (a queue-based protocol leaves that to checkpoints)
 * @param pagesWritten pages put to storage (new and modified)
 * @param newPagesWritten of those, pages created by the transaction
 * @param logRecordsSent log records sent to queues (0 for the naive protocol)
 */
public record CommitResult(
    Map<String, String> committedVersions,
    int pagesWritten,
    int newPagesWritten,
    int logRecordsSent) {

  public CommitResult {
    committedVersions = Map.copyOf(Objects.requireNonNull(committedVersions, "committedVersions"));
    if (pagesWritten < 0
        || newPagesWritten < 0
        || newPagesWritten > pagesWritten
        || logRecordsSent < 0) {
      throw new IllegalArgumentException("inconsistent counts");
    }
  }

  /** The result of a commit that had nothing to write. */
  public static CommitResult empty() {
    return new CommitResult(Map.of(), 0, 0, 0);
  }
}
