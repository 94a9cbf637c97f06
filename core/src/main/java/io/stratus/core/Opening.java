package io.stratus.core;

import io.stratus.CorruptPageException;
import io.stratus.pagemanager.BufferPool;
import io.stratus.protocols.CommitProtocol;
import io.stratus.protocols.CommitProtocols;
import io.stratus.protocols.DamageReports;
import io.stratus.protocols.ProtocolContext;
import io.stratus.protocols.StorageLayout;

/**
 * How {@link Database#open} makes a handle: a buffer pool, the configured commit protocol over it
 * (which creates its queues and runs its recovery at open), then the catalog read. Everything
 * made is closed again when a step fails.
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
      protocol =
          CommitProtocols.create(
              config.protocol(),
              new ProtocolContext(
                  config.services(),
                  config.databaseUri(),
                  config.clientId(),
                  config.clock(),
                  config.crashPoints(),
                  pool,
                  config.checkpointInterval(),
                  config.checkpointExecutor(),
                  config.checkpoints(),
                  config.writerLanes(),
                  config.isolation(),
                  damage));
      Database db = new Database(config, pool, protocol, damage);
      try {
        db.readCatalog();
      } catch (CorruptPageException e) {
        throw EncryptionAtOpen.explain(
            config, new StorageLayout(config.databaseUri()).catalog(), e);
      }
      return db;
    } catch (RuntimeException | Error e) {
      if (protocol != null) {
        protocol.close();
      }
      pool.close();
      throw e;
    }
  }
}
