package io.stratus.pagemanager;

/** What a page holds. */
public enum PageKind {
  /** A B-link tree leaf: (key, payload) records of a collection, or (search key, record key) entries. */
  LEAF,
  /** A B-link tree inner node: (separator key, child page URI) entries. */
  INNER,
  /** Anything else kept as a page (the catalog). */
  META
}
