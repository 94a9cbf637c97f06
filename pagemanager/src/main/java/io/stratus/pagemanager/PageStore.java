package io.stratus.pagemanager;

import java.util.Optional;

/**
 * The pages one unit of work sees and changes: what the B-link trees are written against. A
 * transaction of the buffer pool implements it (reads come from the transaction's own changes, else
 * from the shared pool; writes stay private until commit); so does a checkpoint or a bulk load,
 * which read and write storage directly.
 *
 * <p>What every implementation MUST do (the contract suite {@code PageStoreContract}, in this
 * module's test-jar, checks it for each one):
 *
 * <ul>
 *   <li><b>Reads</b>: {@code read} of a URI that holds no page, in this store or beneath it, is
 *       empty; a stored page is returned whole (header, entries, tombstones, write stamps, version
 *       stamp), unless the store is a view that changes what reads return by design (a snapshot).
 *   <li><b>Read-your-writes</b>: after {@code write(p)}, {@code read(p.uri())} returns {@code p},
 *       except that the store may give it a higher version stamp ({@link Page#versionStamp}); a
 *       later write of the same URI replaces the earlier one.
 *   <li><b>Private writes</b>: a write is seen by this store only, until its owner publishes it
 *       (a commit, a checkpoint's flush): another store over the same pages does not see it.
 *   <li><b>Page size</b>: {@link #write} refuses a page whose {@link Page#encodedSizeBound()}
 *       exceeds {@link #pageSize()} with {@link IllegalArgumentException}, and records nothing;
 *       the page size is positive and fixed for the store's life.
 *   <li><b>New URIs</b>: see {@link #newPageUri}.
 *   <li><b>Read-only views</b> (the committed state a protocol routes or validates against)
 *       refuse {@link #write} and {@link #newPageUri} with {@link UnsupportedOperationException}
 *       and change nothing.
 * </ul>
 *
 * <p>A store is used by one thread at a time.
 */
public interface PageStore {

  /** The page at {@code uri} as this unit of work sees it, or empty when there is none. */
  Optional<Page> read(String uri);

  /** Records a new or changed page; it reaches storage only as the owner of the store decides. */
  void write(Page page);

  /**
   * A fresh URI for a new page: {@code prefix} followed by at most 64 characters, unique across
   * calls and across clients (the B-link trees reserve that much room in every page for the URIs
   * they store).
   */
  String newPageUri(String prefix);

  /** The largest encoded page this store accepts ({@link Page#encodedSizeBound()}). */
  int pageSize();

  /**
   * Whether a read may miss a page that has been written: storage that is eventually consistent
   * ({@link io.stratus.cloudapi.StorageService#isStronglyConsistent()} false). Then a page that
   * another page refers to but that reads as absent is a read lagging behind a write, which a later
   * read gets past; on strongly consistent storage it is damage. Stores that only hold pages of
   * their own keep the default, false.
   */
  default boolean readsMayLag() {
    return false;
  }
}
