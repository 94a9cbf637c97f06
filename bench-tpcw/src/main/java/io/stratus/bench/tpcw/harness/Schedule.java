package io.stratus.bench.tpcw.harness;

import io.stratus.protocols.ProtocolKind;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * The order a plan's runs execute in, so that no protocol is favoured by its place in it.
 *
 * <p>A run that comes later in a JVM finds more of the code compiled and the heap grown, and in
 * short runs that alone changed the ratio between two protocols several-fold. So, first, a warm
 * pass runs every protocol of the plan once, unmeasured ({@link #warmPass()}): every measured run
 * then starts from the same compiled code. Second, the measured runs alternate: the runs compared
 * with each other (all of them without a sweep, those of one swept value with one) form a block;
 * blocks run in plan order, each forward or backward, the direction flipping from block to block
 * and from one repeat to the next. With two repeats every run has the same mean place in its
 * block; with one, the warm pass is what keeps the order from mattering.
 *
 * @param warmPass the first planned settings of each protocol of the plan, in plan order
 * @param measured the measured runs in the order they execute
 */
public record Schedule(List<Sweep.Planned> warmPass, List<Slot> measured) {
  /**
   * One measured run.
   *
   * @param run its index in the plan
   * @param repeat which repetition of it this is, from 1
   */
  public record Slot(int run, int repeat) {}

  /** Checks and copies the lists. */
  public Schedule {
    warmPass = List.copyOf(warmPass);
    measured = List.copyOf(measured);
  }

  /**
   * The schedule of {@code runs} (in plan order: for each swept value, each protocol) repeated
   * {@code repeats} times.
   *
   * @param sweptParameter the plan's swept parameter, "protocol" when only the protocol varies
   */
  public static Schedule of(String sweptParameter, List<Sweep.Planned> runs, int repeats) {
    Objects.requireNonNull(runs, "runs");
    if (repeats < 1) {
      throw new IllegalArgumentException("repeats must be positive, not " + repeats);
    }
    Map<ProtocolKind, Sweep.Planned> first = new LinkedHashMap<>();
    for (Sweep.Planned p : runs) {
      first.putIfAbsent(p.settings().protocol(), p);
    }
    List<List<Integer>> blocks = blocks(sweptParameter, runs);
    List<Slot> measured = new ArrayList<>();
    for (int r = 0; r < repeats; r++) {
      for (int b = 0; b < blocks.size(); b++) {
        List<Integer> block = new ArrayList<>(blocks.get(b));
        if ((r + b) % 2 == 1) {
          java.util.Collections.reverse(block);
        }
        for (int run : block) {
          measured.add(new Slot(run, r + 1));
        }
      }
    }
    return new Schedule(List.copyOf(first.values()), measured);
  }

  /**
   * The runs compared with each other: all of them when only the protocol varies, else each run
   * of consecutive runs with one swept value.
   */
  private static List<List<Integer>> blocks(String sweptParameter, List<Sweep.Planned> runs) {
    List<List<Integer>> blocks = new ArrayList<>();
    boolean protocolsOnly = "protocol".equals(sweptParameter);
    for (int i = 0; i < runs.size(); i++) {
      boolean sameBlock =
          !blocks.isEmpty()
              && (protocolsOnly || runs.get(i).label().equals(runs.get(i - 1).label()));
      if (!sameBlock) {
        blocks.add(new ArrayList<>());
      }
      blocks.get(blocks.size() - 1).add(i);
    }
    return blocks;
  }
}
