package io.stratus.core;

import io.stratus.CorruptPageException;
import io.stratus.cloudapi.CloudException;
import io.stratus.cloudapi.CloudFutures;
import io.stratus.cloudapi.StorageService;
import io.stratus.cloudapi.StoredItem;
import io.stratus.pagemanager.Page;
import io.stratus.pagemanager.PageCodec;
import java.util.Optional;
import org.jspecify.annotations.Nullable;

/**
 * Pages as storage holds them now, for the verifier: read with a plain get (no buffer pool, no
 * cache, no protocol), decoded with the page codec. A page that does not decode, or whose read
 * fails, becomes a finding here and a {@link State} for the caller, never an exception, so that a
 * scan goes on past damage. Used by one scanning thread.
 */
final class StoredPages {
  /** What a read found. */
  enum State {
    OK,
    ABSENT,
    CORRUPT,
    UNREADABLE
  }

  /** The outcome of a read: a page when {@link State#OK}, else none. */
  static final class Read {
    private final State state;
    private final @Nullable Page page; // null unless OK

    private Read(State state, @Nullable Page page) {
      this.state = state;
      this.page = page;
    }

    /** A page read and decoded. */
    static Read of(Page page) {
      return new Read(State.OK, page);
    }

    /** A read that found no page: {@code state} is not {@link State#OK}. */
    static Read without(State state) {
      return new Read(state, null);
    }

    State state() {
      return state;
    }

    boolean ok() {
      return state == State.OK;
    }

    /**
     * The page read.
     *
     * @throws IllegalStateException unless {@link #ok()} (a caller that did not look first)
     */
    Page page() {
      if (page == null) {
        throw new IllegalStateException("no page was read: " + state);
      }
      return page;
    }
  }

  private final StorageService storage;
  private final VerifyFindings findings;
  private long decoded;

  StoredPages(StorageService storage, VerifyFindings findings) {
    this.storage = storage;
    this.findings = findings;
  }

  /** Reads and decodes the page at {@code uri}; corrupt and unreadable pages are reported. */
  Read read(String uri) {
    Optional<StoredItem> item;
    try {
      item = CloudFutures.await(storage.get(uri));
    } catch (CloudException e) {
      findings.error(
          Finding.Kind.UNREADABLE,
          uri,
          "could not read the page ("
              + e.getMessage()
              + "); what lies behind it is unchecked: verify again");
      return Read.without(State.UNREADABLE);
    }
    if (item.isEmpty()) {
      return Read.without(State.ABSENT);
    }
    try {
      Page page = PageCodec.decode(uri, item.get().payload());
      decoded++;
      return Read.of(page);
    } catch (CorruptPageException e) {
      findings.error(
          Finding.Kind.CORRUPT_PAGE,
          uri,
          e.getMessage()
              + "; restore the item from a backup or replica (pages it links to are checked only if"
              + " reached otherwise)");
      return Read.without(State.CORRUPT);
    }
  }

  /** Pages decoded so far. */
  long decoded() {
    return decoded;
  }
}
