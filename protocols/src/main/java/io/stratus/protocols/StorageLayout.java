package io.stratus.protocols;

import io.stratus.btree.BLinkTree;
import io.stratus.pagemanager.Page;
import io.stratus.pagemanager.PageKind;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.Objects;
import java.util.Optional;

/**
 * Where a database keeps its objects and queues, in one place for the record manager (which
 * creates them) and the commit protocols (which must recognise them): both used to spell the
 * same names as string patterns of their own, and a change on one side would have silently
 * broken the other.
 *
 * <ul>
 *   <li>{@code <db>/catalog}: the catalog page;
 *   <li>{@code <db>/c/<collection>/root}: a collection's primary B-link tree, its other pages
 *       beside the root ({@code <db>/c/<collection>/...}); its leaves are the data pages;
 *   <li>{@code <db>/i/<collection>/<index>/root}: a secondary index, pages beside its root; an
 *       index held by the index service has no pages, its root URI only names it, and its entries
 *       are the items of one domain of the service ({@link #indexDomain});
 *   <li>{@code <db>/pu/}: the pending-update queues ({@link io.stratus.protocols.log.PuQueues});
 *   <li>{@code <db>/atomic/<clientId>}: the ATOMIC queue of each client;
 *   <li>{@code <db>/aatomic/log} and {@code <db>/aatomic/commit}: the advanced queues that hold
 *       the logs and commit records of ADVANCED_ATOMIC and the isolating protocols (the second's
 *       URI also names their recovery lock);
 *   <li>{@code <db>/si/log/<treeRootUri>}: the snapshot archive of each tree (advanced queues of
 *       the isolating protocols);
 *   <li>{@code <db>/si/commits}: the isolating protocols' commit-id counter;
 *   <li>{@code <db>/si/lock/<digest>}: their record and range locks;
 *   <li>{@code <db>/si/ckpt/<treeRootUri>}: the lock of a tree's snapshot checkpoint;
 *   <li>{@code <db>/writers/<writer>}: the lease that tells a live writer of the queue protocols
 *       from a stopped one (its chains in page headers are retired only after it stopped);
 *   <li>{@code <db>/seq/<name>}: the object of a sequence, which holds its lowest id not yet
 *       reserved;
 *   <li>{@code <db>/dead/<queue hash>-<message id>}: a damaged message set aside from its queue
 *       ({@link io.stratus.protocols.DeadLetters}).
 * </ul>
 *
 * <p>A tree's pages are named in its root's directory, so the root URI alone identifies a tree
 * ({@link #tree}). Immutable and thread-safe.
 */
public final class StorageLayout {
  private static final String ROOT = "root";
  private static final String SLASH_ROOT = "/" + ROOT;

  /** The longest domain name every index service takes (SimpleDB's and DynamoDB's limits). */
  private static final int MAX_DOMAIN = 200;

  /** Which kind of tree a root belongs to. */
  public enum TreeKind {
    /** A collection's primary tree (records by key). */
    PRIMARY,
    /** A secondary index (composite of search key and record key). */
    INDEX
  }

  private final String databaseUri;
  private final String collections;
  private final String indexes;

  /** The layout of the database at {@code databaseUri}. */
  public StorageLayout(String databaseUri) {
    this.databaseUri = Objects.requireNonNull(databaseUri, "databaseUri");
    this.collections = databaseUri + "/c/";
    this.indexes = databaseUri + "/i/";
  }

  /** The database's URI prefix. */
  public String databaseUri() {
    return databaseUri;
  }

  /** The prefix of every collection's pages (each collection's tree directory lies under it). */
  public String collectionsPrefix() {
    return collections;
  }

  /** The prefix of every secondary index's pages. */
  public String indexesPrefix() {
    return indexes;
  }

  /** Whether {@code uri} names a tree root ({@code .../root}). */
  public static boolean isRootUri(String uri) {
    return uri.endsWith(SLASH_ROOT);
  }

