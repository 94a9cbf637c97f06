package io.stratus.protocols.engine;

import java.time.Clock;
import java.time.Duration;
import java.util.Objects;
import java.util.function.LongSupplier;

/**
 * How long the checkpoints of the queue protocols keep a tombstone (the stamp a delete leaves in
 * its leaf, {@link io.stratus.btree.TreeChange}): until no record of the key with an older stamp
 * can arrive any more. Before that, dropping it would let a late create bring the deleted key
 * back; after it, the tombstone only takes room.
 *
 * <p><b>The rule: twice the queues' message retention, plus {@link #MARGIN}.</b> A record reaches
 * its pending-update queue at its commit (basic, monotonic) or by propagation from an atomic queue
 * (atomic: the message waits there at most one retention, after which the queue drops it;
 * advanced atomic: any running client propagates an abandoned commit within the atomic timeout).
 * In the pending-update queue it waits — hidden by a receive, deferred behind a gap in its chain,
 * or never checkpointed — at most one retention, after which the queue drops it. So no record
 * older than two retentions reaches a checkpoint. The margin covers clocks of the stamping and the
 * checkpointing clients that disagree, the atomic timeout, and the background resends of a commit
 * whose outcome stayed unknown. With the queues' default retention (4 days, as SQS) a tombstone is
 * kept for 9 days; at SQS's longest retention (14 days), 29.
 *
 * <p>What the rule does not cover: a record that reaches its pending-update queue later than one
 * retention after its commit (a handle that keeps re-sending an unsettled commit that long, or an
 * advanced-atomic commit that no client propagates that long). A checkpoint that receives such a
 * record warns. Thread-safe; the stamp follows {@code clock}.
 */
public final class TombstoneHorizon implements LongSupplier {
  /** Added to twice the retention (see the class comment). */
  public static final Duration MARGIN = Duration.ofDays(1);

  private final Clock clock;
  private final Duration keptFor;

  /**
   * @param clock the clock of the checkpointing handle
   * @param queueRetention how long the simple queues keep an undeleted message
   */
  public TombstoneHorizon(Clock clock, Duration queueRetention) {
    this.clock = Objects.requireNonNull(clock, "clock");
    this.keptFor = queueRetention.multipliedBy(2).plus(MARGIN);
  }

  /** How long a tombstone is kept after its delete's stamp. */
  public Duration keptFor() {
    return keptFor;
  }

  /** The write stamp below which tombstones may be forgotten now. */
  @Override
  public long getAsLong() {
    return CommitStamps.firstAt(clock.millis() - keptFor.toMillis());
  }
}
