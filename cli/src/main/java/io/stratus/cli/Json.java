package io.stratus.cli;

import io.stratus.cloudapi.QueueBacklog;
import io.stratus.core.Finding;
import io.stratus.core.ResealReport;
import io.stratus.core.VerificationReport;
import java.util.Map;

/**
 * The JSON of {@code verify --json} (one object with the summary, the findings and the queues)
 * and of {@code reseal --json} (the counts per key id, what was rewritten, the problems).
 * Written by hand (the report is flat and small) so the command line needs no JSON library.
 */
final class Json {
  private Json() {}

  static String report(VerificationReport r) {
    StringBuilder b = new StringBuilder("{");
    field(b, "database", r.databaseUri()).append(',');
    field(
            b,
            "status",
            VerifyCommand.exitCode(r) == 2
                ? "errors"
                : VerifyCommand.exitCode(r) == 1 ? "warnings" : "clean")
        .append(',');
    b.append("\"exitCode\":").append(VerifyCommand.exitCode(r)).append(',');
    field(b, "startedAt", r.startedAt().toString()).append(',');
    b.append("\"tookMillis\":").append(r.took().toMillis()).append(',');
    b.append("\"treesChecked\":").append(r.treesChecked()).append(',');
    b.append("\"pagesChecked\":").append(r.pagesChecked()).append(',');
    b.append("\"entriesChecked\":").append(r.recordsChecked()).append(',');
    b.append("\"suppressed\":").append(r.suppressed()).append(',');
    b.append("\"findings\":[");
    String sep = "";
    for (Finding f : r.findings()) {
      b.append(sep).append('{');
      field(b, "severity", f.severity().name()).append(',');
      field(b, "kind", f.kind().name()).append(',');
      field(b, "uri", f.uri()).append(',');
      field(b, "message", f.message()).append('}');
      sep = ",";
    }
    b.append("],\"queues\":[");
    sep = "";
    for (QueueBacklog q : r.queues()) {
      b.append(sep).append('{');
      field(b, "uri", q.uri()).append(',');
      b.append("\"visible\":").append(q.visible()).append(',');
      b.append("\"inFlight\":").append(q.inFlight()).append(',');
      b.append("\"oldestAgeSeconds\":")
          .append(q.oldestAge(r.startedAt()).map(d -> Long.toString(d.toSeconds())).orElse("null"))
          .append(',');
      // null: an advanced queue, which keeps its messages until they are deleted.
      b.append("\"retentionSeconds\":")
          .append(
              q.retention().equals(QueueBacklog.KEPT_UNTIL_DELETED)
                  ? "null"
                  : Long.toString(q.retention().toSeconds()))
          .append('}');
      sep = ",";
    }
    return b.append("]}").toString();
  }

  static String report(ResealReport r) {
    StringBuilder b = new StringBuilder("{");
    field(b, "database", r.databaseUri()).append(',');
    field(b, "status", r.isComplete() ? "complete" : "incomplete").append(',');
    b.append("\"exitCode\":").append(ResealCommand.exitCode(r)).append(',');
    b.append("\"dryRun\":").append(r.dryRun()).append(',');
    field(b, "startedAt", r.startedAt().toString()).append(',');
    b.append("\"tookMillis\":").append(r.took().toMillis()).append(',');
    b.append("\"objects\":").append(r.objects()).append(',');
    counts(b.append("\"foundByKeyId\":"), r.foundByKeyId()).append(',');
    counts(b.append("\"sealedByKeyId\":"), r.sealedByKeyId()).append(',');
    b.append("\"stale\":").append(r.stale()).append(',');
    b.append("\"rewritten\":").append(r.rewritten()).append(',');
    b.append("\"remaining\":").append(r.remaining()).append(',');
    b.append("\"conflicts\":").append(r.conflicts()).append(',');
    b.append("\"vanished\":").append(r.vanished()).append(',');
    b.append("\"unusedKeyIds\":[");
    String sep = "";
    for (String id : r.unusedKeyIds()) {
      string(b.append(sep), id);
      sep = ",";
    }
    b.append("],\"queueRetentionSeconds\":")
        .append(r.queueRetention().map(d -> Long.toString(d.toSeconds())).orElse("null"))
        .append(",\"queueMessagesGoneBy\":");
    if (r.queueMessagesGoneBy().isPresent()) {
      string(b, r.queueMessagesGoneBy().get().toString());
    } else {
      b.append("null");
    }
    b.append(",\"problemCount\":").append(r.problemCount()).append(",\"problems\":[");
    sep = "";
    for (ResealReport.Problem p : r.problems()) {
      b.append(sep).append('{');
      field(b, "uri", p.uri()).append(',');
      field(b, "message", p.message()).append('}');
      sep = ",";
    }
    return b.append("]}").toString();
  }

  private static StringBuilder counts(StringBuilder b, Map<String, Long> byKey) {
    b.append('{');
    String sep = "";
    for (Map.Entry<String, Long> e : byKey.entrySet()) {
      string(b.append(sep), e.getKey()).append(':').append(e.getValue());
      sep = ",";
    }
    return b.append('}');
  }

  private static StringBuilder field(StringBuilder b, String name, String value) {
    return string(string(b, name).append(':'), value);
  }

  /** {@code s} as a JSON string literal. */
  static StringBuilder string(StringBuilder b, String s) {
    b.append('"');
    for (int i = 0; i < s.length(); i++) {
      char c = s.charAt(i);
      switch (c) {
        case '"' -> b.append("\\\"");
        case '\\' -> b.append("\\\\");
        case '\n' -> b.append("\\n");
        case '\r' -> b.append("\\r");
        case '\t' -> b.append("\\t");
        default -> {
          if (c < 0x20) {
            b.append(String.format("\\u%04x", (int) c));
          } else {
            b.append(c);
          }
        }
      }
    }
    return b.append('"');
  }
}
