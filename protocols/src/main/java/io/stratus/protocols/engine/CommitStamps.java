package io.stratus.protocols.engine;

import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.util.Objects;
import java.util.concurrent.atomic.AtomicLong;
import java.util.zip.CRC32C;

/**
 * The write stamps of one database handle's commits: what orders the commits of one key across
 * writers when their records reach a page out of order (the Thomas write rule of {@link
 * io.stratus.btree.TreeChange}).
 *
 * <p><b>Why stamps and not arrival order.</b> A checkpoint applies what its queue returns. A record
 * can reach its page after a later writer's record of the same key was applied: held back behind a
 * gap in its own writer's chain, hidden by a receive of a checkpoint that died, or propagated late
 * from an atomic queue by recovery. Applied then, it would overwrite the later value for good, so
 * an acknowledged write would be lost. With stamps on entries, the late record loses instead.
 *
 * <p><b>What a stamp is.</b> A hybrid logical clock in microseconds, shifted left by {@link
 * #WRITER_BITS} bits that hold a tag of the client id (so two clients' commits in the same
 * microsecond still have an order, the same at every checkpoint). Each stamp of a handle is larger
 * than the previous one, whatever the clock does, and larger than every stamp the handle has seen
 * on pages it read ({@link #observe}): a commit that read a value is ordered after the commit that
 * wrote it, even when the reader's clock is behind the writer's. Commits of one key by clients
 * that know nothing of each other are ordered by their clocks: closer together than the clocks
 * disagree, the order may differ from real time (documented in docs/protocols.md). A stamp seen on a
 * page is followed at most {@link #MAX_LEAD_MICROS} ahead of this handle's clock, so one client
 * with a clock far ahead cannot drag every other's stamps along without bound.
 *
 * <p>Thread-safe, lock-free.
 */
public final class CommitStamps {
  /** Low bits of a stamp that hold the writer tag. */
  public static final int WRITER_BITS = 8;

  /** How far ahead of this handle's clock an observed stamp is followed (one minute). */
  static final long MAX_LEAD_MICROS = 60_000_000L;

  private final Clock clock;
  private final long tag;

  /** The logical time (microseconds) of the last stamp issued or seen. */
  private final AtomicLong last = new AtomicLong();

  /**
   * @param clock the handle's clock
   * @param clientId the handle's client id (its hash tags the stamps)
   */
  public CommitStamps(Clock clock, String clientId) {
    this.clock = Objects.requireNonNull(clock, "clock");
    CRC32C crc = new CRC32C();
    crc.update(Objects.requireNonNull(clientId, "clientId").getBytes(StandardCharsets.UTF_8));
    this.tag = crc.getValue() & ((1L << WRITER_BITS) - 1);
  }

  /** A new stamp, larger than every stamp this handle issued or observed before. */
  public long next() {
    long now = nowMicros();
    long logical = last.updateAndGet(prev -> Math.max(prev + 1, now));
    return (logical << WRITER_BITS) | tag;
  }

  /**
   * Records that this handle saw {@code stamp} (0: none): later stamps are larger, up to {@link
   * #MAX_LEAD_MICROS} ahead of the handle's clock.
   */
  public void observe(long stamp) {
    // Checked before the clock is read: on a read path most pages carry stamps already seen.
    if (stamp <= 0 || (stamp >>> WRITER_BITS) <= last.get()) {
      return;
    }
    long logical = Math.min(stamp >>> WRITER_BITS, nowMicros() + MAX_LEAD_MICROS);
    if (logical > last.get()) {
      last.accumulateAndGet(logical, Math::max);
    }
  }

  /**
   * The smallest stamp a handle issues at {@code epochMillis} of its clock (0 before the epoch):
   * every stamp below it was issued earlier, by a clock that read an earlier time.
   */
  public static long firstAt(long epochMillis) {
    return epochMillis <= 0 ? 0 : Math.multiplyExact(epochMillis, 1000L) << WRITER_BITS;
  }

  private long nowMicros() {
    return Math.multiplyExact(clock.millis(), 1000L);
  }
}
