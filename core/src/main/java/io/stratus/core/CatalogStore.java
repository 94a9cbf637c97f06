package io.stratus.core;

import io.stratus.CommitFailedException;
import io.stratus.StalePageException;
import io.stratus.cloudapi.ConflictException;
import io.stratus.cloudapi.PreconditionFailedException;
import io.stratus.cloudapi.SupportsConditionalPut;
import io.stratus.pagemanager.BufferPool;
import io.stratus.pagemanager.CachedPage;
import io.stratus.pagemanager.Page;
import io.stratus.pagemanager.PageWriter;
import io.stratus.protocols.ProtocolKind;
import io.stratus.protocols.StorageLayout;
import java.util.Optional;
import java.util.function.UnaryOperator;
import org.jspecify.annotations.Nullable;

/**
 * Reads and changes the catalog item of one database.
 *
 * <p><b>Reads</b> go through the buffer pool, so the catalog is refreshed by the same TTL protocol
 * as every page: another process's new collection or index becomes visible here within the TTL,
 * or at once through {@link #fresh()}, which the record manager calls before it reports an
 * unknown name. The decoded {@link Catalog} is memoised per cached page instance, so the common
 * path is a pool hit and an identity check.
 *
 * <p><b>Never older than what this handle knew.</b> The catalog page's version stamp is its
 * generation: every change writes one above the copy it was based on. Eventually consistent
 * storage may answer a read with a copy from before a change this handle read or made itself; the
 * store keeps the newest catalog it has met (read or written, with its storage version) and
 * answers with that one whenever storage serves an older copy. So a handle never goes back to a
 * catalog without an index it has seen, whatever the buffer pool's monotonic-reads setting.
 *
 * <p><b>Changes</b> are read-modify-write of the whole item, based on the newer of the copy
 * storage serves and the newest this handle knows. With {@link SupportsConditionalPut} the write
 * is conditional on the base's version (or on absence); conditional puts check the latest state
 * even where reads lag, so a base that is not the latest loses, and a lost race (precondition
 * failed, or a conflict) re-reads and re-applies the change to the winner's catalog: two processes
 * that create collections concurrently lose neither. Without conditional puts the write is a plain
 * put: a handle's own earlier changes are kept (its base is never older than them), but two
 * processes' concurrent changes can lose one of them (the last writer wins, like the naive
 * protocol); create collections and indexes from one process at a time there, e.g. at
 * deployment.
 *
 * <p><b>The protocol.</b> Every catalog read is checked against the handle's protocol ({@link
 * ProtocolRecord#check}), so a handle refuses a database that runs a protocol it cannot share it
 * with, at its open and within the TTL of a switch; every change records the handle's protocol
 * in a catalog that has none yet.
 *
 * <p>Thread-safe: the memo is one volatile reference to an immutable pair, and changes are
 * serialised within the process ({@code synchronized}), so the threads of one handle never race
 * each other even on storage without conditional puts.
 */
final class CatalogStore {
  /** How many lost races a change tolerates before giving up (a retryable failure). */
  private static final int MAX_ATTEMPTS = 20;

  private final String uri;
  private final String databaseUri;
  private final ProtocolKind protocol;
  private final BufferPool pool;
  private final PageWriter writer;

  /** The catalog of the last page decoded. */
  private volatile Memo memo = new Memo(null, Catalog.EMPTY);

  /** The newest catalog this handle has met (highest version stamp), with its storage version. */
  private volatile Newest newest = new Newest(null, Catalog.EMPTY);

  /** A decoded page; the first memo has none. */
  private record Memo(@Nullable Page page, Catalog catalog) {}

  /** The newest catalog met, with its page and storage version; none before the first is met. */
  private record Newest(@Nullable CachedPage met, Catalog catalog) {
    long stamp() {
      return met == null ? -1 : met.page().versionStamp();
    }

    @Nullable Page page() {
      return met == null ? null : met.page();
    }
  }

  /**
   * The catalog of {@code databaseUri} for a handle of {@code protocol}, written through {@code
   * writer}.
   */
  CatalogStore(String databaseUri, ProtocolKind protocol, PageWriter writer, BufferPool pool) {
    this.databaseUri = databaseUri;
    this.uri = new StorageLayout(databaseUri).catalog();
    this.protocol = protocol;
    this.writer = writer;
    this.pool = pool;
  }

  String uri() {
    return uri;
  }

