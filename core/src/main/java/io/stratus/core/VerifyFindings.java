package io.stratus.core;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.EnumMap;
import java.util.List;

/**
 * The findings of one verification as they are made: listed up to a number per kind, all
 * counted. Used by one scanning thread; not thread-safe.
 */
final class VerifyFindings {
  private final int maxPerKind;
  private final List<Finding> listed = new ArrayList<>();
  private final EnumMap<Finding.Kind, Long> counts = new EnumMap<>(Finding.Kind.class);
  private long suppressed;

  VerifyFindings(int maxPerKind) {
    this.maxPerKind = maxPerKind;
  }

  void add(Finding.Severity severity, Finding.Kind kind, String uri, String message) {
    long n = counts.merge(kind, 1L, Long::sum);
    if (n <= maxPerKind) {
      listed.add(new Finding(severity, kind, uri, message));
    } else {
      suppressed++;
    }
  }

  void error(Finding.Kind kind, String uri, String message) {
    add(Finding.Severity.ERROR, kind, uri, message);
  }

  void warning(Finding.Kind kind, String uri, String message) {
    add(Finding.Severity.WARNING, kind, uri, message);
  }

  void info(Finding.Kind kind, String uri, String message) {
    add(Finding.Severity.INFO, kind, uri, message);
  }

  /** The listed findings, most severe first (stable: in the order found within a severity). */
  List<Finding> sorted() {
    List<Finding> out = new ArrayList<>(listed);
    out.sort(Comparator.comparing(Finding::severity).reversed());
    return out;
  }

  EnumMap<Finding.Kind, Long> counts() {
    return counts;
  }

  long suppressed() {
    return suppressed;
  }
}
