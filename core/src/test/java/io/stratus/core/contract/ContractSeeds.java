package io.stratus.core.contract;

import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.stream.Stream;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.TestExecutionExceptionHandler;

/**
 * The seeds every contract test runs with, and the failure report that names the seed.
 *
 * <ul>
 *   <li>default (CI): the fixed {@link #CI_SEEDS}, so a run is fast and repeatable;
 *   <li>{@code -Dstratus.contract.seeds=N}: N seeds drawn from a base seed, printed once (set
 *       {@code -Dstratus.contract.seedBase=B} to repeat a whole batch);
 *   <li>{@code -Dstratus.contract.seed=S}: only seed S (replays one failure).
 * </ul>
 */
public final class ContractSeeds implements TestExecutionExceptionHandler {
  static final String SEED = "stratus.contract.seed";
  static final String SEEDS = "stratus.contract.seeds";
  static final String SEED_BASE = "stratus.contract.seedBase";

  /** Fixed: a CI failure is a regression, not a new seed's luck. */
  static final List<Long> CI_SEEDS = List.of(1L, 20080609L);

  /** The seeds of this run (the factory of every contract test's parameters). */
  public static Stream<Long> seeds() {
    String one = System.getProperty(SEED);
    if (one != null && !one.isBlank()) {
      return Stream.of(Long.parseLong(one.trim()));
    }
    String many = System.getProperty(SEEDS);
    if (many == null || many.isBlank()) {
      return CI_SEEDS.stream();
    }
    String base = System.getProperty(SEED_BASE);
    long b = base == null || base.isBlank() ? System.nanoTime() : Long.parseLong(base.trim());
    SplittableRandom random = new SplittableRandom(b);
    List<Long> out = new ArrayList<>();
    for (int i = Integer.parseInt(many.trim()); i > 0; i--) {
      out.add(random.nextLong());
    }
    System.out.println("[contract] " + out.size() + " seeds from -D" + SEED_BASE + "=" + b);
    return out.stream();
  }

  /** Names the protocol and seed of a failing test and how to replay it. */
  @Override
  public void handleTestExecutionException(ExtensionContext context, Throwable t) throws Throwable {
    Object instance = context.getTestInstance().orElse(null);
    if (!(instance instanceof ProtocolContract suite) || suite.seed == null) {
      throw t;
    }
    throw new AssertionError(
        suite.kind()
            + " "
            + context.getDisplayName()
            + " failed with seed "
            + suite.seed
            + " (replay: -D"
            + SEED
            + "="
            + suite.seed
            + "): "
            + t,
        t);
  }
}
