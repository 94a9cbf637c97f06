package io.stratus.core.query;

/**
 * The order of a query's results by the key it reads: the primary key, or the index's search key
 * and then the record key.
 */
public enum Order {
  /** Smallest key first. */
  ASCENDING,
  /** Largest key first. */
  DESCENDING
}
