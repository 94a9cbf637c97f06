package io.stratus.btree;

/**
 * What the new pages of a split get of the split page's protocol state (the opaque bytes a commit
 * protocol keeps in a page header); the page that keeps the split page's URI keeps all of it. The
 * protocol that owns the state decides, since only it knows what the state describes.
 * Implementations are pure functions of the bytes, and thread-safe.
 */
@FunctionalInterface
public interface PieceState {
  /**
   * New pages start without it. For state that describes the page under its URI (a data page's
   * counters).
   */
  PieceState DROPPED = state -> new byte[0];

  /**
   * Every piece keeps a copy, and is sized with it. For state that describes the page's content
   * (the commit id a page reflects), which every piece of it shares.
   */
  PieceState COPIED = state -> state;

  /**
   * The protocol state a new page cut from a page with {@code state} starts with (empty bytes:
   * none); {@code state} is a copy the function may return.
   */
  byte[] ofNewPiece(byte[] state);
}
