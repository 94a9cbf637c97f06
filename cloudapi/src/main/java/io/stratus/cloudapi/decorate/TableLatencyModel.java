package io.stratus.cloudapi.decorate;

import io.stratus.cloudapi.Operation;
import java.time.Duration;

/**
 * A latency model from a table of measurements: storage calls by transferred size along a
 * piecewise-linear curve, every other call by a fixed figure per kind (index calls by whether they
 * write).
 *
 * <p>The storage curve is linear in size (not in log size) between the measured points; below the
 * first point the first figure applies (small transfers are dominated by the round trip), and above
 * the last point the last segment is extrapolated (large transfers are bandwidth-bound). Every
 * storage call is sized by its payload both ways, so a metadata read, a listing, a delete or a
 * not-modified answer costs the first figure, and a write costs as a read of the same size.
 *
 * <p>Immutable and thread-safe.
 */
final class TableLatencyModel implements LatencyModel {
  private final String name;
  private final long[] curveBytes;
  private final long[] curveNanos;
  private final long queueSendNanos;
  private final long queueReceiveNanos;
  private final long queueDeleteNanos;
  private final long queueControlNanos;
  private final long advancedNanos;
  private final long machineNanos;
  private final long indexWriteNanos;
  private final long indexReadNanos;

  /**
   * @param curveBytes ascending sizes of the measured storage points, at least two
   * @param curve their round-trip times, same length
   */
  TableLatencyModel(
      String name,
      long[] curveBytes,
      Duration[] curve,
      Duration queueSend,
      Duration queueReceive,
      Duration queueDelete,
      Duration queueControl,
      Duration advanced,
      Duration machine,
      Duration indexWrite,
      Duration indexRead) {
    if (curveBytes.length < 2 || curveBytes.length != curve.length) {
      throw new IllegalArgumentException("a storage curve needs at least two points");
    }
    for (int i = 1; i < curveBytes.length; i++) {
      if (curveBytes[i] <= curveBytes[i - 1]) {
        throw new IllegalArgumentException("curve sizes must ascend");
      }
    }
    this.name = name;
    this.curveBytes = curveBytes.clone();
    this.curveNanos = new long[curve.length];
    for (int i = 0; i < curve.length; i++) {
      curveNanos[i] = curve[i].toNanos();
    }
    this.queueSendNanos = queueSend.toNanos();
    this.queueReceiveNanos = queueReceive.toNanos();
    this.queueDeleteNanos = queueDelete.toNanos();
    this.queueControlNanos = queueControl.toNanos();
    this.advancedNanos = advanced.toNanos();
    this.machineNanos = machine.toNanos();
    this.indexWriteNanos = indexWrite.toNanos();
    this.indexReadNanos = indexRead.toNanos();
  }

  @Override
  public Duration latency(Operation op, long requestBytes, long responseBytes) {
    switch (op.service()) {
      case STORAGE:
        long bytes = Math.max(0, requestBytes) + Math.max(0, responseBytes);
        return Duration.ofNanos(storageNanos(bytes));
      case SIMPLE_QUEUE:
        return Duration.ofNanos(queueNanos(op));
      case ADVANCED_QUEUE:
      case LOCK:
      case COUNTER:
        return Duration.ofNanos(advancedNanos);
      case MACHINE:
        return Duration.ofNanos(machineNanos);
      case INDEX:
        return Duration.ofNanos(op.isMutating() ? indexWriteNanos : indexReadNanos);
      default:
        throw new IllegalStateException("unknown service " + op.service());
    }
  }

  private long queueNanos(Operation op) {
    switch (op) {
      case QUEUE_SEND:
      case QUEUE_SEND_BATCH:
        return queueSendNanos;
      case QUEUE_RECEIVE:
        return queueReceiveNanos;
      case QUEUE_DELETE_MESSAGE:
      case QUEUE_DELETE_BATCH:
      case QUEUE_CHANGE_VISIBILITY:
      case QUEUE_CHANGE_VISIBILITY_BATCH:
        return queueDeleteNanos; // a receipt handle in, nothing out, like a delete
      default:
        return queueControlNanos;
    }
  }

  /** The curve at {@code bytes}: flat below the first point, extrapolated above the last. */
  long storageNanos(long bytes) {
    if (bytes <= curveBytes[0]) {
      return curveNanos[0];
    }
    int seg = 1;
    while (seg < curveBytes.length - 1 && bytes > curveBytes[seg]) {
      seg++;
    }
    long x0 = curveBytes[seg - 1];
    long y0 = curveNanos[seg - 1];
    long dx = curveBytes[seg] - x0;
    long dy = curveNanos[seg] - y0;
    long off = bytes - x0;
    long y;
    try {
      y = y0 + Math.multiplyExact(dy, off) / dx;
    } catch (ArithmeticException overflow) {
      y = y0 + (long) ((double) dy * off / dx);
    }
    return Math.max(0, y);
  }

  @Override
  public String toString() {
    return "LatencyProfile[" + name + "]";
  }
}
