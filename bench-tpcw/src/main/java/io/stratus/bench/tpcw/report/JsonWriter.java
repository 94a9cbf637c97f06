package io.stratus.bench.tpcw.report;

import io.stratus.bench.tpcw.bookstore.StockAudit;
import io.stratus.bench.tpcw.harness.ClientResult;
import io.stratus.bench.tpcw.harness.CostPerWi;
import io.stratus.bench.tpcw.harness.CpuProfile;
import io.stratus.bench.tpcw.harness.Drain;
import io.stratus.bench.tpcw.harness.LoadSummary;
import io.stratus.bench.tpcw.harness.OwnReads;
import io.stratus.bench.tpcw.harness.RunResult;
import io.stratus.bench.tpcw.harness.RunSettings;
import io.stratus.bench.tpcw.harness.ServerCost;
import io.stratus.bench.tpcw.harness.WipsRules;
import io.stratus.bench.tpcw.rbe.MixCompliance;
import io.stratus.bench.tpcw.rbe.WindowStats;
import io.stratus.bench.tpcw.workload.Interaction;
import io.stratus.bench.tpcw.workload.ResponseStats;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The whole sweep as one JSON document (results.json), for tools that want the structure the CSV
 * flattens: the parameter, then per run its label, settings, load, the fourteen interactions keyed
 * by enum name (so {@code .runs[0].perInteraction.BUY_CONFIRM.meanMillis} works in jq), the read,
 * update and total groups, the run-level counters and the error samples. A row's {@code
 * milliDollars2008} is its cost per WI as paper 000 defines it (requests, background work
 * included, and the machines paid by the hour), {@code requestMilliDollars2008} the requests
 * alone; {@code machines} gives the machines' hours and cost.
 *
 * <p>Field order is fixed and independent of map iteration order, so two reports of the same sweep
 * are byte-identical. Durations are in milliseconds; numbers that are not finite are written as
 * null (JSON has no NaN). No JSON library is on the classpath, so {@link Json} below is a small
 * streaming writer that tracks commas and escapes strings per RFC 8259.
 */
final class JsonWriter {
  private JsonWriter() {}

  /** Writes results.json for {@code view} to {@code file}. */
  static void write(SweepView view, Path file) throws IOException {
    Files.writeString(file, toJson(view), StandardCharsets.UTF_8);
  }

  /** The document as a string, pretty-printed with two-space indents and a final newline. */
  static String toJson(SweepView view) {
    Json j = new Json();
    j.beginObject();
    j.name("parameter").value(view.parameter());
    j.name("numeric").value(view.numericAxis().isPresent());
    j.name("runs").beginArray();
    for (int i = 0; i < view.size(); i++) {
      run(j, view, i);
    }
    j.endArray();
    j.endObject();
    return j.toString() + "\n";
  }

