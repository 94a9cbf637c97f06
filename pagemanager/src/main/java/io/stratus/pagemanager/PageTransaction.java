package io.stratus.pagemanager;

import io.stratus.pagemanager.PoolSlot.Content;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;
import org.jspecify.annotations.Nullable;

/**
 * One transaction's private view of the pages (paper 000, section 3.3: the pages a transaction
 * reads, updates and creates between two commit or abort calls), made by {@link
 * BufferPool#begin()}. The B-link trees are written against it as a {@link PageStore}; the commit
 * protocols read its {@link #writes()} and end it.
 *
 * <p><b>Reads.</b> A page this transaction wrote is read as written (read-your-writes). Any other
 * page comes from the shared pool on its first read; the transaction remembers that version (or
 * that there was none) and pins it in the pool, so every later read in this transaction returns
 * the same version (repeatable read) and the pool does not evict it while the transaction runs.
 * Repeated reads cost two hash look-ups and allocate nothing.
 *
 * <p><b>Writes</b> stay here until the end: nothing reaches storage or the shared pool through
 * this class. Each written page carries the storage version it was based on (the version this
 * transaction read), or none for a page that did not exist: what the protocols' conditional puts
 * need. Writing a page not read before reads it first (one pool fetch), to learn that version;
 * pages named by {@link #newPageUri} are known to be new and cost no fetch. The first write of a
 * page in the transaction stamps it with the highest {@link Page#versionStamp} known for it (the
 * version read, or any this client saw) plus one; later writes keep that stamp (monotonic reads).
 *
 * <p><b>States.</b> Open, then either completed ({@link #complete}: the protocol committed the
 * writes, the pool gets the committed pages) or aborted ({@link #abort} or {@link #close}: the
 * writes are discarded, with no cloud call). Both end by unpinning every page read. A finished
 * transaction refuses reads, writes and completion with {@link IllegalStateException}; {@link
 * #abort} of an aborted one and {@link #close} of a finished one do nothing.
 *
 * <p>Not thread-safe: one thread at a time (as {@link PageStore} requires).
 */
public final class PageTransaction implements PageStore, AutoCloseable {
  private enum State {
    OPEN,
    COMPLETED,
    ABORTED
  }

  /**
   * A page read from the pool: the URI object it is kept under ({@link UriKeyed}), its content
   * (null: no page) and the slot pinned for it, if any.
   */
  private record Read(String uri, @Nullable Content content, @Nullable PoolSlot pinned) {}

  private final BufferPool pool;
  private State state = State.OPEN;
  // Made on first use, so that a short read-only transaction allocates little.
  private @Nullable Map<String, Read> reads;
  private @Nullable Map<String, PageWrite> writes;
  private @Nullable Set<String> created;

  PageTransaction(BufferPool pool) {
    this.pool = pool;
  }

  /**
   * The page at {@code uri} as this transaction sees it: its own written version, else the version
   * it first read from the pool.
   *
   * @throws io.stratus.CorruptPageException when the stored page fails its integrity check (the
   *     transaction stays open; nothing was remembered for {@code uri})
   * @throws io.stratus.cloudapi.CloudException when reading storage fails
   */
  @Override
  public Optional<Page> read(String uri) {
    checkOpen("read");
    Objects.requireNonNull(uri, "uri");
    if (writes != null) {
      PageWrite w = writes.get(uri);
      if (w != null) {
        return Optional.of(w.page());
      }
    }
    Content c = readFromPool(uri).content();
    return c == null ? Optional.empty() : c.optionalPage;
  }

  /**
   * Records {@code page} as changed or created by this transaction (replacing an earlier write of
   * the same URI, whose base version it keeps).
   *
   * @throws IllegalArgumentException when the page is larger than {@link #pageSize()}: the caller
   *     must split it first
   */
  @Override
  public void write(Page page) {
    checkOpen("write");
    Objects.requireNonNull(page, "page");
    if (page.encodedSizeBound() > pageSize()) {
      throw new IllegalArgumentException(
          "page "
              + page.uri()
              + " needs up to "
              + page.encodedSizeBound()
              + " bytes, more than"
              + " the page size of "
              + pageSize()
              + "; split it before writing it");
    }
    String uri = page.uri();
    if (writes == null) {
      writes = new LinkedHashMap<>();
    }
    PageWrite previous = writes.get(uri);
    PageWrite w;
    if (previous != null) {
      // One new version per transaction: the stamp given at the first write stays.
      w =
          new PageWrite(
              page.withVersionStamp(previous.page().versionStamp()),
              previous.baseVersion(),
              previous.isNew());
    } else if (created != null
        && created.contains(uri)
        && (reads == null || !reads.containsKey(uri))) {
      w = new PageWrite(page.withVersionStamp(page.versionStamp() + 1), Optional.empty(), true);
    } else {
      Content base = readFromPool(uri).content();
      long stamp = Math.max(page.versionStamp(), pool.highestStamp(uri));
      if (base != null && base.page != null) {
        stamp = Math.max(stamp, base.page.versionStamp());
      }
      w =
          base == null
              ? new PageWrite(page.withVersionStamp(stamp + 1), Optional.empty(), true)
              : new PageWrite(page.withVersionStamp(stamp + 1), Optional.of(base.version), false);
    }
    writes.put(uri, w);
  }

