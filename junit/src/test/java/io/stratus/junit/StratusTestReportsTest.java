package io.stratus.junit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.platform.engine.discovery.DiscoverySelectors.selectClass;

import io.stratus.core.Database;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.platform.engine.TestExecutionResult;
import org.junit.platform.launcher.Launcher;
import org.junit.platform.launcher.LauncherDiscoveryRequest;
import org.junit.platform.launcher.TestExecutionListener;
import org.junit.platform.launcher.TestIdentifier;
import org.junit.platform.launcher.core.LauncherDiscoveryRequestBuilder;
import org.junit.platform.launcher.core.LauncherFactory;

/**
 * What tests under {@link StratusTest} report and share, seen from outside: each case runs a small
 * test class of its own through the JUnit launcher (the classes are nested, so the build does not
 * run them directly) and looks at the results.
 */
class StratusTestReportsTest {

  /** What one run of the launcher reported, per test method name and per class (binary) name. */
  private record Run(Map<String, TestExecutionResult> results, String stderr) {
    Throwable failure(String test) {
      TestExecutionResult r = results.get(test);
      assertThat(r).as(test + " ran, among " + results.keySet()).isNotNull();
      assertThat(r.getStatus()).as(test).isEqualTo(TestExecutionResult.Status.FAILED);
      return r.getThrowable().orElseThrow();
    }

    TestExecutionResult.Status status(String test) {
      return results.get(test).getStatus();
    }
  }

  private static Run run(Class<?> testClass, Map<String, String> parameters) {
    Map<String, TestExecutionResult> results = new ConcurrentHashMap<>();
    LauncherDiscoveryRequest request =
        LauncherDiscoveryRequestBuilder.request()
            .selectors(selectClass(testClass))
            .configurationParameters(parameters)
            .build();
    Launcher launcher = LauncherFactory.create();
    ByteArrayOutputStream err = new ByteArrayOutputStream();
    PrintStream previous = System.err;
    System.setErr(new PrintStream(err, true, StandardCharsets.UTF_8));
    try {
      launcher.execute(
          request,
          new TestExecutionListener() {
            @Override
            public void executionFinished(TestIdentifier id, TestExecutionResult result) {
              // tests by method name, classes by simple name
              results.put(id.getDisplayName().replaceAll("\\(.*", ""), result);
            }
          });
    } finally {
      System.setErr(previous);
    }
    return new Run(results, err.toString(StandardCharsets.UTF_8));
  }

  private static Optional<StratusTestSeed> seedOf(Throwable failure) {
    return Arrays.stream(failure.getSuppressed())
        .filter(StratusTestSeed.class::isInstance)
        .map(StratusTestSeed.class::cast)
        .findFirst();
  }

  // ---- each test its own database -------------------------------------------------------------

  @Test
  void eachTestHasItsOwnCloudAndItsHandleIsClosedAfterIt() {
    ReportFixtures.TwoTestsCreatingTheSameKey.HANDLES.clear();
    Run run = run(ReportFixtures.TwoTestsCreatingTheSameKey.class, Map.of());
    assertThat(run.status("first")).isEqualTo(TestExecutionResult.Status.SUCCESSFUL);
    assertThat(run.status("second")).isEqualTo(TestExecutionResult.Status.SUCCESSFUL);
    assertThat(ReportFixtures.TwoTestsCreatingTheSameKey.HANDLES)
        .hasSize(2)
        .allMatch(Database::isClosed);
    assertThat(run.stderr()).doesNotContain("Stratus test seed");
  }

  // ---- the seed of a failure -----------------------------------------------------------------

  @Test
  void aFailureCarriesItsSeedAndTheSeedReplaysTheFaults() {
    ReportFixtures.FailingTests.SEEDS.clear();
    Run run = run(ReportFixtures.FailingTests.class, Map.of());
    assertThat(run.status("passes")).isEqualTo(TestExecutionResult.Status.SUCCESSFUL);

    Throwable fixed = run.failure("failsWithAFixedSeed");
    assertThat(fixed).hasMessage("the application's assertion");
    assertThat(seedOf(fixed))
        .hasValueSatisfying(
            s -> {
              assertThat(s.seed()).isEqualTo(42);
              assertThat(s.getMessage())
                  .contains("@StratusTest(seed = 42L)", "-Dstratus.test.seed=42");
            });
    assertThat(run.stderr()).contains("Stratus test seed 42:");

    Throwable random = run.failure("failsWithARandomSeed");
    long seed = ReportFixtures.FailingTests.SEEDS.get("random");
    assertThat(seedOf(random)).hasValueSatisfying(s -> assertThat(s.seed()).isEqualTo(seed));
    assertThat(run.stderr()).contains("Stratus test seed " + seed + ":");
    assertThat(run.stderr().lines().filter(l -> l.contains("Stratus test seed")))
        .as("printed once per failed test, not for the passing one")
        .hasSize(2);

    // The printed way to replay: the same seed, the same faults on the same calls.
    Run replay =
        run(
            ReportFixtures.FailingTests.class,
            Map.of(StratusTest.SEED_PARAMETER, Long.toString(seed)));
    assertThat(ReportFixtures.FailingTests.SEEDS.get("random")).isEqualTo(seed);
    assertThat(replay.failure("failsWithARandomSeed")).hasMessage(random.getMessage());
    assertThat(random.getMessage()).contains("FAIL_RETRYABLE");
    // The annotation's own seed wins over the parameter.
    assertThat(seedOf(replay.failure("failsWithAFixedSeed")).map(StratusTestSeed::seed))
        .contains(42L);
  }

  // ---- failures around the test -------------------------------------------------------------

  @Test
  void aSetUpFailureCarriesTheSeedAndAClassLevelParameterIsRefused() {
    Throwable setUp = run(ReportFixtures.FailingBeforeEach.class, Map.of()).failure("test");
    assertThat(setUp).hasMessage("set-up failed");
    assertThat(seedOf(setUp).map(StratusTestSeed::seed)).contains(5L);
    assertThat(Arrays.stream(setUp.getSuppressed()).filter(StratusTestSeed.class::isInstance))
        .hasSize(1);

    Run beforeAllRun = run(ReportFixtures.ResolvingInBeforeAll.class, Map.of());
    Throwable beforeAll = beforeAllRun.failure("ReportFixtures$ResolvingInBeforeAll");
    assertThat(beforeAllRun.results()).doesNotContainKey("test");
    assertThat(beforeAll)
        .hasMessageContaining("each test its own database")
        .hasMessageContaining("not of static void");
    assertThat(
            Arrays.stream(beforeAll.getSuppressed())
                .map(Throwable::getMessage)
                .collect(Collectors.joining()))
        .doesNotContain("Stratus test seed");
  }
}
