package io.stratus.core;

import io.stratus.CommitFailedException;
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

/**
 * Reads and changes the catalog item of one database.
 *
 * <p><b>Reads</b> go through the buffer pool, so the catalog is refreshed by the same TTL protocol
 * as every page: another process's new collection or index becomes visible here within the TTL,
 * or at once through {@link #fresh()}, which the record manager calls before it reports an
 * unknown name. The decoded {@link Catalog} is memoised per cached page instance, so the common
 * path is a pool hit and an identity check.
 *
 * <p><b>Changes</b> are read-modify-write of the whole item. With {@link SupportsConditionalPut}
 * the write is conditional on the version read (or on absence), and a lost race (precondition
 * failed, or a conflict) re-reads and re-applies the change to the winner's catalog, so two
 * processes that create collections concurrently lose neither. Without conditional puts the write
 * is a plain put: two concurrent changes can then lose one of them (the last writer wins, like
 * the naive protocol); create collections and indexes from one process at a time there, e.g. at
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
  private volatile Memo memo = new Memo(null, Catalog.EMPTY);

  private record Memo(Page page, Catalog catalog) {}

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

  /** The catalog as the pool has it (at most a TTL old). */
  Catalog current() {
    return decode(pool.fetch(uri).orElse(null));
  }

  /** The catalog as storage has it now. */
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
      Catalog before = decode(base.map(CachedPage::page).orElse(null));
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
      try {
        writer.write(
            after.toPage(uri), base.map(c -> c.page().versionStamp()).orElse(0L), condition);
      } catch (PreconditionFailedException | ConflictException lostRace) {
        continue; // another process changed the catalog: merge into its version
      }
      return after;
    }
    throw new CommitFailedException(
        "the catalog " + uri + " changed under " + MAX_ATTEMPTS + " attempts to update it",
        true,
        null);
  }

  private Catalog decode(Page page) {
    if (page == null) {
      return Catalog.EMPTY;
    }
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