  private static void run(Json j, SweepView view, int i) {
    RunResult r = view.run(i);
    j.beginObject();
    j.name("label").value(r.label());
    j.name("name").value(view.name(i));
    j.name("settings");
    settings(j, r.settings());
    j.name("load");
    load(j, r.load());
    ServerCost m = SweepView.machines(r);
    j.name("perInteraction").beginObject();
    for (Interaction wi : Interaction.values()) {
      j.name(wi.name());
      stats(j, SweepView.stats(r, wi), wi, m);
    }
    j.endObject();
    j.name("read");
    stats(j, SweepView.read(r), null, m);
    j.name("update");
    stats(j, SweepView.update(r), null, m);
    j.name("total");
    stats(j, SweepView.total(r), null, m);
    j.name("interactionsPerSecond").value(r.interactionsPerSecond());
    wipsRules(j, WipsRules.of(r));
    j.name("repeat").value(r.repeat());
    windows(j, r.windows());
    cpu(j, r.cpu());
    j.name("measuredSeconds").value(r.measuredSeconds());
    j.name("bufferPoolHitRate").value(r.bufferPoolHitRate());
    j.name("checkpointsRun").value(r.checkpointsRun());
    j.name("checkpointsFailed").value(r.checkpointsFailed());
    j.name("backgroundRequests").value(r.backgroundRequests());
    j.name("backgroundMilliDollars2008").value(r.backgroundMilliDollars2008());
    j.name("backgroundMilliDollars2026").value(r.backgroundMilliDollars2026());
    j.name("backgroundMilliDollarsPerWi2008").value(SweepView.backgroundPerWi2008(r));
    j.name("backgroundMilliDollarsPerWi2026").value(SweepView.backgroundPerWi2026(r));
    j.name("lostItemUpdates").value(r.lostItemUpdates());
    j.name("lostCustomerUpdates").value(r.lostCustomerUpdates());
    Drain d = r.drain();
    j.name("drain").beginObject();
    j.name("requests").value(d.requests());
    j.name("milliDollars2008").value(d.milliDollars2008());
    j.name("milliDollars2026").value(d.milliDollars2026());
    j.name("passes").value(d.passes());
    j.name("recordsApplied").value(d.recordsApplied());
    j.name("pagesWritten").value(d.pagesWritten());
    j.name("millis").value(d.millis());
    j.name("quiescent").value(d.quiescent());
    j.endObject();
    j.name("machines").beginObject();
    j.name("serverHours").value(m.serverHours());
    j.name("coordinationHours").value(m.coordinationHours());
    j.name("coordinationRequests").value(m.coordinationRequests());
    j.name("interactions").value(m.interactions());
    j.name("milliDollars2008").value(m.milliDollars2008());
    j.name("milliDollars2026").value(m.milliDollars2026());
    j.name("milliDollarsPerWi2008").value(m.milliDollarsPerWi2008());
    j.name("milliDollarsPerWi2026").value(m.milliDollarsPerWi2026());
    j.name("serverMilliDollarsPerWi2008").value(m.serverMilliDollarsPerWi2008());
    j.name("serverMilliDollarsPerWi2026").value(m.serverMilliDollarsPerWi2026());
    j.name("coordinationMilliDollarsPerWi2026").value(m.coordinationMilliDollarsPerWi2026());
    j.endObject();
    j.name("lockRefusals").value(r.lockRefusals());
    StockAudit audit = r.stockAudit();
    if (audit != null) {
      j.name("stockAudit").beginObject();
      j.name("itemsChecked").value(audit.itemsChecked());
      j.name("itemsOff").value(audit.itemsOff());
      j.name("unitsOff").value(audit.unitsOff());
      j.name("itemsUncertain").value(audit.itemsUncertain());
      j.name("uncertainBuys").value(audit.uncertainBuys());
      j.endObject();
    }
    OwnReads own = r.ownReads() == null ? OwnReads.NONE : r.ownReads();
    j.name("ownReads").beginObject();
    j.name("checked").value(own.checked());
    j.name("stale").value(own.stale());
    j.name("maxStalenessMillis").value(own.maxStalenessMillis());
    j.endObject();
    j.name("clients").beginArray();
    for (ClientResult c : r.clients() == null ? List.<ClientResult>of() : r.clients()) {
      j.beginObject();
      j.name("index").value(c.index());
      j.name("interactionsPerSecond").value(c.interactionsPerSecond());
      j.name("total");
      stats(j, c.total(), null, m);
      j.name("update");
      stats(j, c.update(), null, m);
      j.name("checkpointsRun").value(c.checkpointsRun());
      j.name("checkpointsFailed").value(c.checkpointsFailed());
      j.name("lockRefusals").value(c.lockRefusals());
      j.endObject();
    }
    j.endArray();
    j.name("mixCompliance").beginArray();
    for (MixCompliance.Row row : r.mixCompliance()) {
      j.beginObject();
      j.name("interaction").value(row.interaction().name());
      j.name("count").value(row.count());
      j.name("observedPercent").value(row.observedPercent());
      j.name("targetPercent").value(row.targetPercent());
      j.name("tolerancePoints").value(row.tolerancePoints());
      j.name("verdict").value(row.verdict().name().toLowerCase(Locale.ROOT));
      j.endObject();
    }
    j.endArray();
    j.name("errorSamples").beginArray();
    for (String sample : r.errorSamples() == null ? List.<String>of() : r.errorSamples()) {
      j.value(sample);
    }
    j.endArray();
    j.endObject();
  }

  private static void settings(Json j, RunSettings s) {
    j.beginObject();
    j.name("protocol").value(s.protocol().name().toLowerCase(Locale.ROOT));
    j.name("cloud").value(s.cloud());
    j.name("placement").value(s.placement());
    j.name("latencyProfile").value(s.latencyProfile());
    j.name("pageSize").value(s.pageSize());
    j.name("ttlMillis").value(millis(s.ttl()));
    j.name("checkpointIntervalMillis").value(millis(s.checkpointInterval()));
    j.name("ebs").value(s.ebs());
    j.name("mix").value(s.mix().id());
    j.name("items").value(s.items());
    j.name("customersPerEb").value(s.customersPerEb());
    j.name("warmUpMillis").value(millis(s.warmUp()));
    j.name("measureMillis").value(millis(s.measure()));
    j.name("thinkTimeMeanMillis").value(millis(s.thinkTimeMean()));
    j.name("endUserRoundTripMillis").value(millis(s.endUserRoundTrip()));
    j.name("seed").value(s.seed());
    j.name("index").value(s.index().id());
    j.name("clientPlacement").value(s.clientPlacement().id());
    j.endObject();
  }

