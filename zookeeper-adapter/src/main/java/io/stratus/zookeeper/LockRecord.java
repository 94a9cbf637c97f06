package io.stratus.zookeeper;

import io.stratus.cloudapi.LockMode;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.OptionalLong;
import org.jspecify.annotations.Nullable;

/**
 * The holders of one URI's lock, as kept in its znode under {@code /locks/held}.
 *
 * <p>A holder is its client id, mode, grant instant (on the granting client's clock) and the
 * timeout at that grant. Why instants rather than ephemeral nodes: a lease must lapse after its
 * timeout even while the holder's ZooKeeper session lives on (a hung or partitioned holder keeps
 * its session through another server), and an ephemeral node would lapse only with the session;
 * the paper's leases (section 2.3.5) are judged by time alone.
 *
 * <p>A mode is stored as one byte: 0 shared, 1 exclusive (the two modes of the first layout, so
 * records written before intentions existed read as they were written), 2 insert intention.
 *
 * <p>Holders written in an earlier {@code generation} of the lock service were lost by a restart
 * and count as absent.
 *
 * <p>The URI's stamp ({@link io.stratus.cloudapi.SupportsLockStamps}) follows the holders when it
 * is known, as a long; a record without one (and every record of the layouts before stamps) has an
 * unknown stamp, so records written before stamps read as they were written, and a record of an
 * earlier generation has an unknown stamp whatever it holds. Immutable.
 */
record LockRecord(long generation, List<Holder> holders, OptionalLong stamp) {
  LockRecord {
    holders = List.copyOf(holders);
  }

  /** A record whose stamp is unknown. */
  LockRecord(long generation, List<Holder> holders) {
    this(generation, holders, OptionalLong.empty());
  }

  /** One client's lease. */
  record Holder(String clientId, LockMode mode, Instant grantedAt, Duration timeout) {
    /**
     * Whether the lease has lapsed at {@code now} on a clock that may run up to {@code skew}
     * ahead of the granting client's: granted at g with timeout t, it lapses once
     * {@code g + t + skew <= now}.
     */
    boolean lapsedAt(Instant now, Duration skew) {
      return !now.isBefore(TimeoutTable.plus(TimeoutTable.plus(grantedAt, timeout), skew));
    }
  }

  /** The unlapsed holders of the current generation ({@code null} record: none). */
  static List<Holder> live(@Nullable LockRecord r, long generation, Instant now, Duration skew) {
    if (r == null || r.generation != generation) {
      return List.of();
    }
    List<Holder> out = new ArrayList<>(r.holders.size());
    for (Holder h : r.holders) {
      if (!h.lapsedAt(now, skew)) {
        out.add(h);
      }
    }
    return Collections.unmodifiableList(out);
  }

  /**
   * The stamp of the URI whose node holds {@code r} ({@code null}: no node) in the service state
   * {@code state}: the record's own stamp only if the record is of the current generation; for a
   * URI without a node, 0 (nothing touched it since the service's state began) while the service
   * has never lost its state ({@link ServiceState#neverLost}), else unknown.
   */
  static OptionalLong stampOf(@Nullable LockRecord r, ServiceState state) {
    if (r == null) {
      return state.neverLost() ? OptionalLong.of(0) : OptionalLong.empty();
    }
    return r.generation == state.generation() ? r.stamp : OptionalLong.empty();
  }

  byte[] encode() {
    Codec.Writer w = new Codec.Writer().writeLong(generation).writeInt(holders.size());
    for (Holder h : holders) {
      w.writeString(h.clientId)
          .writeByte(code(h.mode))
          .writeInstant(h.grantedAt)
          .writeDuration(h.timeout);
    }
    stamp.ifPresent(w::writeLong);
    return w.toBytes();
  }

  static LockRecord decode(byte[] data) {
    Codec.Reader r = new Codec.Reader(data, "lock record");
    long generation = r.readLong();
    int n = r.readCount(29);
    List<Holder> holders = new ArrayList<>(n);
    for (int i = 0; i < n; i++) {
      String client = r.readString();
      LockMode mode = mode(r.readByte());
      holders.add(new Holder(client, mode, r.readInstant(), r.readDuration()));
    }
    return new LockRecord(
        generation, holders, r.hasMore() ? OptionalLong.of(r.readLong()) : OptionalLong.empty());
  }

  private static int code(LockMode mode) {
    return switch (mode) {
      case SHARED -> 0;
      case EXCLUSIVE -> 1;
      case INTENTION -> 2;
    };
  }

  private static LockMode mode(int code) {
    return switch (code) {
      case 0 -> LockMode.SHARED;
      case 1 -> LockMode.EXCLUSIVE;
      case 2 -> LockMode.INTENTION;
      default -> throw new IllegalStateException("lock record is corrupt: mode " + code);
    };
  }
}
