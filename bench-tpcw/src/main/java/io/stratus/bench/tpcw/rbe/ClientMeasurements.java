package io.stratus.bench.tpcw.rbe;

import io.stratus.bench.tpcw.rbe.BrowserTally.Counts;
import io.stratus.bench.tpcw.rbe.InteractionAttribution.Ending;
import io.stratus.bench.tpcw.rbe.InteractionAttribution.Usage;
import io.stratus.bench.tpcw.workload.Interaction;
import io.stratus.bench.tpcw.workload.Mix;
import io.stratus.cloudapi.Operation;
import io.stratus.cloudapi.decorate.MeterSnapshot;
import io.stratus.cloudapi.decorate.OperationStats;
import io.stratus.cloudapi.decorate.PriceTable;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Collections;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.zip.DataFormatException;
import org.HdrHistogram.Histogram;

/**
 * The raw measurements of one or more application servers' part of a run, before any summary:
 * counts per interaction and ending, response-time histograms, every metered call per interaction,
 * ending and phase, and the counts and calls per window. Two of them add up exactly ({@link #plus}),
 * so a run's report built from the sum of its clients' measurements is the report of one run of all
 * of them; and they travel between processes whole ({@link #writeTo}, {@link #readFrom}), so a
 * client running in a process of its own hands the parent the same numbers it would have kept in
 * one JVM.
 *
 * <p>Immutable once built; the parts it holds are never changed after construction.
 */
public final class ClientMeasurements {
  /** Identifies the format {@link #writeTo} writes; changed whenever the format changes. */
  private static final int FORMAT = 0x5457_0001;

  private final int ebs;
  private final long measuredNanos;
  private final Counts[] slots;
  private final Histogram[] responseMicros;
  private final Usage usage;
  private final long warmUpInteractions;
  private final List<String> errorSamples;
  private final int unfinishedBrowsers;
  private final WindowCounts windows;
  private final List<Usage> windowBoundaries;
  private final double[] windowSeconds;

  /**
   * Measurements as the emulator took them.
   *
   * @param ebs browsers
   * @param measuredNanos how long the measurement interval lasted for them
   * @param slots counts per {@link Slots slot}
   * @param responseMicros response times per slot
   * @param usage metered calls of the run, from its start
   * @param warmUpInteractions interactions of the warm-up
   * @param errorSamples the first error messages
   * @param unfinishedBrowsers browsers that had not stopped when the run ended
   * @param windows counts per window of the measurement interval
   * @param windowBoundaries metered calls from the run's start to the start of each window and to
   *     the interval's end ({@code windows + 1} of them)
   * @param windowSeconds each window's length
   */
  ClientMeasurements(
      int ebs,
      long measuredNanos,
      Counts[] slots,
      Histogram[] responseMicros,
      Usage usage,
      long warmUpInteractions,
      List<String> errorSamples,
      int unfinishedBrowsers,
      WindowCounts windows,
      List<Usage> windowBoundaries,
      double[] windowSeconds) {
    if (slots.length != Slots.COUNT || responseMicros.length != Slots.COUNT) {
      throw new IllegalArgumentException("one count and one histogram per slot needed");
    }
    if (windowBoundaries.size() != windows.size() + 1 || windowSeconds.length != windows.size()) {
      throw new IllegalArgumentException(
          windows.size() + " windows need " + (windows.size() + 1) + " boundaries and lengths");
    }
    this.ebs = ebs;
    this.measuredNanos = measuredNanos;
    this.slots = slots.clone();
    this.responseMicros = responseMicros.clone();
    this.usage = Objects.requireNonNull(usage, "usage");
    this.warmUpInteractions = warmUpInteractions;
    this.errorSamples = List.copyOf(errorSamples);
    this.unfinishedBrowsers = unfinishedBrowsers;
    this.windows = windows;
    this.windowBoundaries = List.copyOf(windowBoundaries);
    this.windowSeconds = windowSeconds.clone();
  }

  /** Browsers these measurements cover. */
  public int ebs() {
    return ebs;
  }

  /** Interactions completed in the measurement interval. */
  public long completed() {
    long n = 0;
    for (Counts c : slots) {
      n += c.completed;
    }
    return n;
  }

  /** Every call metered from the run's start to its end, the drain included. */
  public MeterSnapshot calls() {
    MeterSnapshot all =
        usage
            .warmUp()
            .plus(usage.backgroundWarmUp())
            .plus(usage.backgroundMeasure())
            .plus(usage.backgroundAfter())
            .plus(usage.backgroundOutside());
    for (Interaction wi : Interaction.values()) {
      all = all.plus(usage.direct(wi, Ending.values()));
    }
    return all;
  }

