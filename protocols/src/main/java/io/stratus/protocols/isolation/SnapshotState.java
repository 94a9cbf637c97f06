package io.stratus.protocols.isolation;

import io.stratus.CorruptPageException;
import io.stratus.pagemanager.Page;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;

/**
 * What snapshot isolation keeps in a page's opaque protocol state (paper 000, Algorithm 8: "Pages
 * record the commit id they reflect").
 *
 * <ul>
 *   <li>{@link #commitId()}: a leaf reflects exactly the archived log records of its key range
 *       whose commit id is at most this, and none above (0: no record; a page bulk-loaded or never
 *       checkpointed). Every piece of a split leaf keeps it ({@code PieceState.COPIED}).
 *   <li>{@link #marks()}, on a tree's root only: when each recent checkpoint of the tree applied
 *       the archive up to which commit id. The last mark says where the next checkpoint starts;
 *       the older ones tell the garbage collection what every cached copy of a page already
 *       reflects ({@link SnapshotCheckpointer}).
 * </ul>
 *
 * <p>Encoding: a format byte (1), the commit id (8 bytes), the number of marks (1 byte), then per
 * mark the time in epoch milliseconds and the commit id (8 bytes each). Immutable.
 */
final class SnapshotState {
  private static final byte FORMAT = 1;

  /** Marks a root keeps at most (the newest). */
  static final int MAX_MARKS = 32;

  /** "A checkpoint started at {@code atMillis} applied the archive through {@code through}." */
  record Mark(long atMillis, long through) {}

  static final SnapshotState EMPTY = new SnapshotState(0, List.of());

  private final long commitId;
  private final List<Mark> marks;

  SnapshotState(long commitId, List<Mark> marks) {
    this.commitId = commitId;
    this.marks = List.copyOf(marks);
  }

  /** The state of {@code page} (decoded once per page object). */
  static SnapshotState of(Page page) {
    try {
      return page.protocolState(SnapshotState::decode);
    } catch (IllegalArgumentException e) {
      throw new CorruptPageException(page.uri(), "unreadable snapshot state: " + e.getMessage());
    }
  }

  long commitId() {
    return commitId;
  }

  List<Mark> marks() {
    return marks;
  }

  /** Through which commit id the tree's checkpoints applied the archive (on a root). */
  long appliedThrough() {
    return marks.isEmpty() ? 0 : marks.get(marks.size() - 1).through();
  }

  SnapshotState withCommitId(long id) {
    return new SnapshotState(id, marks);
  }

  /**
   * With a mark appended, keeping the newest {@link #MAX_MARKS}, and of the marks older than
   * {@code keepAfterMillis} only the newest (what the garbage collection needs).
   */
  SnapshotState withMark(Mark mark, long keepAfterMillis) {
    List<Mark> kept = new ArrayList<>();
    Mark newestOld = null;
    for (Mark m : marks) {
      if (m.atMillis() < keepAfterMillis) {
        newestOld = m;
      } else {
        kept.add(m);
      }
    }
    if (newestOld != null) {
      kept.add(0, newestOld);
    }
    kept.add(mark);
    while (kept.size() > MAX_MARKS) {
      kept.remove(0);
    }
    return new SnapshotState(commitId, kept);
  }

  /**
   * The commit id through which the tree was applied already at {@code atMillis}: that of the
   * newest mark no later than it, 0 if none.
   */
  long appliedAt(long atMillis) {
    long through = 0;
    for (Mark m : marks) {
      if (m.atMillis() <= atMillis) {
        through = Math.max(through, m.through());
      }
    }
    return through;
  }

  byte[] encode() {
    ByteBuffer b = ByteBuffer.allocate(1 + 8 + 1 + marks.size() * 16);
    b.put(FORMAT).putLong(commitId).put((byte) marks.size());
    for (Mark m : marks) {
      b.putLong(m.atMillis()).putLong(m.through());
    }
    return b.array();
  }

  static SnapshotState decode(byte[] bytes) {
    if (bytes.length == 0) {
      return EMPTY;
    }
    ByteBuffer b = ByteBuffer.wrap(bytes);
    if (bytes.length < 10 || b.get() != FORMAT) {
      throw new IllegalArgumentException("not a snapshot state of format " + FORMAT);
    }
    long id = b.getLong();
    int n = b.get() & 0xFF;
    if (bytes.length != 10 + 16 * n) {
      throw new IllegalArgumentException(
          "length " + bytes.length + " does not fit " + n + " marks");
    }
    List<Mark> marks = new ArrayList<>(n);
    for (int i = 0; i < n; i++) {
      marks.add(new Mark(b.getLong(), b.getLong()));
    }
    return new SnapshotState(id, marks);
  }

  /** {@code page} with this state. */
  Page applyTo(Page page) {
    return page.toBuilder().protocolState(encode()).build();
  }
}
