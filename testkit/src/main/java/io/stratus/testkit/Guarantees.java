package io.stratus.testkit;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * A profile: the checkers that state what one protocol promises, and the write order to judge
 * them under. Immutable; {@link #with} and {@link #under} return new profiles.
 *
 * <p>The papers' protocols form a ladder, each promising what the one below does and more:
 * naive (values are someone's writes, nothing else: it loses updates), basic (+ durability and
 * convergence), monotonic (+ the four session guarantees), atomic (+ all-or-nothing).
 */
public final class Guarantees {
  private final String name;
  private final List<Checker> checkers;
  private final WriteOrder writeOrder;

  private Guarantees(String name, List<Checker> checkers, WriteOrder writeOrder) {
    this.name = name;
    this.checkers = List.copyOf(checkers);
    this.writeOrder = Objects.requireNonNull(writeOrder, "writeOrder");
  }

  /**
   * The profile of the protocol named {@code protocol}: "naive", "basic", "monotonic" or
   * "atomic", with writes ordered by completion.
   */
  public static Guarantees forProtocol(String protocol) {
    List<Checker> c = new ArrayList<>();
    c.add(Checkers.valuesWereWritten());
    switch (protocol) {
      case "naive":
        break;
      case "atomic":
        addMonotonic(c);
        c.add(Checkers.atomicity());
        break;
      case "monotonic":
        addMonotonic(c);
        break;
      case "basic":
        addBasic(c);
        break;
      default:
        throw new IllegalArgumentException(
            "unknown protocol " + protocol + " (naive, basic, monotonic, atomic)");
    }
    return new Guarantees(protocol, c, WriteOrder.byCompletion());
  }

  private static void addMonotonic(List<Checker> c) {
    addBasic(c);
    c.add(Checkers.monotonicReads());
    c.add(Checkers.readYourWrites());
    c.add(Checkers.monotonicWrites());
    c.add(Checkers.writesFollowReads());
  }

  private static void addBasic(List<Checker> c) {
    c.add(Checkers.committedWritesSurvive());
    c.add(Checkers.convergence());
  }

  /** A custom profile of {@code checkers}, writes ordered by completion. */
  public static Guarantees of(Checker... checkers) {
    return new Guarantees("custom", List.of(checkers), WriteOrder.byCompletion());
  }

  /** This profile plus {@code checker}. */
  public Guarantees with(Checker checker) {
    List<Checker> c = new ArrayList<>(checkers);
    c.add(Objects.requireNonNull(checker, "checker"));
    return new Guarantees(name, c, writeOrder);
  }

  /** This profile judged under {@code order}. */
  public Guarantees under(WriteOrder order) {
    return new Guarantees(name, checkers, order);
  }

  /** The profile's name (the protocol's, or "custom"). */
  public String name() {
    return name;
  }

  /** The checkers, in the order they run. */
  public List<Checker> checkers() {
    return checkers;
  }

  /** The names of the checkers. */
  public List<String> checkerNames() {
    return checkers.stream().map(Checker::name).toList();
  }

  /** The write order the checkers run under. */
  public WriteOrder writeOrder() {
    return writeOrder;
  }

  @Override
  public String toString() {
    return name + checkerNames();
  }
}
