package io.stratus.core;

import java.util.Objects;

/**
 * One thing {@link DatabaseAdmin#verify} found: how bad it is, what kind of problem, the object it
 * is about (a page, queue or tree URI) and a message for the operator.
 *
 * @param severity how bad
 * @param kind what kind of problem
 * @param uri the page, tree root, queue or dead-letter item it concerns
 * @param message what is wrong and, where there is one, what to do
 */
public record Finding(Severity severity, Kind kind, String uri, String message) {

  /** Checks the parts. */
  public Finding {
    Objects.requireNonNull(severity, "severity");
    Objects.requireNonNull(kind, "kind");
    Objects.requireNonNull(uri, "uri");
    Objects.requireNonNull(message, "message");
  }

  /** How bad a finding is; ordered from harmless to damaging. */
  public enum Severity {
    /** Worth knowing, nothing is wrong (an unchecked part, a split not posted yet). */
    INFO,
    /** Not damage yet, but it will be or it wastes something (a backlog, leftover pages). */
    WARNING,
    /** Damage: data that cannot be read, or structure that readers may get wrong. */
    ERROR
  }

  /** What kind of problem; each names the check that found it. */
  public enum Kind {
    /** The catalog page does not decode. */
    CATALOG_CORRUPT,
    /** There is no catalog: an empty database, or the wrong database URI. */
    CATALOG_MISSING,
    /** The catalog names a tree whose root page is not in storage. */
    MISSING_ROOT,
    /** A tree root in storage that no catalog entry names (a creation that did not finish). */
    ORPHAN_ROOT,
    /** A page that does not decode (checksum, format, structure). */
    CORRUPT_PAGE,
    /** A page a parent or a left sibling refers to is not in storage. */
    MISSING_PAGE,
    /** A root with a low key, a high key or a right sibling. */
    BAD_ROOT,
    /** A key outside its page's [low, high) range, or a low key not below the high key. */
    KEY_OUT_OF_RANGE,
    /** A high key that differs from the right sibling's low key, or a broken or cyclic link. */
    SIBLING_MISMATCH,
    /** A page at the wrong level or of the wrong kind for it, or a level that does not start at
     * minus infinity. */
    LEVEL_MISMATCH,
    /** An inner entry whose key differs from its child's low key. */
    SEPARATOR_MISMATCH,
    /** A page its parent refers to that the level's sibling chain does not reach. */
    UNREACHABLE_NODE,
    /** A page the sibling chain reaches that no parent refers to yet (a split not posted). */
    UNPOSTED_SPLIT,
    /** A page in a tree's directory that the tree does not reach (left by a failed load). */
    UNREACHABLE_PAGE,
    /** An index entry whose record is not in the collection. */
    INDEX_ENTRY_WITHOUT_RECORD,
    /** A record that its index does not list under the search key its extractor gives. */
    RECORD_MISSING_FROM_INDEX,
    /** An index entry whose search key is not the one its record's extractor gives. */
    STALE_INDEX_ENTRY,
    /** An index key that is not a (search key, record key) composite. */
    BAD_INDEX_ENTRY,
    /** An index whose extractor is not attached: records missing from it were not looked for. */
    INDEX_NOT_CHECKED,
    /** A queue whose oldest message waits much longer than the checkpoint interval. */
    QUEUE_BACKLOG,
    /** A queue whose oldest message is older than half the queue's retention. */
    QUEUE_NEAR_RETENTION,
    /** Queues that cannot be inspected without receiving from them: their backlog is unknown. */
    QUEUE_NOT_INSPECTABLE,
    /** An item set aside as undeliverable (a poison log message). */
    DEAD_LETTER,
    /** A read of storage or a queue failed; what it would have checked is unchecked. */
    UNREADABLE
  }

  @Override
  public String toString() {
    return severity + " " + kind + " " + uri + ": " + message;
  }
}
