package io.stratus.protocols;

import java.util.Arrays;
import java.util.HexFormat;
import java.util.Objects;
import java.util.Optional;

/**
 * One logical change of a transaction, in the shape of the papers' redo log records (paper 000,
 * section 3.5): what the queue-based protocols will send to pending-update queues and a checkpoint
 * will apply to pages. The naive protocol writes pages and ignores them.
 *
 * <ul>
 *   <li>On a collection's primary tree: {@code INSERT(key, payload)}, {@code UPDATE(key, after
 *       image)}, {@code DELETE(key)}; {@code dataPageUri} names the leaf holding the record when the
 *       change was made (update log records are associated with a data page).
 *   <li>On a secondary index tree: {@code INSERT(search key, record key)} and {@code DELETE(search
 *       key, record key)}; an index entry is updated by a delete and an insert.
 * </ul>
 *
 * <p>Immutable: the byte arrays are copied on the way in and out.
 */
public final class LogicalChange {
  /** What the change does. */
  public enum Kind {
    INSERT,
    UPDATE,
    DELETE
  }

  private static final byte[] NONE = new byte[0];

  private final Kind kind;
  private final String treeUri;
  private final byte[] key;
  private final byte[] value;
  private final Optional<String> dataPageUri;
  private final boolean secondaryIndex;

  /** The before image (snapshot isolation's undo), empty when not recorded or the key was absent. */
  private final Optional<byte[]> before;

  private final boolean beforeKnown;

  /** A change of a collection's primary tree (see the full constructor). */
  public LogicalChange(
      Kind kind, String treeUri, byte[] key, byte[] value, Optional<String> dataPageUri) {
    this(kind, treeUri, key, value, dataPageUri, false);
  }

  /**
   * @param treeUri the root URI of the tree changed (a collection's primary tree or an index)
   * @param key the record key, or an index's search key
   * @param value the payload (after image), or an index entry's record key; empty for a primary
   *     delete
   * @param dataPageUri the leaf the change was made on, when known
   * @param secondaryIndex whether {@code treeUri} is a secondary index (its changes go to the
   *     index's pending-update queue and are applied as composite keys)
   */
  public LogicalChange(
      Kind kind,
      String treeUri,
      byte[] key,
      byte[] value,
      Optional<String> dataPageUri,
      boolean secondaryIndex) {
    this(kind, treeUri, key, value, dataPageUri, secondaryIndex, false, Optional.empty());
  }

  private LogicalChange(
      Kind kind,
      String treeUri,
      byte[] key,
      byte[] value,
      Optional<String> dataPageUri,
      boolean secondaryIndex,
      boolean beforeKnown,
      Optional<byte[]> before) {
    this.beforeKnown = beforeKnown;
    this.before = before.map(byte[]::clone);
    this.kind = Objects.requireNonNull(kind, "kind");
    this.treeUri = Objects.requireNonNull(treeUri, "treeUri");
    this.key = key.clone();
    this.value = value == null ? NONE : value.clone();
    this.dataPageUri = Objects.requireNonNull(dataPageUri, "dataPageUri");
    this.secondaryIndex = secondaryIndex;
    if (secondaryIndex && kind == Kind.UPDATE) {
      throw new IllegalArgumentException("an index entry changes by delete and insert, not update");
    }
  }

  /**
   * This change with its before image: {@code before} is the key's value before the change, empty
   * when the key was absent (what snapshot isolation rolls a page back with, paper 000 section 3.5).
   */
  public LogicalChange withBefore(Optional<byte[]> before) {
    return new LogicalChange(kind, treeUri, key, value, dataPageUri, secondaryIndex, true, before);
  }

  /** Whether a before image was recorded ({@link #withBefore}). */
  public boolean hasBefore() {
    return beforeKnown;
  }

  /** A copy of the before image; empty when the key was absent or none was recorded. */
  public Optional<byte[]> before() {
    return before.map(byte[]::clone);
  }

  /** Whether the tree is a secondary index rather than a collection's primary tree. */
  public boolean secondaryIndex() {
    return secondaryIndex;
  }

  public Kind kind() {
    return kind;
  }

  public String treeUri() {
    return treeUri;
  }

  /** A copy of the key. */
  public byte[] key() {
    return key.clone();
  }

  /** A copy of the value (after image or record key; empty for a primary delete). */
  public byte[] value() {
    return value.clone();
  }

  public Optional<String> dataPageUri() {
    return dataPageUri;
  }

  @Override
  public boolean equals(Object o) {
    if (!(o instanceof LogicalChange)) {
      return false;
    }
    LogicalChange c = (LogicalChange) o;
    return kind == c.kind
        && treeUri.equals(c.treeUri)
        && Arrays.equals(key, c.key)
        && Arrays.equals(value, c.value)
        && dataPageUri.equals(c.dataPageUri)
        && secondaryIndex == c.secondaryIndex
        && beforeKnown == c.beforeKnown
        && before.isPresent() == c.before.isPresent()
        && Arrays.equals(before.orElse(NONE), c.before.orElse(NONE));
  }

  @Override
  public int hashCode() {
    return Objects.hash(kind, treeUri, Arrays.hashCode(key), Arrays.hashCode(value));
  }

  @Override
  public String toString() {
    return kind
        + (secondaryIndex ? "(index " : "(")
        + treeUri
        + ", "
        + HexFormat.of().formatHex(key)
        + ", "
        + value.length
        + " bytes)";
  }
}