  private static void load(Json j, LoadSummary load) {
    if (load == null) {
      j.nullValue();
      return;
    }
    j.beginObject();
    j.name("rowsPerTable").beginObject();
    for (Map.Entry<String, Long> e : load.rowsPerTable().entrySet()) {
      j.name(e.getKey()).value(e.getValue());
    }
    j.endObject();
    j.name("totalRows").value(load.totalRows());
    j.name("elapsedMillis").value(millis(load.elapsed()));
    j.name("itemTableMillis").value(millis(load.itemsElapsed()));
    j.name("requests").value(load.requests());
    j.name("milliDollars2008").value(load.milliDollars2008());
    j.name("milliDollars2026").value(load.milliDollars2026());
    j.name("pagesWritten").value(load.pagesWritten());
    j.name("itemTableRequests").value(load.itemRequests());
    j.name("itemTableMilliDollars2008").value(load.itemMilliDollars2008());
    j.name("itemTableMilliDollars2026").value(load.itemMilliDollars2026());
    j.endObject();
  }

  /** The WIPS rules checked on a run ({@link WipsRules}): met or not, each with its finding. */
  private static void wipsRules(Json j, WipsRules.Verdict verdict) {
    j.name("wipsRules").beginObject();
    j.name("met").value(verdict.met());
    j.name("checks").beginArray();
    for (WipsRules.Check c : verdict.checks()) {
      j.beginObject();
      j.name("name").value(c.name());
      j.name("met").value(c.met());
      j.name("detail").value(c.detail());
      j.endObject();
    }
    j.endArray();
    j.endObject();
  }

  /**
   * The measurement interval's windows, in order; their costs are the requests' alone (the
   * machines' rent is the same every second).
   */
  private static void windows(Json j, List<WindowStats> windows) {
    j.name("windows").beginArray();
    for (WindowStats w : windows) {
      j.beginObject();
      j.name("seconds").value(w.seconds());
      j.name("completed").value(w.completed());
      j.name("errors").value(w.errors());
      j.name("interactionsPerSecond").value(w.interactionsPerSecond());
      j.name("meanMillis").value(w.meanMillis());
      j.name("updates").value(w.updates());
      j.name("updateMeanMillis").value(w.updateMeanMillis());
      j.name("requestMilliDollarsPerWi2008").value(w.milliDollars2008());
      j.name("requestMilliDollarsPerWi2026").value(w.milliDollars2026());
      j.endObject();
    }
    j.endArray();
  }

  /** Where the interval's CPU went, in microseconds per interaction. */
  private static void cpu(Json j, CpuProfile c) {
    j.name("cpuMicrosPerWi").beginObject();
    j.name("libraryForeground").value(c.libraryForeground());
    j.name("libraryBackground").value(c.libraryBackground());
    j.name("harness").value(c.harness());
    j.name("simulatedCloud").value(c.cloud());
    j.name("otherThreads").value(c.other());
    j.name("process").value(c.process());
    j.name("garbageCollection").value(c.garbageCollection());
    j.name("compilation").value(c.compilation());
    j.name("sampling").value(c.sampling());
    j.name("samples").value(c.samples());
    j.endObject();
  }

  /**
   * One row's statistics; {@code milliDollars2008/2026} are its cost per WI with {@code machines}
   * (paper 000's), {@code requestMilliDollars2008/2026} the requests alone.
   */
  private static void stats(Json j, ResponseStats s, Interaction wi, ServerCost machines) {
    CostPerWi cost = CostPerWi.of(s, machines);
    j.beginObject();
    j.name("label").value(s.label());
    if (wi != null) {
      j.name("update").value(wi.isUpdate());
    }
    j.name("count").value(s.count());
    j.name("errors").value(s.errors());
    j.name("meanMillis").value(s.meanMillis());
    j.name("p50Millis").value(s.p50Millis());
    j.name("p90Millis").value(s.p90Millis());
    j.name("p99Millis").value(s.p99Millis());
    j.name("requestsPerInteraction").value(s.requestsPerInteraction());
    j.name("milliDollars2008").value(cost.total2008());
    j.name("milliDollars2026").value(cost.total2026());
    j.name("requestMilliDollars2008").value(cost.requests2008());
    j.name("requestMilliDollars2026").value(cost.requests2026());
    j.name("meanStalenessMillis").value(s.meanStalenessMillis());
    j.name("maxStalenessMillis").value(s.maxStalenessMillis());
    j.name("wrote").value(s.wrote());
    j.name("recordsReadPerInteraction").value(s.recordsReadPerInteraction());
    j.name("recordsWrittenPerInteraction").value(s.recordsWrittenPerInteraction());
    j.name("retriesPerInteraction").value(s.retriesPerInteraction());
    j.name("recordsWritten").value(s.recordsWritten());
    j.name("milliDollarsPerRecordWritten2008").value(s.milliDollarsPerRecordWritten2008());
    j.name("milliDollarsPerRecordWritten2026").value(s.milliDollarsPerRecordWritten2026());
    j.name("millisPerRecordWritten").value(s.millisPerRecordWritten());
    j.endObject();
  }

