package io.stratus.protocols.log;

import io.stratus.pagemanager.Page;
import io.stratus.protocols.StorageLayout;
import java.util.Optional;

/**
 * Names of the pending-update (PU) queues of one database (paper 000, section 4.2), and how a
 * checkpointer tells from a queue's name what it applies:
 *
 * <ul>
 *   <li>{@code <databaseUri>/pu/t/<treeUri>}: inserts and deletes of a collection's primary tree;
 *   <li>{@code <databaseUri>/pu/i/<treeUri>}: inserts and deletes of a secondary index;
 *   <li>{@code <databaseUri>/pu/p/<pageUri>}: updates of the records on one data page (a leaf of a
 *       primary tree).
 * </ul>
 *
 * <p>For the reader-side checkpoint strategy the protocol must also recognize data pages and tree
 * roots among the pages a transaction reads; the names come from the database's {@link
 * StorageLayout}, which the record manager uses to create them. Immutable.
 */
public final class PuQueues {
  /** What a queue feeds. */
  public enum Kind {
    PRIMARY_TREE,
    INDEX_TREE,
    DATA_PAGE
  }

  /** A queue's target: a tree (by root URI) or a data page. */
  public record Target(Kind kind, String uri) {
    public boolean isTree() {
      return kind != Kind.DATA_PAGE;
    }
  }

  private final StorageLayout layout;
  private final String prefix;

  public PuQueues(String databaseUri) {
    this(new StorageLayout(databaseUri));
  }

  public PuQueues(StorageLayout layout) {
    this.layout = layout;
    this.prefix = layout.pendingUpdatePrefix();
  }

  /** The prefix of every PU queue of the database (also the lock-timeout prefix). */
  public String prefix() {
    return prefix;
  }

  public String treeQueue(String treeUri, boolean secondaryIndex) {
    return prefix + (secondaryIndex ? "i/" : "t/") + treeUri;
  }

  public String pageQueue(String pageUri) {
    return prefix + "p/" + pageUri;
  }

  public String queueOf(Target t) {
    return switch (t.kind()) {
      case PRIMARY_TREE -> treeQueue(t.uri(), false);
      case INDEX_TREE -> treeQueue(t.uri(), true);
      case DATA_PAGE -> pageQueue(t.uri());
    };
  }

  /**
   * The queue a routed record goes to: a primary-tree record with a data page to the page's queue
   * (updates, and inserts and deletes that followed a pending record of their key there), anything
   * else to its tree's — what the engine decided when it routed the record, so recovery of
   * an ATOMIC queue sends each record where the commit would have.
   */
  public String queueOf(io.stratus.protocols.log.LogRecord r) {
    if (r.dataPageUri().isPresent() && !r.change().secondaryIndex()) {
      return pageQueue(r.dataPageUri().get());
    }
    return treeQueue(r.treeUri(), r.change().secondaryIndex());
  }

  /** The target of a queue of this database, or empty for another name. */
  public Optional<Target> parse(String queueUri) {
    if (!queueUri.startsWith(prefix)
        || queueUri.length() < prefix.length() + 3
        || queueUri.charAt(prefix.length() + 1) != '/') {
      return Optional.empty();
    }
    String uri = queueUri.substring(prefix.length() + 2);
    return switch (queueUri.charAt(prefix.length())) {
      case 't' -> Optional.of(new Target(Kind.PRIMARY_TREE, uri));
      case 'i' -> Optional.of(new Target(Kind.INDEX_TREE, uri));
      case 'p' -> Optional.of(new Target(Kind.DATA_PAGE, uri));
      default -> Optional.empty();
    };
  }

  /** Whether {@code page} is a data page: a leaf of a collection's primary tree. */
  public boolean isDataPage(Page page) {
    return layout.isDataPage(page);
  }

  /** The tree whose root {@code page} is, or empty when it is no tree root. */
  public Optional<Target> rootOf(Page page) {
    return layout
        .rootKind(page)
        .map(
            k ->
                new Target(
                    k == StorageLayout.TreeKind.PRIMARY ? Kind.PRIMARY_TREE : Kind.INDEX_TREE,
                    page.uri()));
  }
}
