package io.stratus.btree;

/**
 * What the new pages of a split get of the split page's protocol state (the opaque bytes a commit
 * protocol keeps in a page header).
 */
public enum PieceState {
  /**
   * New pages start without it; the page keeping the URI keeps it. For state that describes the
   * page under its URI (a data page's counters).
   */
  DROPPED,
  /**
   * Every piece keeps a copy, and is sized with it. For state that describes the page's content
   * (the commit id a page reflects), which every piece of it shares.
   */
  COPIED
}
