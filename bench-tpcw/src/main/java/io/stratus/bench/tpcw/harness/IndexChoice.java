package io.stratus.bench.tpcw.harness;

import io.stratus.cloudapi.CloudServices;
import io.stratus.core.IndexPlacement;
import java.util.Locale;

/**
 * Where the bookstore's secondary indexes live in a run, the index half of paper 000's four
 * configurations (section 7.2: EU-BTree, EU-SDB, EC2-BTree, EC2-SDB): client-side B-trees, or the
 * cloud's index service (SimpleDB in the paper; the in-process service, or DynamoDB on {@code
 * --cloud localstack} and {@code aws}). The service takes its entries in batches where it allows
 * them, or, as SimpleDB did in 2008 (000 section 2.2.4: "every item must be inserted
 * individually"), one item per request: the difference shows in the bulk load (Table 4).
 */
public enum IndexChoice {
  /** Client-side B-trees (the paper's BTree configurations). */
  BTREE("btree", IndexPlacement.CLIENT_TREE),
  /** The index service, batched where it allows (the paper's SDB configurations). */
  SDB("sdb", IndexPlacement.INDEX_SERVICE),
  /** The index service, one item per request, as SimpleDB in 2008. */
  SDB_SINGLE("sdb-single", IndexPlacement.INDEX_SERVICE);

  private final String id;
  private final IndexPlacement placement;

  IndexChoice(String id, IndexPlacement placement) {
    this.id = id;
    this.placement = placement;
  }

  /** The command-line name. */
  public String id() {
    return id;
  }

  /** Where the indexes are created. */
  public IndexPlacement placement() {
    return placement;
  }

  /** Whether the indexes are held by the index service (the cloud then needs one). */
  public boolean usesService() {
    return placement == IndexPlacement.INDEX_SERVICE;
  }

  /**
   * {@code raw} as this choice's indexes see it: for {@link #SDB_SINGLE} its index service takes
   * one item per request; otherwise unchanged.
   */
  CloudServices services(CloudServices raw) {
    return this == SDB_SINGLE && raw.hasIndex()
        ? raw.toBuilder().index(new ItemAtATimeIndex(raw.index())).build()
        : raw;
  }

  /** Parses a command-line name. */
  public static IndexChoice parse(String name) {
    String n = name.trim().toLowerCase(Locale.ROOT);
    for (IndexChoice c : values()) {
      if (c.id.equals(n)) {
        return c;
      }
    }
    throw new IllegalArgumentException(
        "unknown index placement '" + name + "' (expected btree, sdb or sdb-single)");
  }
}
