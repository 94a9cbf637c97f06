package io.stratus.junit;

import io.stratus.protocols.ProtocolKind;
import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Inherited;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Gives each test of the annotated class (or the annotated test method) its own in-process
 * database: a test method, {@code @BeforeEach} or {@code @AfterEach} method declares a parameter
 * of type {@link io.stratus.core.Database}, {@link io.stratus.cloudapi.time.ManualClock} or
 * {@link StratusTestContext} and receives the test's one instance of it.
 *
 * <pre>{@code
 * @StratusTest(failureRate = 0.05)
 * class CartTest {
 *   @Test
 *   void checkoutSurvivesFailingCalls(Database db, ManualClock clock) {
 *     db.createCollection("carts");
 *     ...
 *   }
 * }
 * }</pre>
 *
 * <p>Every test gets a new cloud, so tests share nothing and may run in parallel. Time is a
 * {@link io.stratus.cloudapi.time.ManualClock} that moves only when the test (or a retry's
 * back-off) advances it; every random choice comes from one seed, which a failing test reports
 * with its failure. The attributes below configure the test's database; one on a method replaces
 * the one on its class.
 */
@Target({ElementType.TYPE, ElementType.METHOD, ElementType.ANNOTATION_TYPE})
@Retention(RetentionPolicy.RUNTIME)
@Documented
@Inherited
@ExtendWith(StratusExtension.class)
public @interface StratusTest {
  /** The value of {@link #seed()} that asks for a new random seed per test. */
  long RANDOM_SEED = Long.MIN_VALUE;

  /**
   * The JUnit configuration parameter (a system property {@code -Dstratus.test.seed=...}, or an
   * entry of {@code junit-platform.properties}) that sets the seed of every test not annotated
   * with one: how to replay a failure the build reported.
   */
  String SEED_PARAMETER = "stratus.test.seed";

  /** The commit protocol of the test's database. */
  ProtocolKind protocol() default ProtocolKind.MONOTONIC;

  /** The database's URI prefix. */
  String databaseUri() default "db/test";

  /**
   * The seed of the test's random choices: the cloud's (queue behaviour), the retries' jitter and
   * the faults'; the checkpoints' own draws use the library's fixed default seed. {@link
   * #RANDOM_SEED} (the default): a new one per test, unless {@link #SEED_PARAMETER} is set.
   */
  long seed() default RANDOM_SEED;

  /**
   * The probability, 0 to 1, that a cloud call of a handle fails retryably without being made (a
   * throttled or refused request). {@code Database.run} and {@code read} retry such failures.
   */
  double failureRate() default 0;

  /**
   * The probability, 0 to 1, that a cloud call of a handle takes effect but its reply is lost: the
   * application sees an outcome-unknown failure ({@code isOutcomeUnknown()}), such as a {@code
   * CommitStateUnknownException} from a commit.
   */
  double lostReplyRate() default 0;
}
