package io.stratus.junit;

import io.stratus.cloudapi.time.ManualClock;
import io.stratus.core.Database;
import java.lang.reflect.AnnotatedElement;
import java.util.Optional;
import java.util.concurrent.ThreadLocalRandom;
import org.junit.jupiter.api.extension.AfterEachCallback;
import org.junit.jupiter.api.extension.ExtensionConfigurationException;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.LifecycleMethodExecutionExceptionHandler;
import org.junit.jupiter.api.extension.ParameterContext;
import org.junit.jupiter.api.extension.ParameterResolutionException;
import org.junit.jupiter.api.extension.ParameterResolver;
import org.junit.jupiter.api.extension.TestExecutionExceptionHandler;
import org.junit.platform.commons.support.AnnotationSupport;

/**
 * The extension behind {@link StratusTest}: resolves {@link Database}, {@link ManualClock} and
 * {@link StratusTestContext} parameters with the current test's instances, closes the test's
 * handles after its {@code @AfterEach} methods, and attaches the seed to a failure.
 *
 * <p>The test's context is made when a parameter first asks for it and kept in the test's own
 * {@link ExtensionContext.Store}, so each test (and each repetition or invocation) has its own and
 * parallel tests share nothing. A failure of the test, or of its {@code @BeforeEach} or
 * {@code @AfterEach} methods, gets a suppressed {@link StratusTestSeed} naming the seed and how to
 * replay it, which the build's report prints with the failure; it is also written to standard
 * error.
 */
public final class StratusExtension
    implements ParameterResolver,
        AfterEachCallback,
        TestExecutionExceptionHandler,
        LifecycleMethodExecutionExceptionHandler {
  private static final ExtensionContext.Namespace NAMESPACE =
      ExtensionContext.Namespace.create(StratusExtension.class);
  private static final String KEY = "context";

  /** Made by JUnit. */
  public StratusExtension() {}

  @Override
  public boolean supportsParameter(ParameterContext parameter, ExtensionContext context) {
    Class<?> type = parameter.getParameter().getType();
    return type == Database.class || type == ManualClock.class || type == StratusTestContext.class;
  }

  @Override
  public Object resolveParameter(ParameterContext parameter, ExtensionContext context) {
    if (context.getTestMethod().isEmpty()) {
      throw new ParameterResolutionException(
          "@StratusTest gives each test its own database: declare "
              + parameter.getParameter().getType().getSimpleName()
              + " as a parameter of a test, @BeforeEach or @AfterEach method, not of "
              + parameter.getDeclaringExecutable());
    }
    StratusTestContext test = contextOf(context);
    Class<?> type = parameter.getParameter().getType();
    if (type == Database.class) {
      return test.database();
    }
    if (type == ManualClock.class) {
      return test.clock();
    }
    return test;
  }

  @Override
  public void afterEach(ExtensionContext context) {
    StratusTestContext test = context.getStore(NAMESPACE).remove(KEY, StratusTestContext.class);
    if (test == null) {
      return;
    }
    try {
      test.close();
    } catch (RuntimeException e) {
      throw withSeed(e, test);
    }
  }

  @Override
  public void handleTestExecutionException(ExtensionContext context, Throwable failure)
      throws Throwable {
    throw withSeed(context, failure);
  }

  @Override
  public void handleBeforeEachMethodExecutionException(ExtensionContext context, Throwable failure)
      throws Throwable {
    throw withSeed(context, failure);
  }

  @Override
  public void handleAfterEachMethodExecutionException(ExtensionContext context, Throwable failure)
      throws Throwable {
    throw withSeed(context, failure);
  }

  private static Throwable withSeed(ExtensionContext context, Throwable failure) {
    StratusTestContext test = context.getStore(NAMESPACE).get(KEY, StratusTestContext.class);
    return test == null ? failure : withSeed(failure, test);
  }

  private static <T extends Throwable> T withSeed(T failure, StratusTestContext test) {
    for (Throwable s : failure.getSuppressed()) {
      if (s instanceof StratusTestSeed) {
        return failure; // a @BeforeEach failure passes here, then again as the test's
      }
    }
    StratusTestSeed seed = new StratusTestSeed(test.seed());
    System.err.println(seed.getMessage());
    failure.addSuppressed(seed);
    return failure;
  }

  private static StratusTestContext contextOf(ExtensionContext context) {
    return context
        .getStore(NAMESPACE)
        .getOrComputeIfAbsent(
            KEY,
            k -> {
              StratusTest settings = settingsOf(context);
              return new StratusTestContext(settings, seedOf(settings, context));
            },
            StratusTestContext.class);
  }

  /** The annotation of the test method, else of its class or an enclosing class. */
  private static StratusTest settingsOf(ExtensionContext context) {
    Optional<StratusTest> found =
        AnnotationSupport.findAnnotation(context.getTestMethod(), StratusTest.class);
    for (Optional<Class<?>> c = context.getTestClass();
        found.isEmpty() && c.isPresent();
        c = Optional.ofNullable(c.get().getEnclosingClass())) {
      found = AnnotationSupport.findAnnotation(c.<AnnotatedElement>map(x -> x), StratusTest.class);
    }
    return found.orElseThrow(
        () ->
            new ExtensionConfigurationException(
                "StratusExtension needs @StratusTest on the test method or its class"));
  }

  private static long seedOf(StratusTest settings, ExtensionContext context) {
    if (settings.seed() != StratusTest.RANDOM_SEED) {
      return settings.seed();
    }
    Optional<String> given = context.getConfigurationParameter(StratusTest.SEED_PARAMETER);
    if (given.isPresent()) {
      try {
        return Long.parseLong(given.get().trim());
      } catch (NumberFormatException e) {
        throw new ExtensionConfigurationException(
            StratusTest.SEED_PARAMETER
                + " must be a whole number (the seed a failed test reported), got '"
                + given.get()
                + "'",
            e);
      }
    }
    long seed;
    do {
      seed = ThreadLocalRandom.current().nextLong();
    } while (seed == StratusTest.RANDOM_SEED);
    return seed;
  }
}
