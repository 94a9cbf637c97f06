package io.stratus.core;

import io.stratus.CorruptPageException;
import io.stratus.cloudapi.CloudException;
import io.stratus.cloudapi.CloudFutures;
import io.stratus.cloudapi.StorageService;
import io.stratus.cloudapi.StoredItem;
import io.stratus.pagemanager.Page;
import io.stratus.pagemanager.PageCodec;
import java.util.Optional;

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

  /** The outcome of a read: a page when {@link State#OK}, else null. */
  record Read(State state, Page page) {
    boolean ok() {
      return state == State.OK;
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
      return new Read(State.UNREADABLE, null);
    }
    if (item.isEmpty()) {
      return new Read(State.ABSENT, null);
    }
    try {
      Page page = PageCodec.decode(uri, item.get().payload());
      decoded++;
      return new Read(State.OK, page);
    } catch (CorruptPageException e) {
      findings.error(
          Finding.Kind.CORRUPT_PAGE,
          uri,
          e.getMessage()
              + "; restore the item from a backup or replica (pages it links to are checked only if"
              + " reached otherwise)");
      return new Read(State.CORRUPT, null);
    }
  }

  /** Pages decoded so far. */
  long decoded() {
    return decoded;
  }
}
