package io.stratus.pagemanager;

import java.util.Optional;

/**
 * The pages one unit of work sees and changes: what the B-link trees are written against. A
 * transaction of the buffer pool implements it (reads come from the transaction's own changes, else
 * from the shared pool; writes stay private until commit); so does a checkpoint or a bulk load,
 * which read and write storage directly.
 *
 * <p>Implementations MUST give read-your-writes within one store: after {@code write(p)}, {@code
 * read(p.uri())} returns {@code p}. A store is used by one thread at a time.
 */
public interface PageStore {

  /** The page at {@code uri} as this unit of work sees it, or empty when there is none. */
  Optional<Page> read(String uri);

  /** Records a new or changed page; it reaches storage only as the owner of the store decides. */
  void write(Page page);

  /**
   * A fresh URI for a new page: {@code prefix} followed by at most 64 characters, unique across
   * clients (the B-link trees reserve that much room in every page for the URIs they store).
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
