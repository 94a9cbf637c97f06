package io.stratus.cloudapi.testing;

import java.util.concurrent.ThreadLocalRandom;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.ParameterContext;
import org.junit.jupiter.api.extension.ParameterResolver;
import org.junit.jupiter.api.extension.TestExecutionExceptionHandler;

/**
 * Gives each test one random seed and names it when the test fails, so that every failure can be
 * replayed: run again with {@code -Dstratus.seed=<seed>} to get the same seed.
 *
 * <p>Use: {@code @ExtendWith(SeedExtension.class)} and a {@code @Seed long seed} parameter on the
 * test or {@code @BeforeEach} method. All parameters of one test get the same seed.
 */
public final class SeedExtension implements ParameterResolver, TestExecutionExceptionHandler {
  /** The system property that fixes the seed of every test. */
  public static final String SEED_PROPERTY = "stratus.seed";

  private static final ExtensionContext.Namespace NS =
      ExtensionContext.Namespace.create(SeedExtension.class);

  @Override
  public boolean supportsParameter(ParameterContext p, ExtensionContext e) {
    return p.isAnnotated(Seed.class)
        && (p.getParameter().getType() == long.class || p.getParameter().getType() == Long.class);
  }

  @Override
  public Object resolveParameter(ParameterContext p, ExtensionContext e) {
    return seedOf(e);
  }

  @Override
  public void handleTestExecutionException(ExtensionContext e, Throwable t) throws Throwable {
    Long seed = e.getStore(NS).get(key(e), Long.class);
    if (seed == null) {
      throw t;
    }
    AssertionError named =
        new AssertionError(
            "test failed with seed "
                + seed
                + " (replay with -D"
                + SEED_PROPERTY
                + "="
                + seed
                + "): "
                + t,
            t);
    throw named;
  }

  /** The seed of the current test, chosen on first use. */
  public static long seedOf(ExtensionContext e) {
    return e.getStore(NS).getOrComputeIfAbsent(key(e), k -> chooseSeed(), Long.class);
  }

  private static String key(ExtensionContext e) {
    return e.getUniqueId().replaceAll("/\\[test-template-invocation.*$", "");
  }

  private static long chooseSeed() {
    String fixed = System.getProperty(SEED_PROPERTY);
    if (fixed != null && !fixed.isBlank()) {
      return Long.parseLong(fixed.trim());
    }
    return ThreadLocalRandom.current().nextLong();
  }
}