  private static double millis(Duration d) {
    return d == null ? Double.NaN : d.toNanos() / 1e6;
  }

  /**
   * A minimal pretty-printing JSON writer. It knows whether a comma is due from a stack of
   * "container has members" flags and rejects misuse (a value where a name is due, unbalanced
   * ends) with IllegalStateException, so a coding slip fails the tests instead of writing broken
   * JSON.
   */
  static final class Json {
    private enum Kind {
      OBJECT,
      ARRAY
    }

    private static final class Level {
      final Kind kind;
      boolean hasMembers;
      boolean nameWritten;

      Level(Kind kind) {
        this.kind = kind;
      }
    }

    private final StringBuilder out = new StringBuilder();
    private final Deque<Level> stack = new ArrayDeque<>();
    private boolean rootWritten;

    Json beginObject() {
      beforeValue();
      out.append('{');
      stack.push(new Level(Kind.OBJECT));
      return this;
    }

    Json endObject() {
      return end(Kind.OBJECT, '}');
    }

    Json beginArray() {
      beforeValue();
      out.append('[');
      stack.push(new Level(Kind.ARRAY));
      return this;
    }

    Json endArray() {
      return end(Kind.ARRAY, ']');
    }

    /** The next member's name; only inside an object, and not twice in a row. */
    Json name(String name) {
      Level top = stack.peek();
      if (top == null || top.kind != Kind.OBJECT || top.nameWritten) {
        throw new IllegalStateException("a name is not expected here: " + name);
      }
      if (top.hasMembers) {
        out.append(',');
      }
      newline(stack.size());
      string(name);
      out.append(": ");
      top.nameWritten = true;
      top.hasMembers = true;
      return this;
    }

    Json value(String s) {
      if (s == null) {
        return nullValue();
      }
      beforeValue();
      string(s);
      return this;
    }

    Json value(boolean b) {
      beforeValue();
      out.append(b);
      return this;
    }

    Json value(long n) {
      beforeValue();
      out.append(n);
      return this;
    }

    /** A number; NaN and infinities, which JSON cannot express, become null. */
    Json value(double d) {
      String plain = Numbers.plain(d);
      if (plain == null) {
        return nullValue();
      }
      beforeValue();
      out.append(plain);
      return this;
    }

    Json nullValue() {
      beforeValue();
      out.append("null");
      return this;
    }

    @Override
    public String toString() {
      if (!stack.isEmpty()) {
        throw new IllegalStateException("unclosed " + stack.peek().kind);
      }
      return out.toString();
    }

    private void beforeValue() {
      Level top = stack.peek();
      if (top == null) {
        if (rootWritten) {
          throw new IllegalStateException("a document has one root value");
        }
        rootWritten = true;
        return;
      }
      if (top.kind == Kind.OBJECT) {
        if (!top.nameWritten) {
          throw new IllegalStateException("a value inside an object needs a name first");
        }
        top.nameWritten = false;
        return;
      }
      if (top.hasMembers) {
        out.append(',');
      }
      top.hasMembers = true;
      newline(stack.size());
    }

    private Json end(Kind kind, char close) {
      Level top = stack.peek();
      if (top == null || top.kind != kind || top.nameWritten) {
        throw new IllegalStateException("cannot close " + kind + " here");
      }
      stack.pop();
      if (top.hasMembers) {
        newline(stack.size());
      }
      out.append(close);
      return this;
    }

    private void newline(int depth) {
      out.append('\n');
      out.append("  ".repeat(depth));
    }

    /** Writes {@code s} as a JSON string literal (RFC 8259 section 7). */
    private void string(String s) {
      out.append('"');
      for (int i = 0; i < s.length(); i++) {
        char ch = s.charAt(i);
        switch (ch) {
          case '"' -> out.append("\\\"");
          case '\\' -> out.append("\\\\");
          case '\n' -> out.append("\\n");
          case '\r' -> out.append("\\r");
          case '\t' -> out.append("\\t");
          case '\b' -> out.append("\\b");
          case '\f' -> out.append("\\f");
          default -> {
            if (ch < 0x20 || ch == '\u2028' || ch == '\u2029') {
              out.append(String.format(Locale.ROOT, "\\u%04x", (int) ch));
            } else {
              out.append(ch);
            }
          }
        }
      }
      out.append('"');
    }
  }
}