  /** The URI of the catalog page. */
  public String catalog() {
    return databaseUri + "/catalog";
  }

  /** The root URI of collection {@code name}'s primary tree. */
  public String collectionRoot(String name) {
    return collections + name + "/" + ROOT;
  }

  /** The root URI of index {@code index} of collection {@code collection}. */
  public String indexRoot(String collection, String index) {
    return indexes + collection + "/" + index + "/" + ROOT;
  }

  /**
   * The index-service domain that holds the entries of index {@code index} of {@code collection}:
   * {@code s<digest>-<collection>-<index>}, where the digest (16 hex digits of SHA-256 over the
   * database URI, collection and index) keeps databases sharing one service apart and makes the
   * name unique whatever the names hold, and the names, cut to the service's 200 characters, say
   * whose domain it is to an operator. Only the characters domains allow: collection and index
   * names are letters, digits and {@code _ . -} already.
   */
  public String indexDomain(String collection, String index) {
    byte[] digest;
    try {
      digest =
          MessageDigest.getInstance("SHA-256")
              .digest(
                  (databaseUri + "\0" + collection + "\0" + index)
                      .getBytes(StandardCharsets.UTF_8));
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("every Java platform has SHA-256", e);
    }
    String name = "s" + HexFormat.of().formatHex(digest, 0, 8) + "-" + collection + "-" + index;
    return name.length() <= MAX_DOMAIN ? name : name.substring(0, MAX_DOMAIN);
  }

  /** The prefix of every sequence's object. */
  public String sequencesPrefix() {
    return databaseUri + "/seq/";
  }

  /** The object of sequence {@code name}: its lowest id not yet reserved. */
  public String sequence(String name) {
    return sequencesPrefix() + name;
  }

  /** The prefix of every pending-update queue. */
  public String pendingUpdatePrefix() {
    return databaseUri + "/pu/";
  }

  /** The prefix of every item of the dead-letter area. */
  public String deadLetterPrefix() {
    return databaseUri + "/dead/";
  }

  /**
   * The item that holds message {@code messageId} of {@code queue} once it is set aside: the same
   * for every client that sets it aside, so two doing it at once write one item. The queue is
   * named by a hash (its URI has slashes and may be long), the message id as is where it is made
   * of safe characters.
   */
  public String deadLetter(String queue, String messageId) {
    StringBuilder id = new StringBuilder(messageId.length());
    for (char c : messageId.toCharArray()) {
      boolean safe =
          (c >= 'a' && c <= 'z')
              || (c >= 'A' && c <= 'Z')
              || (c >= '0' && c <= '9')
              || c == '-'
              || c == '_'
              || c == '.';
      id.append(safe ? c : '_');
    }
    return deadLetterPrefix() + shortHash(queue) + "-" + id;
  }

  /** Sixteen hex digits of SHA-256 of {@code text}: distinct for distinct queues in practice. */
  private static String shortHash(String text) {
    try {
      byte[] d =
          java.security.MessageDigest.getInstance("SHA-256")
              .digest(text.getBytes(java.nio.charset.StandardCharsets.UTF_8));
      return java.util.HexFormat.of().formatHex(d, 0, 8);
    } catch (java.security.NoSuchAlgorithmException e) {
      throw new IllegalStateException("every Java platform has SHA-256", e);
    }
  }

  /** The prefix of every ATOMIC queue (also their lock-timeout prefix). */
  public String atomicPrefix() {
    return databaseUri + "/atomic/";
  }

  /** The prefix of the snapshot archive's queues: one per tree, this prefix and its root URI. */
  public String archivePrefix() {
    return isolationPrefix() + "log/";
  }

  /**
   * The prefix of the advanced atomicity queues ({@code log} and {@code commit}, one each for the
   * database), and the lock-timeout prefix of their recovery lock.
   */
  public String advancedAtomicPrefix() {
    return databaseUri + "/aatomic/";
  }

  /** The advanced queue of the transactions' logs (records under their commit's key). */
  public String advancedAtomicLog() {
    return advancedAtomicPrefix() + "log";
  }

