package io.stratus.cloudapi.decorate;

import io.stratus.cloudapi.Operation;
import java.time.Duration;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Objects;
import java.util.Set;

/**
 * Which faults a {@link FaultInterceptor} injects: probabilistic rules ("1% of storage puts under
 * {@code pages/} fail") and deterministic ones ("the 3rd increment of counters under {@code tx/}
 * loses its reply").
 *
 * <p>Evaluation, per call: deterministic rules first (each counts the calls it matches; on the N-th
 * it fires once); if none fires, each probabilistic rule in the order given draws one number from
 * the call's own random stream (see {@link FaultInterceptor}) and the first rule that matches and
 * draws below its probability fires. A call suffers at most one fault.
 *
 * <p>Immutable and thread-safe; the same plan may drive several interceptors. Build with {@link
 * #builder()}, which validates each setting as it is given.
 */
public final class FaultPlan {
  private static final FaultPlan NONE = builder().build();

  private final List<Rule> rules;
  private final List<NthRule> nthRules;

  private FaultPlan(Builder b) {
    this.rules = List.copyOf(b.rules);
    this.nthRules = List.copyOf(b.nthRules);
  }

  public static Builder builder() {
    return new Builder();
  }

  /** A plan that injects nothing. */
  public static FaultPlan none() {
    return NONE;
  }

  List<Rule> rules() {
    return rules;
  }

  List<NthRule> nthRules() {
    return nthRules;
  }

  @Override
  public String toString() {
    return "FaultPlan{rules=" + rules + ", nth=" + nthRules + '}';
  }

  /**
   * One fault to inject.
   *
   * @param delay the extra delay of a {@link FaultKind#DELAY}, zero for the other kinds
   */
  public record Fault(FaultKind kind, Duration delay) {
    public Fault {
      Objects.requireNonNull(kind, "kind");
      Objects.requireNonNull(delay, "delay");
      if (kind == FaultKind.DELAY && (delay.isNegative() || delay.isZero())) {
        throw new IllegalArgumentException("a delay fault needs a positive delay, got " + delay);
      }
      if (kind != FaultKind.DELAY && !delay.isZero()) {
        throw new IllegalArgumentException("only a delay fault has a delay");
      }
    }

    /** The call is not made; it fails with a {@link io.stratus.cloudapi.RetryableException}. */
    public static Fault fail() {
      return new Fault(FaultKind.FAIL_RETRYABLE, Duration.ZERO);
    }

    /** The call is not made; it fails with a service-unavailable error. */
    public static Fault unavailable() {
      return new Fault(FaultKind.FAIL_UNAVAILABLE, Duration.ZERO);
    }

    /** The call is made {@code extra} later. */
    public static Fault delay(Duration extra) {
      return new Fault(FaultKind.DELAY, extra);
    }

    /** The call is made and takes effect, then fails with an outcome-unknown error. */
    public static Fault loseReply() {
      return new Fault(FaultKind.LOSE_REPLY, Duration.ZERO);
    }
  }

  /** Which calls a rule applies to: a set of operations and an optional target prefix. */
  public static final class Selector {
    private final Set<Operation> operations;
    private final String targetPrefix;

    private Selector(Set<Operation> operations, String targetPrefix) {
      this.operations = operations;
      this.targetPrefix = targetPrefix;
    }

    /** Every call. */
    public static Selector all() {
      return new Selector(EnumSet.allOf(Operation.class), "");
    }

    /** Calls of the given operations. */
    public static Selector operations(Operation... operations) {
      if (operations.length == 0) {
        throw new IllegalArgumentException("a selector needs at least one operation");
      }
      EnumSet<Operation> set = EnumSet.noneOf(Operation.class);
      for (Operation op : operations) {
        set.add(Objects.requireNonNull(op, "operation"));
      }
      return new Selector(set, "");
    }

    /** Calls of every operation of the given services. */
    public static Selector services(Operation.Service... services) {
      if (services.length == 0) {
        throw new IllegalArgumentException("a selector needs at least one service");
      }
      EnumSet<Operation> set = EnumSet.noneOf(Operation.class);
      for (Operation.Service s : services) {
        Objects.requireNonNull(s, "service");
        for (Operation op : Operation.values()) {
          if (op.service() == s) {
            set.add(op);
          }
        }
      }
      return new Selector(set, "");
    }

    /** This selector, restricted to calls whose target starts with {@code prefix}. */
    public Selector withTargetPrefix(String prefix) {
      return new Selector(operations, Objects.requireNonNull(prefix, "prefix"));
    }

    boolean matches(Operation op, String target) {
      return operations.contains(op) && target.startsWith(targetPrefix);
    }

    @Override
    public String toString() {
      return operations + (targetPrefix.isEmpty() ? "" : " under \"" + targetPrefix + '"');
    }
  }

  record Rule(Selector where, double probability, Fault fault) {}

  record NthRule(Operation operation, String targetPrefix, long n, Fault fault) {
    boolean matches(Operation op, String target) {
      return op == operation && target.startsWith(targetPrefix);
    }
  }

  /** Collects rules, validating each as it is given. */
  public static final class Builder {
    private final List<Rule> rules = new ArrayList<>();
    private final List<NthRule> nthRules = new ArrayList<>();

    private Builder() {}

    /** Calls selected by {@code where} fail with probability {@code p}, without being made. */
    public Builder fail(Selector where, double p) {
      return rule(where, p, Fault.fail());
    }

    /** As {@link #fail}, with a service-unavailable error. */
    public Builder unavailable(Selector where, double p) {
      return rule(where, p, Fault.unavailable());
    }

    /** Calls selected by {@code where} are made {@code extra} later, with probability {@code p}. */
    public Builder delay(Selector where, double p, Duration extra) {
      return rule(where, p, Fault.delay(extra));
    }

    /**
     * Calls selected by {@code where} take effect but lose their reply, with probability {@code p}.
     */
    public Builder loseReply(Selector where, double p) {
      return rule(where, p, Fault.loseReply());
    }

    /** Calls selected by {@code where} suffer {@code fault} with probability {@code p} (0 to 1). */
    public Builder rule(Selector where, double p, Fault fault) {
      Objects.requireNonNull(where, "where");
      Objects.requireNonNull(fault, "fault");
      if (!(p >= 0 && p <= 1)) {
        throw new IllegalArgumentException("a probability must be in [0, 1], got " + p);
      }
      rules.add(new Rule(where, p, fault));
      return this;
    }

    /**
     * The {@code n}-th call (1-based) of {@code operation} on a target starting with {@code
     * targetPrefix} suffers {@code fault}; once. Calls are counted across all matching targets in
     * the order they reach the interceptor, so the choice is interleaving-independent only when one
     * thread makes the matching calls (or the prefix names one target).
     */
    public Builder onNthCall(Operation operation, String targetPrefix, long n, Fault fault) {
      Objects.requireNonNull(operation, "operation");
      Objects.requireNonNull(targetPrefix, "targetPrefix");
      Objects.requireNonNull(fault, "fault");
      if (n < 1) {
        throw new IllegalArgumentException("n counts from 1, got " + n);
      }
      nthRules.add(new NthRule(operation, targetPrefix, n, fault));
      return this;
    }

    public FaultPlan build() {
      return new FaultPlan(this);
    }
  }
}
