package io.stratus.protocols.engine;

import io.stratus.pagemanager.Page;
import io.stratus.pagemanager.PageStore;
import io.stratus.protocols.log.LogRecord;
import io.stratus.protocols.log.PuQueues;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.Function;

/**
 * How a handle's reads see its own committed writes before checkpoints apply them — one of the
 * engine's strategies: {@link #none()} (the basic protocol: a client sees its writes once they
 * are checkpointed) or the {@link OwnWrites} overlay (read-your-writes, paper 001 section 5.2).
 *
 * <p>Contract: once a commit's records were {@link #remember remembered}, every {@link
 * Reads#overlay} of a leaf in their key range MUST show them until a page the read used shows them
 * applied — also for a transaction that read its copy of the leaf before another transaction saw
 * the records applied: a transaction keeps the copy it read first (repeatable read), so a record
 * is forgotten only once no transaction that may hold a copy without it is still open; and
 * {@link #pendingTarget} MUST name the queue of the latest remembered record of a key while it is
 * shown, so that later records of the key follow it into one chain. Implementations are
 * thread-safe.
 */
public interface ReadYourWrites {

  /**
   * Remembers the records of a commit that arrived or will (numbered, per queue).
   *
   * @return whether a {@link #prune} is due
   */
  boolean remember(Map<String, List<LogRecord>> byQueue);

  /** The reads of one transaction, from its begin; {@link Reads#close} at its end. */
  Reads reads();

  /**
   * One transaction's reads through the overlay. Used by one thread at a time, like its
   * transaction; closed exactly once, when the transaction ends.
   */
  interface Reads extends AutoCloseable {
    /**
     * {@code leaf} (a copy this transaction read) with the handle's remembered writes in its key
     * range that this copy does not show applied.
     */
    Page overlay(PageStore pages, Page leaf);

    /** The transaction ended: it reads no copy any more. */
    @Override
    void close();
  }

  /** The queue of this handle's pending record of {@code key} in {@code treeUri}, if any. */
  Optional<PuQueues.Target> pendingTarget(String treeUri, byte[] key);

  /**
   * Forgets records whose chain page ({@code chainPage}: the pool) has shown them applied for
   * longer than {@code ttlMillis}.
   *
   * @return how many were forgotten
   */
  int prune(Function<String, Optional<Page>> chainPage, long nowMillis, long ttlMillis);

  /**
   * Forgets the records whose chain is one of {@code chainPages} and that {@code pages} (a view of
   * the pool) shows applied, as a read of their leaves would: the chain's page covers the record
   * and the leaf now responsible for its key shows it. Like such a read, it forgets a record only
   * once every transaction open now has ended, since those may hold older copies. For the pages a
   * checkpoint of this handle has just written: the pool holds the copies it installed.
   *
   * @return how many were forgotten
   */
  int forgetApplied(PageStore pages, Set<String> chainPages);

  /** Records remembered and not yet forgotten. */
  int pending();

  /** No read-your-writes: reads see what checkpoints applied. */
  static ReadYourWrites none() {
    return Nothing.INSTANCE;
  }

  /** The strategy of {@link #none()}. */
  final class Nothing implements ReadYourWrites {
    private static final Nothing INSTANCE = new Nothing();

    private Nothing() {}

    @Override
    public boolean remember(Map<String, List<LogRecord>> byQueue) {
      return false;
    }

    /** Reads that see the leaves as they are. */
    private static final Reads AS_THEY_ARE =
        new Reads() {
          @Override
          public Page overlay(PageStore pages, Page leaf) {
            return leaf;
          }

          @Override
          public void close() {}
        };

    @Override
    public Reads reads() {
      return AS_THEY_ARE;
    }

    @Override
    public Optional<PuQueues.Target> pendingTarget(String treeUri, byte[] key) {
      return Optional.empty();
    }

    @Override
    public int prune(Function<String, Optional<Page>> chainPage, long nowMillis, long ttlMillis) {
      return 0;
    }

    @Override
    public int forgetApplied(PageStore pages, Set<String> chainPages) {
      return 0;
    }

    @Override
    public int pending() {
      return 0;
    }
  }
}