  /**
   * The measurements of these browsers and {@code other}'s together, as if one run had measured
   * them all: counts, histograms and calls add up, the interval is the longer of the two, error
   * samples keep this one's first.
   */
  public ClientMeasurements plus(ClientMeasurements other) {
    Counts[] sumSlots = new Counts[Slots.COUNT];
    Histogram[] sumTimes = new Histogram[Slots.COUNT];
    for (int i = 0; i < Slots.COUNT; i++) {
      sumSlots[i] = new Counts();
      sumSlots[i].add(slots[i]);
      sumSlots[i].add(other.slots[i]);
      sumTimes[i] = new Histogram(3);
      sumTimes[i].add(responseMicros[i]);
      sumTimes[i].add(other.responseMicros[i]);
    }
    List<String> samples = new ArrayList<>(errorSamples);
    samples.addAll(other.errorSamples);
    WindowCounts sumWindows = new WindowCounts(windows.size());
    sumWindows.add(windows);
    sumWindows.add(other.windows);
    List<Usage> boundaries = new ArrayList<>();
    for (int b = 0; b < windowBoundaries.size(); b++) {
      boundaries.add(windowBoundaries.get(b).plus(other.windowBoundaries.get(b)));
    }
    double[] seconds = new double[windowSeconds.length];
    for (int w = 0; w < seconds.length; w++) {
      seconds[w] = Math.max(windowSeconds[w], other.windowSeconds[w]);
    }
    return new ClientMeasurements(
        ebs + other.ebs,
        Math.max(measuredNanos, other.measuredNanos),
        sumSlots,
        sumTimes,
        usage.plus(other.usage),
        warmUpInteractions + other.warmUpInteractions,
        samples,
        unfinishedBrowsers + other.unfinishedBrowsers,
        sumWindows,
        boundaries,
        seconds);
  }

  /** The sum of {@code parts}, in order ({@link #plus}). */
  public static ClientMeasurements sum(List<ClientMeasurements> parts) {
    if (parts.isEmpty()) {
      throw new IllegalArgumentException("no measurements to add up");
    }
    ClientMeasurements all = parts.get(0);
    for (ClientMeasurements m : parts.subList(1, parts.size())) {
      all = all.plus(m);
    }
    return all;
  }

  /** The report of these measurements, charged under {@code paper} and {@code today}. */
  EmulatorReport report(Mix mix, PriceTable paper, PriceTable today) {
    Histogram[] copies = new Histogram[Slots.COUNT];
    for (int i = 0; i < Slots.COUNT; i++) {
      copies[i] = responseMicros[i].copy();
    }
    return EmulatorReport.Builder.build(
        mix,
        ebs,
        measuredNanos / 1e9,
        slots,
        copies,
        usage,
        paper,
        today,
        warmUpInteractions,
        errorSamples,
        unfinishedBrowsers);
  }

  /** The measurement interval's windows, charged under {@code paper} and {@code today}. */
  List<WindowStats> windowStats(PriceTable paper, PriceTable today) {
    return WindowStats.of(windows, windowBoundaries, usage, windowSeconds, paper, today);
  }

  // ---------------------------------------------------------------------------------------------

  /** Writes these measurements whole to {@code out}; {@link #readFrom} reads them back. */
  public void writeTo(DataOutputStream out) throws IOException {
    out.writeInt(FORMAT);
    out.writeInt(ebs);
    out.writeLong(measuredNanos);
    for (int i = 0; i < Slots.COUNT; i++) {
      writeCounts(out, slots[i]);
      ByteBuffer buffer = ByteBuffer.allocate(responseMicros[i].getNeededByteBufferCapacity());
      int length = responseMicros[i].encodeIntoCompressedByteBuffer(buffer);
      out.writeInt(length);
      out.write(buffer.array(), 0, length);
    }
    writeUsage(out, usage);
    out.writeLong(warmUpInteractions);
    out.writeInt(errorSamples.size());
    for (String s : errorSamples) {
      out.writeUTF(s.length() > 8_000 ? s.substring(0, 8_000) : s);
    }
    out.writeInt(unfinishedBrowsers);
    out.writeInt(windows.size());
    for (long[] column : columns(windows)) {
      for (long v : column) {
        out.writeLong(v);
      }
    }
    for (Usage u : windowBoundaries) {
      writeUsage(out, u);
    }
    for (double s : windowSeconds) {
      out.writeDouble(s);
    }
  }

