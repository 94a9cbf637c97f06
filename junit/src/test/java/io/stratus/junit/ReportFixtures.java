package io.stratus.junit;

import static org.assertj.core.api.Assertions.assertThat;

import io.stratus.core.Database;
import io.stratus.core.Key;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;

/**
 * Test classes that {@link StratusTestReportsTest} runs through the JUnit launcher, some of them
 * failing on purpose. Their names match none of the build's test patterns, so the build never
 * runs them itself; the static fields carry what they saw back to the test that ran them.
 */
final class ReportFixtures {
  private ReportFixtures() {}

  @StratusTest
  @TestMethodOrder(MethodOrderer.OrderAnnotation.class)
  static class TwoTestsCreatingTheSameKey {
    static final List<Database> HANDLES = new ArrayList<>();

    @Test
    @Order(1)
    void first(Database db) {
      createKeyOne(db);
    }

    @Test
    @Order(2)
    void second(Database db) {
      assertThat(HANDLES).singleElement().satisfies(d -> assertThat(d.isClosed()).isTrue());
      createKeyOne(db);
    }

    private static void createKeyOne(Database db) {
      HANDLES.add(db);
      db.createCollection("items");
      // create refuses a key that exists: it would fail in the second test on a shared cloud
      db.run(
          tx -> {
            tx.create("items", Key.of(1L), new byte[] {1});
            return null;
          });
    }
  }

  static class FailingTests {
    static final Map<String, Long> SEEDS = new ConcurrentHashMap<>();

    @Test
    @StratusTest(seed = 42)
    void failsWithAFixedSeed(Database db) {
      db.createCollection("items");
      throw new AssertionError("the application's assertion");
    }

    @Test
    @StratusTest(failureRate = 0.3)
    void failsWithARandomSeed(StratusTestContext context, Database db) {
      SEEDS.put("random", context.seed());
      for (long i = 1; i <= 20; i++) {
        long k = i;
        try {
          db.run(tx -> db.createCollection("items"));
          db.run(tx -> tx.put("items", Key.of(k), new byte[] {1}));
        } catch (RuntimeException e) {
          // the faults this seed injects are what the failure reports
        }
      }
      throw new AssertionError("faults " + context.faults().injectedFaults());
    }

    @Test
    @StratusTest
    void passes(Database db) {
      db.createCollection("items");
    }
  }

  @StratusTest(seed = 5)
  static class FailingBeforeEach {
    @BeforeEach
    void setUp(Database db) {
      db.createCollection("items");
      throw new IllegalStateException("set-up failed");
    }

    @Test
    void test() {}
  }

  @StratusTest
  static class ResolvingInBeforeAll {
    @BeforeAll
    static void setUp(Database db) {}

    @Test
    void test() {}
  }
}
