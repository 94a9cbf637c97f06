package io.stratus.core;

/**
 * Where a secondary index lives, chosen when it is created ({@link Database#createIndex(String,
 * String, IndexKeyExtractor, IndexPlacement)}) and recorded in the catalog (paper 000, section 3:
 * index probes are "handled by services like SimpleDB or by B-tree indexes").
 */
public enum IndexPlacement {
  /**
   * A client-side B-link tree of (search key, record key) pages in storage: cached in the buffer
   * pool like every page, changed through the protocol's pending-update queues and checkpoints.
   */
  CLIENT_TREE,

  /**
   * The cloud's index service ({@link io.stratus.cloudapi.IndexService}; SimpleDB in the papers,
   * DynamoDB today), one domain per index: entries are put by the committing client itself, before
   * its commit is acknowledged, and never cached; every query page is one service request. Needs
   * {@link io.stratus.cloudapi.CloudServices#hasIndex() an index service}. See docs/using.md for
   * when to choose it and docs/protocols.md for what each protocol guarantees with it.
   */
  INDEX_SERVICE
}
