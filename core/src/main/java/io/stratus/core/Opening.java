package io.stratus.core;

import io.stratus.CorruptPageException;
import io.stratus.pagemanager.BufferPool;
import io.stratus.pagemanager.PageWriter;
import io.stratus.protocols.CommitProtocol;
import io.stratus.protocols.CommitProtocols;
import io.stratus.protocols.DamageReports;
import io.stratus.protocols.Pause;
import io.stratus.protocols.ProtocolContext;
import io.stratus.protocols.StorageLayout;

/**
 * How {@link Database#open} makes a handle: a buffer pool, the catalog read (which refuses a
 * database that runs a protocol the configured one cannot share it with, before anything touches
 * a queue), then the configured commit protocol over the pool (which creates its queues and runs
 * its recovery at open). Everything made is closed again when a step fails.
 *
 * <p>Opening changes nothing shared that a second attempt would change again (queues and
 * timeouts are set idempotently, recovery propagates idempotent records), so a transient cloud
 * failure is retried as the configuration's {@link RetryPolicy} says. A catalog that cannot be
 * read because the configuration's encryption does not fit the database is explained by {@link
 * EncryptionAtOpen}. Stateless.
 */
final class Opening {
  private Opening() {}

  static Database open(DatabaseConfig config) {
    RetryPolicy policy = config.retryPolicy();
    return RetryLoop.run(
        policy,
        policy.jitter(config.clientId().hashCode()),
        RetryLoop::transientCloudFailure,
        () ->
            CloudFailures.reading(
                () -> "opening database " + config.databaseUri(), () -> openOnce(config)),
        () -> {});
  }

  private static Database openOnce(DatabaseConfig config) {
    BufferPool pool =
        new BufferPool(config.services().storage(), config.bufferPoolConfig(), config.clock());
    CommitProtocol protocol = null;
    DamageReports damage = new DamageReports();
    try {
      CatalogStore catalog =
          new CatalogStore(
              config.databaseUri(),
              config.protocol(),
              new PageWriter(config.services().storage(), pool),
              pool);
      try {
        catalog.current(); // refuses another protocol's database before this one touches a queue
      } catch (CorruptPageException e) {
        throw EncryptionAtOpen.explain(
            config, new StorageLayout(config.databaseUri()).catalog(), e);
      }
      protocol =
          CommitProtocols.create(
              ProtocolContext.builder(
                      config.services(),
                      config.databaseUri(),
                      config.clientId(),
                      pool,
                      config.protocolSettings())
                  .clock(config.clock())
                  .crashPoints(config.crashPoints())
                  .checkpointExecutor(config.checkpointExecutor())
                  .damage(damage)
                  .pause(pauseOf(config.retryPolicy()))
                  .build());
      Database db = new Database(config, pool, catalog, protocol, damage);
      catalog.recordIfMissing();
      return db;
    } catch (RuntimeException | Error e) {
      if (protocol != null) {
        protocol.close();
      }
      pool.close();
      throw e;
    }
  }

  /**
   * The protocol's waits between polls of other clients' progress wait as the retry policy's
   * back-offs do (its sleeper), so a test that replaces the sleeper waits for no real time there
   * either.
   */
  private static Pause pauseOf(RetryPolicy policy) {
    RetryPolicy.Sleeper sleeper = policy.sleeper();
    return d -> {
      try {
        sleeper.sleep(d);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
    };
  }
}