  /**
   * {@code prefix} followed by a random (SecureRandom-based, type 4) UUID: unique across clients
   * without coordination. Remembered, so writing the page needs no storage read.
   */
  @Override
  public String newPageUri(String prefix) {
    checkOpen("create a page in");
    Objects.requireNonNull(prefix, "prefix");
    String uri = prefix + UUID.randomUUID();
    if (created == null) {
      created = new HashSet<>();
    }
    created.add(uri);
    return uri;
  }

  @Override
  public int pageSize() {
    return pool.config().pageSize();
  }

  @Override
  public boolean readsMayLag() {
    return pool.readsMayLag();
  }

  /**
   * The pages this transaction changed or created, by URI, in the order of their first write. An
   * unmodifiable view.
   */
  public Map<String, PageWrite> writes() {
    checkOpen("list the writes of");
    return writes == null ? Map.of() : Collections.unmodifiableMap(writes);
  }

  /**
   * Whether this transaction changed or created the page at {@code uri}: {@code
   * writes().containsKey(uri)} without the view, for read paths that ask it of every leaf.
   */
  public boolean wrote(String uri) {
    checkOpen("list the writes of");
    return writes != null && writes.containsKey(uri);
  }

  /** The URIs this transaction read from the pool (present or not). An unmodifiable view. */
  public Set<String> readSet() {
    checkOpen("list the reads of");
    return reads == null ? Set.of() : Collections.unmodifiableSet(reads.keySet());
  }

  /** For each page read from the pool that existed, the storage version read. A copy. */
  public Map<String, String> readVersions() {
    checkOpen("list the reads of");
    Map<String, String> versions = new HashMap<>();
    if (reads != null) {
      reads.forEach(
          (uri, r) -> {
            if (r.content() != null) {
              versions.put(uri, r.content().version);
            }
          });
    }
    return versions;
  }

  /** Whether the transaction is neither completed nor aborted. */
  public boolean isOpen() {
    return state == State.OPEN;
  }

  /**
   * Ends the transaction after the protocol has committed its writes: each written page listed in
   * {@code committedVersions} is installed in the pool as clean with that storage version (its
   * TTL starts now); written pages not listed are left as the pool has them (use this for pages
   * whose changes travel as log records rather than puts; to keep such a changed page in the pool
   * anyway, as paper 000 section 3.3 does, list it with its base version). Then unpins every page.
   *
   * @param committedVersions written URI to the version storage reported for its put
   * @throws IllegalArgumentException when a listed URI was not written by this transaction (the
   *     transaction then stays open)
   */
  public void complete(Map<String, String> committedVersions) {
    checkOpen("complete");
    Objects.requireNonNull(committedVersions, "committedVersions");
    List<Map.Entry<Page, String>> installs = new ArrayList<>(committedVersions.size());
    for (Map.Entry<String, String> e : committedVersions.entrySet()) {
      PageWrite w = writes == null ? null : writes.get(e.getKey());
      if (w == null) {
        throw new IllegalArgumentException(
            "page " + e.getKey() + " was not written by this transaction");
      }
      installs.add(
          Map.entry(w.page(), Objects.requireNonNull(e.getValue(), "version of " + e.getKey())));
    }
    state = State.COMPLETED;
    try {
      for (Map.Entry<Page, String> i : installs) {
        pool.install(i.getKey(), i.getValue());
      }

    } finally {
      release();
    }
  }

  /**
   * Discards the writes and unpins every page; no cloud call (paper 000, section 3.3). Nothing to
   * do when already aborted.
   *
   * @throws IllegalStateException when the transaction was completed
   */
  public void abort() {
    if (state == State.ABORTED) {
      return;
    }
    checkOpen("abort");
    state = State.ABORTED;
    release();
  }

  /** Aborts the transaction if it is still open; otherwise does nothing. */
  @Override
  public void close() {
    if (state == State.OPEN) {
      abort();
    }
  }

  @Override
  public String toString() {
    return "PageTransaction{"
        + state
        + ", "
        + (reads == null ? 0 : reads.size())
        + " read, "
        + (writes == null ? 0 : writes.size())
        + " written}";
  }

  private Read readFromPool(String uri) {
    if (reads == null) {
      reads = new HashMap<>();
    }
    Read r = reads.get(uri);
    if (r != null && r.uri() != uri) {
      r = UriKeyed.keepUnder(reads, uri, new Read(uri, r.content(), r.pinned()));
    }
    if (r == null) {
      PoolSlot pinned = pool.pinSlot(uri);
      Content c;
      try {
        c = pool.fetchContent(uri);
      } catch (RuntimeException | Error e) {
        pool.unpin(pinned);
        throw e;
      }
      if (c == null) {
        pool.unpin(pinned); // nothing to keep in the pool
        pinned = null;
      }
      r = new Read(uri, c, pinned);
      reads.put(uri, r);
    }
    return r;
  }

  private void release() {
    writes = null;
    created = null;
    if (reads != null) {
      for (Read r : reads.values()) {
        if (r.pinned() != null) {
          pool.unpin(r.pinned());
        }
      }
      reads = null;
    }
  }

  private void checkOpen(String action) {
    if (state != State.OPEN) {
      throw new IllegalStateException(
          "cannot "
              + action
              + " a page transaction that was already "
              + (state == State.COMPLETED ? "completed" : "aborted")
              + "; begin a new one");
    }
  }
}
