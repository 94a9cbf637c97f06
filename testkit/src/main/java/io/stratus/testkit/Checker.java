package io.stratus.testkit;

import java.util.Objects;
import java.util.function.BiFunction;

/** Verifies one guarantee of a history. The standard ones are in {@link Checkers}. */
public interface Checker {
  /** A short name, used in anomalies and profiles. */
  String name();

  /** Checks {@code history}; the order in which writes took effect comes from {@code order}. */
  CheckResult check(History history, WriteOrder order);

  /** A checker named {@code name} that runs {@code check}. */
  static Checker named(String name, BiFunction<History, WriteOrder, CheckResult> check) {
    Objects.requireNonNull(name, "name");
    Objects.requireNonNull(check, "check");
    return new Checker() {
      @Override
      public String name() {
        return name;
      }

      @Override
      public CheckResult check(History history, WriteOrder order) {
        return check.apply(history, order);
      }

      @Override
      public String toString() {
        return name;
      }
    };
  }
}
