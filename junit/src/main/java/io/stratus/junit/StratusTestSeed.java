package io.stratus.junit;

/**
 * The seed of a failed {@link StratusTest}, attached to the failure as a suppressed exception so
 * that the build's report shows it beside the failure. Not an error of its own: it carries no
 * stack trace and is never thrown.
 */
public final class StratusTestSeed extends RuntimeException {
  private static final long serialVersionUID = 1L;

  private final long seed;

  StratusTestSeed(long seed) {
    super(
        "Stratus test seed "
            + seed
            + ": replay with @StratusTest(seed = "
            + seed
            + "L) or -D"
            + StratusTest.SEED_PARAMETER
            + "="
            + seed,
        null,
        false,
        false);
    this.seed = seed;
  }

  /** The seed the failed test ran with. */
  public long seed() {
    return seed;
  }
}
