package io.stratus.zookeeper;

import io.stratus.cloudapi.SupportsIdempotentIncrement;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.jspecify.annotations.Nullable;

/**
 * One advanced counter (paper 000, sections 2.3.6 and 6.6), as kept in its znode under {@code
 * /counters/values}: the same state as the in-process counter, made immutable for compare-and-set.
 *
 * <ul>
 *   <li>{@code epoch}: the counter service's epoch when this record was written. A record of an
 *       earlier epoch was lost by a restart and reads as a fresh counter, so a restart need not
 *       touch every counter node.
 *   <li>{@code lastIssued}: the sequence of the last value handed out in this epoch.
 *   <li>{@code watermark}: every sequence up to it is validated. Validation is final (time only
 *       moves on), so the validated prefix is kept as one number and the node stays bounded by
 *       the values still in flight, not by the values ever issued.
 *   <li>{@code pending}: exactly the sequences in (watermark, lastIssued], in order, each with the
 *       instant it validates on its own (issue instant plus the URI's timeout at issue) and
 *       whether it was validated explicitly. The sequence of {@code pending.get(i)} is {@code
 *       watermark + 1 + i}, so it is not stored: 13 bytes per value in flight.
 *   <li>{@code requests}: the request ids of idempotent increments ({@link
 *       io.stratus.cloudapi.SupportsIdempotentIncrement}) with their sequences, in issue order:
 *       every one above the watermark, and the last {@link
 *       io.stratus.cloudapi.SupportsIdempotentIncrement#REMEMBERED} at least. Stored after the
 *       pending entries, 12 bytes plus the id each; a record without them (written before they
 *       existed) reads as remembering none; a version that predates them ignores them when it
 *       reads and drops them when it writes (a retry then issues a new value, as without them).
 * </ul>
 */
record CounterRecord(
    long epoch, long lastIssued, long watermark, List<Pending> pending, List<Request> requests) {
  CounterRecord {
    pending = List.copyOf(pending);
    requests = List.copyOf(requests);
  }

  /** A record that remembers no request id. */
  CounterRecord(long epoch, long lastIssued, long watermark, List<Pending> pending) {
    this(epoch, lastIssued, watermark, pending, List.of());
  }

  /** The value issued under {@code id}. */
  record Request(String id, long sequence) {}

  /** An issued value above the watermark. */
  record Pending(Instant autoValidatedAt, boolean validated) {
    /** Validated explicitly, or due at {@code now} on a clock up to {@code skew} ahead. */
    boolean validAt(Instant now, Duration skew) {
      return validated || !now.isBefore(TimeoutTable.plus(autoValidatedAt, skew));
    }
  }

  static CounterRecord fresh(long epoch) {
    return new CounterRecord(epoch, 0, 0, List.of());
  }

  /** This record with one more value issued, due on its own at {@code autoValidatedAt}. */
  CounterRecord issue(Instant autoValidatedAt) {
    return issue(autoValidatedAt, null);
  }

  /**
   * This record with one more value issued, due on its own at {@code autoValidatedAt} and
   * remembered under {@code requestId} unless that is null.
   */
  CounterRecord issue(Instant autoValidatedAt, @Nullable String requestId) {
    List<Pending> next = new ArrayList<>(pending.size() + 1);
    next.addAll(pending);
    next.add(new Pending(autoValidatedAt, false));
    List<Request> remembered = requests;
    if (requestId != null) {
      remembered = new ArrayList<>(requests.size() + 1);
      remembered.addAll(requests);
      remembered.add(new Request(requestId, lastIssued + 1));
    }
    return new CounterRecord(epoch, lastIssued + 1, watermark, next, remembered);
  }

  /** The sequence issued under {@code requestId}, or null when none is remembered. */
  @Nullable Long sequenceOf(String requestId) {
    for (Request r : requests) {
      if (r.id().equals(requestId)) {
        return r.sequence();
      }
    }
    return null;
  }

  /** This record with sequence {@code seq} (in the pending range) validated explicitly. */
  CounterRecord validate(long seq) {
    int i = (int) (seq - watermark - 1);
    List<Pending> next = new ArrayList<>(pending);
    next.set(i, new Pending(pending.get(i).autoValidatedAt(), true));
    return new CounterRecord(epoch, lastIssued, watermark, next, requests);
  }

  /** The pending entry of {@code seq}, or null when it is at or below the watermark. */
  @Nullable Pending pendingOf(long seq) {
    return seq > watermark && seq <= lastIssued ? pending.get((int) (seq - watermark - 1)) : null;
  }

  /**
   * This record with the leading validated or due values folded into the watermark, and the
   * request ids it need no longer remember forgotten.
   */
  CounterRecord advance(Instant now, Duration skew) {
    int done = 0;
    while (done < pending.size() && pending.get(done).validAt(now, skew)) {
      done++;
    }
    long folded = watermark + done;
    int forget = 0;
    int remembered = SupportsIdempotentIncrement.REMEMBERED;
    while (requests.size() - forget > remembered && requests.get(forget).sequence() <= folded) {
      forget++;
    }
    if (done == 0 && forget == 0) {
      return this;
    }
    return new CounterRecord(
        epoch,
        lastIssued,
        folded,
        pending.subList(done, pending.size()),
        requests.subList(forget, requests.size()));
  }

  /** When the first value in flight validates on its own, or null when none is in flight. */
  @Nullable Instant firstDue() {
    return pending.isEmpty() ? null : pending.get(0).autoValidatedAt();
  }

  byte[] encode() {
    Codec.Writer w =
        new Codec.Writer()
            .writeLong(epoch)
            .writeLong(lastIssued)
            .writeLong(watermark)
            .writeInt(pending.size());
    for (Pending p : pending) {
      w.writeInstant(p.autoValidatedAt()).writeByte(p.validated() ? 1 : 0);
    }
    if (!requests.isEmpty()) {
      w.writeInt(requests.size());
      for (Request r : requests) {
        w.writeString(r.id()).writeLong(r.sequence());
      }
    }
    return w.toBytes();
  }

  static CounterRecord decode(byte[] data) {
    Codec.Reader r = new Codec.Reader(data, "counter record");
    long epoch = r.readLong();
    long lastIssued = r.readLong();
    long watermark = r.readLong();
    int n = r.readCount(13);
    if (watermark + n != lastIssued) {
      throw new IllegalStateException(
          "counter record is corrupt: " + watermark + " + " + n + " pending != " + lastIssued);
    }
    List<Pending> pending = new ArrayList<>(n);
    for (int i = 0; i < n; i++) {
      pending.add(new Pending(r.readInstant(), r.readByte() != 0));
    }
    List<Request> requests = new ArrayList<>();
    if (r.hasMore()) {
      int m = r.readCount(13);
      long previous = 0;
      for (int i = 0; i < m; i++) {
        Request q = new Request(r.readString(), r.readLong());
        if (q.sequence() <= previous || q.sequence() > lastIssued) {
          throw new IllegalStateException(
              "counter record is corrupt: request " + q + " out of order or never issued");
        }
        previous = q.sequence();
        requests.add(q);
      }
    }
    return new CounterRecord(epoch, lastIssued, watermark, pending, requests);
  }
}