  /**
   * Reads measurements {@link #writeTo} wrote.
   *
   * @throws IOException if {@code in} fails or does not hold measurements in this format
   */
  public static ClientMeasurements readFrom(DataInputStream in) throws IOException {
    int format = in.readInt();
    if (format != FORMAT) {
      throw new IOException(
          "not a client's measurements in this version's format (found 0x"
              + Integer.toHexString(format)
              + "): the child process must run the same build as the parent");
    }
    int ebs = in.readInt();
    long measuredNanos = in.readLong();
    Counts[] slots = new Counts[Slots.COUNT];
    Histogram[] times = new Histogram[Slots.COUNT];
    for (int i = 0; i < Slots.COUNT; i++) {
      slots[i] = readCounts(in);
      byte[] encoded = new byte[in.readInt()];
      in.readFully(encoded);
      try {
        Histogram h = Histogram.decodeFromCompressedByteBuffer(ByteBuffer.wrap(encoded), 0);
        Histogram resizable = new Histogram(3);
        resizable.add(h);
        times[i] = resizable;
      } catch (DataFormatException e) {
        throw new IOException("a response-time histogram is corrupt: " + e.getMessage(), e);
      }
    }
    Usage usage = readUsage(in);
    long warmUp = in.readLong();
    int samples = in.readInt();
    List<String> errorSamples = new ArrayList<>(samples);
    for (int i = 0; i < samples; i++) {
      errorSamples.add(in.readUTF());
    }
    int unfinished = in.readInt();
    WindowCounts windows = new WindowCounts(in.readInt());
    for (long[] column : columns(windows)) {
      for (int w = 0; w < column.length; w++) {
        column[w] = in.readLong();
      }
    }
    List<Usage> boundaries = new ArrayList<>();
    for (int b = 0; b <= windows.size(); b++) {
      boundaries.add(readUsage(in));
    }
    double[] seconds = new double[windows.size()];
    for (int w = 0; w < seconds.length; w++) {
      seconds[w] = in.readDouble();
    }
    return new ClientMeasurements(
        ebs,
        measuredNanos,
        slots,
        times,
        usage,
        warmUp,
        errorSamples,
        unfinished,
        windows,
        boundaries,
        seconds);
  }

  private static long[][] columns(WindowCounts w) {
    return new long[][] {
      w.completed, w.errors, w.sumMicros, w.updates, w.updateMicros, w.recordsWritten
    };
  }

  private static void writeCounts(DataOutputStream out, Counts c) throws IOException {
    for (long v :
        new long[] {
          c.completed,
          c.errors,
          c.sumMicros,
          c.recordsRead,
          c.recordsWritten,
          c.retries,
          c.wrote,
          c.recordsWrittenByWriters,
          c.stalenessSamples,
          c.stalenessSumMillis,
          c.stalenessMaxMillis
        }) {
      out.writeLong(v);
    }
  }

  private static Counts readCounts(DataInputStream in) throws IOException {
    Counts c = new Counts();
    c.completed = in.readLong();
    c.errors = in.readLong();
    c.sumMicros = in.readLong();
    c.recordsRead = in.readLong();
    c.recordsWritten = in.readLong();
    c.retries = in.readLong();
    c.wrote = in.readLong();
    c.recordsWrittenByWriters = in.readLong();
    c.stalenessSamples = in.readLong();
    c.stalenessSumMillis = in.readLong();
    c.stalenessMaxMillis = in.readLong();
    return c;
  }

  private static void writeUsage(DataOutputStream out, Usage u) throws IOException {
    for (Interaction wi : Interaction.values()) {
      for (Ending e : Ending.values()) {
        writeSnapshot(out, u.measured().get(wi).get(e));
      }
    }
    writeSnapshot(out, u.warmUp());
    writeSnapshot(out, u.backgroundWarmUp());
    writeSnapshot(out, u.backgroundMeasure());
    writeSnapshot(out, u.backgroundAfter());
    writeSnapshot(out, u.backgroundOutside());
  }

  private static Usage readUsage(DataInputStream in) throws IOException {
    Map<Interaction, Map<Ending, MeterSnapshot>> measured = new EnumMap<>(Interaction.class);
    for (Interaction wi : Interaction.values()) {
      Map<Ending, MeterSnapshot> endings = new EnumMap<>(Ending.class);
      for (Ending e : Ending.values()) {
        endings.put(e, readSnapshot(in));
      }
      measured.put(wi, Collections.unmodifiableMap(endings));
    }
    return new Usage(
        Collections.unmodifiableMap(measured),
        readSnapshot(in),
        readSnapshot(in),
        readSnapshot(in),
        readSnapshot(in),
        readSnapshot(in));
  }

  /**
   * Writes the metered calls {@code s} to {@code out} in the format of measurements; {@link
   * #readSnapshot} reads them back.
   */
  public static void writeSnapshot(DataOutputStream out, MeterSnapshot s) throws IOException {
    for (Operation op : Operation.values()) {
      OperationStats o = s.stats(op);
      out.writeLong(o.calls());
      out.writeLong(o.failures());
      out.writeLong(o.bytesSent());
      out.writeLong(o.bytesReceived());
      out.writeLong(o.requestUnits64KiB());
    }
  }

  /**
   * Reads metered calls {@link #writeSnapshot} wrote.
   *
   * @throws IOException if {@code in} fails
   */
  public static MeterSnapshot readSnapshot(DataInputStream in) throws IOException {
    Map<Operation, OperationStats> stats = new EnumMap<>(Operation.class);
    for (Operation op : Operation.values()) {
      stats.put(
          op,
          new OperationStats(
              in.readLong(), in.readLong(), in.readLong(), in.readLong(), in.readLong()));
    }
    return MeterSnapshot.of(stats);
  }
}