  /** The advanced queue of the commit records; its URI also names the recovery lock. */
  public String advancedAtomicCommits() {
    return advancedAtomicPrefix() + "commit";
  }

  /** The isolating protocols' commit-id counter. */
  public String commitCounter() {
    return isolationPrefix() + "commits";
  }

  /** The prefix of the isolating protocols' record and range locks (and their lock timeout). */
  public String recordLockPrefix() {
    return isolationPrefix() + "lock/";
  }

  /** The prefix of the locks of the trees' snapshot checkpoints (and their lock timeout). */
  public String snapshotCheckpointLockPrefix() {
    return isolationPrefix() + "ckpt/";
  }

  /** The prefix of the writer leases of the queue protocols (and their lock timeout). */
  public String writerLeasePrefix() {
    return databaseUri + "/writers/";
  }

  /** What every name of the isolating protocols starts with, the archive's included. */
  private String isolationPrefix() {
    return databaseUri + "/si/";
  }

  /**
   * The collection an object or queue of this database belongs to: a page of a collection's
   * primary tree or of one of its indexes, and a pending-update or archive queue that feeds such a
   * tree or page (their names end with the tree's or page's URI). Empty for everything shared by
   * all collections — the catalog, the ATOMIC queues (one per client, holding records of any
   * collection), the isolating protocols' commit queues — and for URIs outside the database.
   *
   * <p>Why: client-side encryption chooses a key per collection from the URI alone, as the cloud
   * services see nothing else.
   */
  public Optional<String> collectionOf(String uri) {
    if (uri.startsWith(collections) || uri.startsWith(indexes)) {
      return firstSegment(uri, uri.startsWith(collections) ? collections : indexes);
    }
    for (String queues : new String[] {pendingUpdatePrefix(), archivePrefix()}) {
      if (uri.startsWith(queues)) {
        int c = uri.indexOf(collections, queues.length());
        int i = uri.indexOf(indexes, queues.length());
        if (c < 0 && i < 0) {
          return Optional.empty();
        }
        boolean primary = c >= 0 && (i < 0 || c < i);
        return collectionOf(uri.substring(primary ? c : i));
      }
    }
    return Optional.empty();
  }

  /** The segment after {@code prefix} when another '/' follows it (a tree's page, not its dir). */
  private static Optional<String> firstSegment(String uri, String prefix) {
    int end = uri.indexOf('/', prefix.length());
    return end > prefix.length()
        ? Optional.of(uri.substring(prefix.length(), end))
        : Optional.empty();
  }

  /** Whether {@code page} is a data page: a leaf of a collection's primary tree. */
  public boolean isDataPage(Page page) {
    return page.kind() == PageKind.LEAF && page.uri().startsWith(collections);
  }

  /** The kind of tree whose root {@code page} is, or empty when it is no tree root. */
  public Optional<TreeKind> rootKind(Page page) {
    String uri = page.uri();
    if (page.kind() == PageKind.META || !uri.endsWith(SLASH_ROOT)) {
      return Optional.empty();
    }
    if (uri.startsWith(collections)) {
      return Optional.of(TreeKind.PRIMARY);
    }
    if (uri.startsWith(indexes)) {
      return Optional.of(TreeKind.INDEX);
    }
    return Optional.empty();
  }

  /** The directory a tree's pages live in: that of its root ({@code a/b/root} gives a/b/). */
  public static String treeDirectory(String rootUri) {
    return rootUri.substring(0, rootUri.lastIndexOf('/') + 1);
  }

  /** The root URI of the tree a page named {@code pageUri} belongs to. */
  public static String rootOf(String pageUri) {
    return treeDirectory(pageUri) + ROOT;
  }

  /** A handle on the tree rooted at {@code rootUri}, naming new pages beside the root. */
  public static BLinkTree tree(String rootUri) {
    return BLinkTree.open(rootUri, treeDirectory(rootUri));
  }
}
