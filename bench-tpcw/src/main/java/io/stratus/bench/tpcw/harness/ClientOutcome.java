package io.stratus.bench.tpcw.harness;

import io.stratus.bench.tpcw.bookstore.StalenessTracker;
import io.stratus.bench.tpcw.rbe.ClientMeasurements;
import io.stratus.cloudapi.decorate.MeterSnapshot;
import java.io.BufferedInputStream;
import java.io.BufferedOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Objects;

/**
 * What one client process hands its parent: its browsers' raw measurements, every cloud call its
 * handle made (metered from the handle's opening to its close, so that the parent can check that
 * the run charged each of them once), and the figures of its handle that a client in the harness's
 * JVM gives the harness directly.
 *
 * @param measurements the browsers' measurements; their calls include the client's drain
 * @param meter every call the client's handle made, its opening and schema check included
 * @param bufferHits buffer-pool hits in the measurement interval
 * @param bufferFetches buffer-pool fetches in the measurement interval
 * @param checkpointsRun background checkpoints the handle ran in the measurement interval
 * @param checkpointsFailed of those, the ones that gave up
 * @param lockRefusals lock requests refused to the handle over the run
 * @param steadyRecords records the handle took from pending-update queues between the start of the
 *     measurement interval and its drain
 * @param drain what the client's drain did
 * @param lostItemUpdates lost stock updates its browsers saw
 * @param lostCustomerUpdates lost customer updates its browsers saw
 * @param ownReads its sessions' reads of their own writes
 */
record ClientOutcome(
    ClientMeasurements measurements,
    MeterSnapshot meter,
    long bufferHits,
    long bufferFetches,
    long checkpointsRun,
    long checkpointsFailed,
    long lockRefusals,
    long steadyRecords,
    DrainPasses drain,
    long lostItemUpdates,
    long lostCustomerUpdates,
    OwnReads ownReads) {

  /** Identifies the format {@link #writeTo} writes; changed whenever the format changes. */
  private static final int FORMAT = 0x5457_4f01;

  /** Checks the parts. */
  ClientOutcome {
    Objects.requireNonNull(measurements, "measurements");
    Objects.requireNonNull(meter, "meter");
    Objects.requireNonNull(drain, "drain");
    Objects.requireNonNull(ownReads, "ownReads");
  }

  /**
   * Writes the outcome to {@code file}, whole, for {@link #readFrom}, followed by the stock
   * changes {@code stockChanges} recorded, which the parent's stock audit accounts for.
   */
  void writeTo(Path file, StalenessTracker stockChanges) throws IOException {
    try (DataOutputStream out =
        new DataOutputStream(new BufferedOutputStream(Files.newOutputStream(file)))) {
      out.writeInt(FORMAT);
      measurements.writeTo(out);
      ClientMeasurements.writeSnapshot(out, meter);
      for (long v :
          new long[] {
            bufferHits,
            bufferFetches,
            checkpointsRun,
            checkpointsFailed,
            lockRefusals,
            steadyRecords,
            drain.passes(),
            drain.recordsApplied(),
            drain.pagesWritten(),
            drain.millis(),
            lostItemUpdates,
            lostCustomerUpdates,
            ownReads.checked(),
            ownReads.stale(),
            ownReads.maxStalenessMillis()
          }) {
        out.writeLong(v);
      }
      out.writeBoolean(drain.quiescent());
      stockChanges.writeStockChanges(out);
    }
  }

  /**
   * Reads an outcome {@link #writeTo} wrote and adds the client's stock changes to {@code
   * stockChanges}.
   *
   * @throws IOException if the file cannot be read or is not an outcome of this build
   */
  static ClientOutcome readFrom(Path file, StalenessTracker stockChanges) throws IOException {
    try (DataInputStream in =
        new DataInputStream(new BufferedInputStream(Files.newInputStream(file)))) {
      if (in.readInt() != FORMAT) {
        throw new IOException(
            file + " is not a client outcome of this build: the child must run the parent's");
      }
      ClientMeasurements m = ClientMeasurements.readFrom(in);
      MeterSnapshot meter = ClientMeasurements.readSnapshot(in);
      long[] v = new long[15];
      for (int i = 0; i < v.length; i++) {
        v[i] = in.readLong();
      }
      boolean quiescent = in.readBoolean();
      stockChanges.addStockChanges(in);
      return new ClientOutcome(
          m,
          meter,
          v[0],
          v[1],
          v[2],
          v[3],
          v[4],
          v[5],
          new DrainPasses((int) v[6], v[7], v[8], v[9], quiescent),
          v[10],
          v[11],
          new OwnReads(v[12], v[13], v[14]));
    }
  }
}
