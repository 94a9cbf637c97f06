package io.stratus.protocols.isolation;

import io.stratus.CommitFailedException;
import io.stratus.TransactionTimeoutException;
import io.stratus.cloudapi.CloudException;
import io.stratus.cloudapi.CloudFutures;
import io.stratus.cloudapi.CounterService;
import io.stratus.cloudapi.OutcomeUnknownException;
import io.stratus.protocols.IsolationSettings;
import io.stratus.protocols.ProtocolContext;
import io.stratus.protocols.TransactionInfo;
import java.time.Clock;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Consumer;

/**
 * The commit ids of the isolating protocols: the counter {@code <databaseUri>/si/commits} whose
 * validated value is the newest snapshot (Algorithm 7), what this handle's snapshots must include,
 * and the ids a commit takes.
 *
 * <p>Why a part of its own: every read strategy takes its base here and every commit its id, and
 * the rules around them are subtle enough to live once — a lost increment reply is asked again
 * under the same request id ({@link CommitCounter}), a validation that failed is owed and sent
 * again before the next base, a snapshot never goes back behind what the handle wrote or read, and
 * read-only transactions reuse a recent snapshot.
 *
 * <p>Each base and each id is taken after the owed work of the handle ({@code owedWork}: archives
 * and validations that failed) and the advanced atomicity recovery check ({@code recoveryCheck},
 * given the transaction id), which an id's request overlaps.
 *
 * <p>Thread-safe.
 */
final class CommitIds {
  /** The longest handle-specific part of a commit's request id (the rest is a sequence). */
  private static final int REQUEST_ID_PREFIX_LENGTH = 40;

  private final Clock clock;
  private final IsolationSettings settings;
  private final CommitCounter counter;
  private final Runnable owedWork;
  private final Consumer<String> recoveryCheck;

  /** Commit ids this handle's snapshots must include: its own commits and what it read. */
  private final AtomicLong mustSee = new AtomicLong();

  private final AtomicLong reusable = new AtomicLong(-1);
  private volatile long reusableAtMillis;

  /**
   * Sets the counter's validation timeout to the isolation lease.
   *
   * @param handleOwner what makes this handle's request ids unique
   * @param background runs work that need not hold up the caller
   * @param owedWork sends again what the handle owes before a base is taken
   * @param recoveryCheck the recovery check for a transaction id
   */
  CommitIds(
      ProtocolContext ctx,
      String handleOwner,
      Consumer<Runnable> background,
      Runnable owedWork,
      Consumer<String> recoveryCheck) {
    this.clock = ctx.clock();
    this.settings = ctx.isolation();
    this.owedWork = owedWork;
    this.recoveryCheck = recoveryCheck;
    CounterService counters = ctx.services().counters();
    String uri = ctx.layout().commitCounter();
    this.counter =
        new CommitCounter(
            counters,
            uri,
            clock,
            ctx.pause(),
            settings.leaseTimeout(),
            new CounterStall(
                clock,
                settings.leaseTimeout(),
                ctx.checkpoints().atomicTimeout(),
                ctx.databaseUri()),
            handleOwner.length() <= REQUEST_ID_PREFIX_LENGTH
                ? handleOwner
                : RecordLocks.digest(handleOwner, (byte) 3, new byte[0])
                    .substring(0, REQUEST_ID_PREFIX_LENGTH),
            background,
            System::nanoTime);
    CloudFutures.await(counters.setTimeout(uri, settings.leaseTimeout()));
  }

  // ---- bases ----

  /**
   * Algorithm 7: the recovery check, then the snapshot id — the highest validated commit id,
   * waiting briefly while it lags behind what this handle must see (its own latest commit, and
   * any commit it read). Read-only transactions reuse a recent snapshot.
   */
  long snapshotFor(TransactionInfo tx) {
    owedWork.run();
    recoveryCheck.accept(tx.transactionId());
    long must = mustSee.get();
    long reuse = reusable.get();
    if (tx.readOnly()
        && reuse >= must
        && reuse >= 0
        && clock.millis() - reusableAtMillis < settings.snapshotReuse().toMillis()) {
      return reuse;
    }
    long s =
        counter.awaitAtLeast(
            must,
            Long.MAX_VALUE,
            (v, polls, cause) ->
                new TransactionTimeoutException(
                    "transaction "
                        + tx.transactionId()
                        + ": the commit counter has not validated commit "
                        + must
                        + " yet (it is at "
                        + v
                        + "), which this handle wrote or read; a snapshot without it would go"
                        + " back in time. "
                        + cause));
    reusable.accumulateAndGet(s, Math::max);
    reusableAtMillis = clock.millis();
    return Math.max(s, 0);
  }

  /**
   * The base of a transaction that reads the latest committed state (two-phase locking): the
   * recovery check, then the highest validated commit id, without waiting for anything.
   */
  long latestBase(TransactionInfo tx) {
    owedWork.run();
    recoveryCheck.accept(tx.transactionId());
    return Math.max(counter.highestValidated(), 0);
  }

  /** Later snapshots of this handle must include commit {@code commitId} (it was read or written). */
  void mustSee(long commitId) {
    mustSee.accumulateAndGet(commitId, Math::max);
  }

  /** The highest validated commit id: every commit up to it is archived. */
  long highestValidated() {
    return counter.highestValidated();
  }

  /**
   * Waits until every commit id below {@code commitId} is validated (so the archive holds all of
   * them), for at most {@link CommitCounter#WAIT_BUDGET} and until {@code deadlineMillis}; a poll
   * that fails transiently is polled again within that bound.
   */
  void awaitValidatedBelow(String txId, long commitId, long deadlineMillis) {
    counter.awaitAtLeast(
        commitId - 1,
        deadlineMillis,
        (v, polls, cause) ->
            new TransactionTimeoutException(
                "commit of transaction "
                    + txId
                    + ": earlier commits (below "
                    + commitId
                    + ") are still in flight after "
                    + polls
                    + " polls. "
                    + cause));
  }

  // ---- ids of commits ----

  /**
   * A commit id for a transaction holding its exclusive locks, with the recovery check in
   * flight. On failure the locks are released and nothing was sent.
   *
   * <p>When the counters have idempotent increments, the increment names this commit attempt (a
   * request id unique to the handle and the attempt) and a lost reply is asked again under the
   * same id ({@link CommitCounter#await}): the answer is the id the lost request was issued, which
   * the commit then uses and validates like any other. Without the ability a lost reply fails the
   * commit, and the id it may have been issued holds newer snapshots back until its lease ends.
   */
  long take(String txId, LockSet held) {
    try {
      CommitCounter.Increment next = counter.increment();
      try {
        recoveryCheck.accept(txId);
      } catch (RuntimeException e) {
        counter.validateWhenKnown(next);
        throw e;
      }
      return counter.await(next);
    } catch (CloudException e) {
      held.releaseNow();
      throw new CommitFailedException(
          "commit of transaction " + txId + ": taking a commit id" + " failed; nothing was sent",
          e.isRetryable() || e instanceof OutcomeUnknownException,
          e);
    } catch (RuntimeException e) {
      held.releaseNow();
      throw e;
    }
  }

  /** Validates {@code commitId}, asking again until it is (an id owed is sent again later). */
  void validate(long commitId) {
    counter.validate(commitId);
  }

  /** Sends the validations that failed again. */
  void retryOwed() {
    counter.retryOwed();
  }
}
