package io.stratus.bench.tpcw.report;

import io.stratus.bench.tpcw.harness.RunResult;
import io.stratus.bench.tpcw.harness.RunWarnings;
import io.stratus.bench.tpcw.harness.Sweep;
import io.stratus.bench.tpcw.rbe.MixCompliance;
import io.stratus.bench.tpcw.workload.Interaction;
import io.stratus.protocols.ProtocolOption;
import java.util.ArrayList;
import java.util.List;

/**
 * What a reader of report.md must know before trusting its numbers, one line each: the warnings
 * the console printed before the runs ({@link RunWarnings}, word for word), then, per run, what
 * went wrong while it ran: failed interactions, a drain that left work owed (its cost per WI then
 * misses that work), a mix off its target, and lost updates under a protocol that isolates
 * transactions. Failed background checkpoints are not among them: their records stay queued for a
 * later checkpoint or the drain, so nothing is lost or left unpaid (the tables count them).
 */
final class Warnings {
  private Warnings() {}

  /** The warnings of {@code view}, in run order; empty when there is nothing to say. */
  static List<String> of(SweepView view) {
    List<Sweep.Planned> planned = new ArrayList<>();
    for (RunResult run : view.runs()) {
      planned.add(new Sweep.Planned(run.label() == null ? "" : run.label(), run.settings()));
    }
    List<String> lines = new ArrayList<>(RunWarnings.forPlan(view.parameter(), planned));
    for (int i = 0; i < view.size(); i++) {
      for (String w : ofRun(view.run(i))) {
        lines.add("warning: " + view.name(i) + ": " + w);
      }
    }
    return lines;
  }

  private static List<String> ofRun(RunResult run) {
    List<String> found = new ArrayList<>();
    long errors = SweepView.total(run).errors();
    if (errors > 0) {
      found.add(errors + " interactions failed (see its error samples)");
    }
    if (run.drain() != null && !run.drain().quiescent()) {
      found.add(
          "the drain left work owed, so its cost per WI misses the background work that was still"
              + " pending");
    }
    List<Interaction> off = MixCompliance.flagged(run.mixCompliance(), MixCompliance.Verdict.OFF);
    if (!off.isEmpty()) {
      found.add(
          "the mix is off its target for "
              + String.join(", ", off.stream().map(Interaction::label).toList()));
    }
    long lost = run.lostItemUpdates() + run.lostCustomerUpdates();
    if (lost > 0 && run.settings().protocol().accepts(ProtocolOption.ISOLATION)) {
      found.add(lost + " lost updates under a protocol that isolates transactions");
    }
    return found;
  }
}
