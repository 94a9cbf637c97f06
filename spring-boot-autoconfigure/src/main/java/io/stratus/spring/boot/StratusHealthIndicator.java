package io.stratus.spring.boot;

import io.stratus.core.Database;
import io.stratus.core.DatabaseStats;
import java.util.Locale;
import java.util.concurrent.atomic.AtomicLong;
import org.springframework.boot.actuate.health.Health;
import org.springframework.boot.actuate.health.HealthIndicator;

/**
 * The health of a {@link Database} handle, from its own state and counters: no cloud call is made,
 * so a probe costs nothing and cannot itself fail on a slow cloud.
 *
 * <ul>
 *   <li>DOWN when the handle is closed: every call fails.
 *   <li>DOWN while checkpoints have found corrupt pages ({@link DatabaseStats#corruptPages()}):
 *       records that would change them wait until an operator repairs them.
 *   <li>DOWN when background work failed since the previous check ({@link
 *       DatabaseStats#backgroundFailures()} rose): committed records are not being applied or
 *       archived, so other clients do not see them; UP again at the first check after which no
 *       new failure occurred.
 *   <li>UP otherwise.
 * </ul>
 *
 * <p>Details name the database, protocol and client, and carry the counters an operator looks at
 * first (commits, failed and unknown commits, background and checkpoint failures, damage, dead
 * letters, owed checkpoints). Thread-safe: the previous count is swapped atomically, so two
 * concurrent checks report a new failure once.
 */
public class StratusHealthIndicator implements HealthIndicator {
  private final Database db;
  private final AtomicLong seenBackgroundFailures = new AtomicLong();

  public StratusHealthIndicator(Database db) {
    this.db = db;
  }

  @Override
  public Health health() {
    if (db.isClosed()) {
      return Health.down()
          .withDetail("reason", "the database handle is closed")
          .withDetail("database", db.config().databaseUri())
          .build();
    }
    Health.Builder h;
    DatabaseStats s = db.stats();
    long failures = s.backgroundFailures();
    long before = seenBackgroundFailures.getAndSet(failures);
    if (s.corruptPages() > 0) {
      h =
          Health.down()
              .withDetail(
                  "reason",
                  s.corruptPages()
                      + " corrupt page(s): records that"
                      + " would change them wait until they are repaired (see bin/stratus verify)");
    } else if (failures > before) {
      h =
          Health.down()
              .withDetail(
                  "reason",
                  (failures - before)
                      + " background failure(s) since"
                      + " the last check: committed records are not being applied (see the log)");
    } else {
      h = Health.up();
    }
    return h.withDetail("database", db.config().databaseUri())
        .withDetail("protocol", db.config().protocol().name().toLowerCase(Locale.ROOT))
        .withDetail("client", db.config().clientId())
        .withDetail("commits", s.commits())
        .withDetail("failedCommits", s.failedCommits())
        .withDetail("unknownCommits", s.unknownCommits())
        .withDetail("backgroundFailures", failures)
        .withDetail("checkpointsFailed", s.checkpointsFailed())
        .withDetail("corruptPages", s.corruptPages())
        .withDetail("corruptMessages", s.corruptMessages())
        .withDetail("deadLettered", s.deadLettered())
        .withDetail("owedCheckpoints", s.owedCheckpoints())
        .withDetail("recordsWaitingForRoom", s.recordsWaitingForRoom())
        .build();
  }
}