  /**
   * The catalog as the pool has it (at most a TTL old), or the newest this handle has met when
   * that is newer.
   */
  Catalog current() {
    Newest n = newest;
    Optional<CachedPage> cached;
    try {
      cached = pool.fetchVersioned(uri);
    } catch (StalePageException olderThanSeen) {
      if (n.met() == null) {
        throw olderThanSeen;
      }
      return n.catalog(); // the pool's monotonic reads refused an older copy: ours is newer
    }
    if (cached.isEmpty() || cached.get().page().versionStamp() < n.stamp()) {
      return n.catalog(); // storage served a copy from before one this handle met
    }
    if (cached.get().page() == n.page()) {
      return n.catalog(); // the common path: the pool's copy is the newest met
    }
    Catalog c = decode(cached.get().page());
    met(cached.get(), c);
    return c;
  }

  /** The catalog as storage has it now (never older than one this handle met). */
  Catalog fresh() {
    pool.invalidate(uri);
    return current();
  }

  /**
   * Applies {@code change} to the stored catalog and writes the result; {@code change} may run
   * several times (once per lost race) and returns its argument itself when nothing needs to
   * change, in which case nothing is written.
   *
   * @return the catalog as written (or as found, when nothing changed)
   */
  synchronized Catalog update(UnaryOperator<Catalog> change) {
    for (int attempt = 1; attempt <= MAX_ATTEMPTS; attempt++) {
      pool.invalidate(uri);
      Optional<CachedPage> base = pool.fetchVersioned(uri);
      Newest n = newest;
      CachedPage met = n.met();
      if (met != null && (base.isEmpty() || base.get().page().versionStamp() < n.stamp())) {
        base = Optional.of(met); // storage lags behind us
      }
      Catalog before = base.map(b -> decode(b.page())).orElse(Catalog.EMPTY);
      base.ifPresent(b -> met(b, before));
      Catalog after = change.apply(before);
      if (after == before) {
        return before;
      }
      if (after.protocol().isEmpty()) {
        after = after.withProtocol(protocol.name());
      }
      PageWriter.Condition condition =
          !writer.supportsConditions()
              ? PageWriter.Condition.none()
              : base.map(c -> PageWriter.Condition.version(c.version()))
                  .orElse(PageWriter.Condition.absent());
      PageWriter.Written written;
      try {
        written =
            writer.write(
                after.toPage(uri), base.map(c -> c.page().versionStamp()).orElse(0L), condition);
      } catch (PreconditionFailedException | ConflictException lostRace) {
        continue; // another process changed the catalog: merge into its version
      }
      met(new CachedPage(written.page(), written.version()), after);
      return after;
    }
    throw new CommitFailedException(
        "the catalog "
            + uri
            + " changed under "
            + MAX_ATTEMPTS
            + " attempts to update it"
            + (pool.readsMayLag()
                ? " (storage reads lag behind writes, so this handle may still be served a copy"
                    + " from before another's change)"
                : "")
            + ": retry (Database.run does)",
        true,
        null);
  }

  /** Remembers {@code page} (decoded: {@code catalog}) when it is the newest met so far. */
  private void met(CachedPage page, Catalog catalog) {
    synchronized (this) {
      if (page.page().versionStamp() >= newest.stamp()) {
        newest = new Newest(page, catalog);
      }
    }
  }

  private Catalog decode(Page page) {
    Memo m = memo;
    if (m.page() == page) {
      return m.catalog();
    }
    Catalog c = Catalog.fromPage(page);
    ProtocolRecord.check(databaseUri, c, protocol);
    memo = new Memo(page, c);
    return c;
  }

  /**
   * Records the handle's protocol in a stored catalog that has none (written before databases
   * recorded it), when storage has conditional puts: a plain put could lose another process's
   * concurrent change, so without them the next change records it. Nothing is written for a
   * database without a catalog (its first change records it) or with a recorded protocol.
   */
  void recordIfMissing() {
    if (writer.supportsConditions()) {
      update(
          c ->
              c.protocol().isPresent() || c.collections().isEmpty()
                  ? c
                  : c.withProtocol(protocol.name()));
    }
  }

  /** Records that the database runs {@code next} from now on. */
  void recordProtocol(ProtocolKind next) {
    update(c -> c.protocol().equals(Optional.of(next.name())) ? c : c.withProtocol(next.name()));
  }
}
