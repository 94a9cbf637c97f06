package io.stratus.protocols.isolation;

import io.stratus.cloudapi.CloudFutures;
import io.stratus.cloudapi.LockService;
import io.stratus.protocols.ProtocolContext;
import io.stratus.protocols.TransactionInfo;
import java.lang.System.Logger.Level;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Clock;
import java.util.HexFormat;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The record locks of the isolating protocols under {@code <databaseUri>/si/lock/}: what a lock is
 * named, who owns it, and the releases still in flight.
 *
 * <p>Why a part of its own: every read strategy and the durable half of a commit take and release
 * these locks, and they must agree on the names (a snapshot writer's exclusive lock and a locking
 * reader's shared one must be the same lock) and on the owners (one per transaction, so that two
 * transactions of one handle exclude each other). A lock is named by its tree and a digest of the
 * key, since keys may be longer than a lock name may be. Releases are sent without waiting; a
 * handle that closes right after a commit waits for them ({@link #awaitReleases}), else its locks
 * would lapse and block every other client's writers of those records for the lease.
 *
 * <p>Thread-safe.
 */
final class RecordLocks {
  private static final System.Logger LOG = System.getLogger(RecordLocks.class.getName());

  private final LockService locks;
  private final Clock clock;
  private final String prefix;
  private final String handleOwner;
  private final AtomicLong owners = new AtomicLong();

  /** Lock releases sent without waiting and not yet answered. */
  private final Set<CompletableFuture<?>> releases = ConcurrentHashMap.newKeySet();

  /**
   * Sets the lease of every record lock to the isolation lease.
   *
   * @param handleOwner the handle's owner name; each transaction's locks are owned by a name
   *     below it
   */
  RecordLocks(ProtocolContext ctx, String handleOwner) {
    this.locks = ctx.services().locks();
    this.clock = ctx.clock();
    this.prefix = ctx.layout().recordLockPrefix();
    this.handleOwner = handleOwner;
    CloudFutures.await(locks.setTimeout(prefix, ctx.isolation().leaseTimeout()));
  }

  /** The locks of a new transaction, under an owner of its own. */
  LockSet newLocks(TransactionInfo tx) {
    String owner = handleOwner + "/" + tx.transactionId() + "/" + owners.incrementAndGet();
    return new LockSet(locks, clock, owner, tx.transactionId(), this::inFlight);
  }

  // Futures are tracked by identity, which is what their (inherited) equals compares.
  @SuppressWarnings("CollectionUndefinedEquality")
  private void inFlight(CompletableFuture<?> release) {
    releases.add(release);
    release.whenComplete((r, e) -> releases.remove(release));
  }

  /** Waits until {@code deadlineMillis} for the releases in flight; those unanswered lapse. */
  void awaitReleases(long deadlineMillis) {
    try {
      CompletableFuture.allOf(releases.toArray(new CompletableFuture<?>[0]))
          .get(Math.max(0, deadlineMillis - clock.millis()), TimeUnit.MILLISECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    } catch (ExecutionException | TimeoutException e) {
      LOG.log(Level.DEBUG, "lock releases still unanswered at close; they lapse", e);
    }
  }

  /** The lock of a record: its tree and a digest of its key. */
  String lockUri(String root, byte[] key) {
    return prefix + digest(root, (byte) 0, key);
  }

  /** The lock past the last key of a tree (next-key locking's end of the key space). */
  String endLockUri(String root) {
    return prefix + digest(root, (byte) 1, new byte[0]);
  }

  /**
   * The writers' lock of a tree (two-phase locking): every commit that writes the tree holds it
   * shared; a transaction that read so much of the tree that it locks the whole tree instead of
   * its keys holds it exclusively.
   */
  String treeLockUri(String root) {
    return prefix + digest(root, (byte) 2, new byte[0]);
  }

  /**
   * A name of at most 40 hex digits for {@code root}, {@code separator} and {@code key}: the
   * first 20 bytes of their SHA-256. The separator keeps the kinds of names apart.
   */
  static String digest(String root, byte separator, byte[] key) {
    try {
      MessageDigest d = MessageDigest.getInstance("SHA-256");
      d.update(root.getBytes(StandardCharsets.UTF_8));
      d.update(separator);
      d.update(key);
      return HexFormat.of().formatHex(d.digest(), 0, 20);
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("SHA-256 is missing", e);
    }
  }
}
