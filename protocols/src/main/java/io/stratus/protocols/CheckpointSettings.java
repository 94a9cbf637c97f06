package io.stratus.protocols;

import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The checkpoint parameters of the protocols that apply log records by checkpoints (paper 000,
 * sections 4.3 to 4.5); each is a constant of {@link Settings}, with its default.
 *
 * @param interval how often the records of a queue are checkpointed; the paper used 45 s
 * @param lockTimeout how long a checkpoint holds the exclusive lock on a queue (the lock service's
 *     timeout for the prefix {@code <databaseUri>/pu/}; also the visibility timeout of the messages
 *     it receives); the paper used 30 s
 * @param propagationPeriod how much of the lease must be left for a checkpoint to still put a page
 *     (time for storage to make the put visible everywhere); the paper used 5 s
 * @param maxRecordsPerCheckpoint X, the most log records one checkpoint applies; the paper used 256
 * @param writes how checkpoints put pages
 * @param seed the seed of the reader-side checkpoint decisions (random with probability
 *     interval / age)
 * @param atomicTimeout the atomic protocol's grace period: a transaction in an ATOMIC queue
 *     without a commit record (a loser), or a commit record without log records (an orphan), is
 *     deleted only once its commit time is this much older than the recoverer's clock, so a live
 *     client's in-flight commit is never destroyed; longer than the lock timeout
 * @param closeTimeout the most a graceful close spends settling what the handle owes: letting
 *     running background work finish, propagating its pending commits and checkpointing every
 *     queue it owes, so that a handle opened next sees everything this one committed; zero or
 *     positive (zero: it waits for nothing and leaves the records to other clients)
 */
public record CheckpointSettings(
    Duration interval,
    Duration lockTimeout,
    Duration propagationPeriod,
    int maxRecordsPerCheckpoint,
    CheckpointWrites writes,
    long seed,
    Duration atomicTimeout,
    Duration closeTimeout) {

  /**
   * The rules between the settings: a checkpoint's lease outlasts the propagation period it keeps
   * in reserve, and recovery's atomic timeout outlasts the lease.
   */
  static final List<Setting.Rule> RULES =
      List.of(
          new Setting.Rule(
              List.of(Settings.CHECKPOINT_LOCK_TIMEOUT, Settings.PROPAGATION_PERIOD),
              v ->
                  v.get(Settings.PROPAGATION_PERIOD)
                          .compareTo(v.get(Settings.CHECKPOINT_LOCK_TIMEOUT))
                      < 0,
              CheckpointSettings::propagationTooLong),
          new Setting.Rule(
              List.of(Settings.ATOMIC_TIMEOUT, Settings.CHECKPOINT_LOCK_TIMEOUT),
              v ->
                  v.get(Settings.ATOMIC_TIMEOUT).compareTo(v.get(Settings.CHECKPOINT_LOCK_TIMEOUT))
                      > 0,
              v ->
                  v.describe(Settings.ATOMIC_TIMEOUT)
                      + " must be longer than "
                      + v.describe(Settings.CHECKPOINT_LOCK_TIMEOUT)
                      + ": recovery must not settle a transaction whose checkpoint still holds"
                      + " its lease"));

  /** Checked values. */
  public CheckpointSettings {
    Settings.CHECKPOINT_INTERVAL.check(interval);
    Map<Setting<?>, Object> given = new HashMap<>();
    given.put(
        Settings.CHECKPOINT_LOCK_TIMEOUT, Settings.CHECKPOINT_LOCK_TIMEOUT.check(lockTimeout));
    given.put(Settings.PROPAGATION_PERIOD, Settings.PROPAGATION_PERIOD.check(propagationPeriod));
    Settings.MAX_RECORDS_PER_CHECKPOINT.check(maxRecordsPerCheckpoint);
    Settings.CHECKPOINT_WRITES.check(writes);
    given.put(Settings.ATOMIC_TIMEOUT, Settings.ATOMIC_TIMEOUT.check(atomicTimeout));
    Settings.CLOSE_TIMEOUT.check(closeTimeout);
    Setting.Rule.check(RULES, Setting.given(given));
  }

  /** The checkpoint settings among {@code values}. */
  public static CheckpointSettings of(Setting.Values values) {
    return new CheckpointSettings(
        values.get(Settings.CHECKPOINT_INTERVAL),
        values.get(Settings.CHECKPOINT_LOCK_TIMEOUT),
        values.get(Settings.PROPAGATION_PERIOD),
        values.get(Settings.MAX_RECORDS_PER_CHECKPOINT),
        values.get(Settings.CHECKPOINT_WRITES),
        values.get(Settings.CHECKPOINT_SEED),
        values.get(Settings.ATOMIC_TIMEOUT),
        values.get(Settings.CLOSE_TIMEOUT));
  }

  /** The defaults of {@link Settings}. */
  public static CheckpointSettings defaults() {
    return of(Setting.given(Map.of()));
  }

  private static String propagationTooLong(Setting.Values v) {
    // Name the setting the user chose; the other one may be a default they never touched.
    Duration lock = v.get(Settings.CHECKPOINT_LOCK_TIMEOUT);
    Duration period = v.get(Settings.PROPAGATION_PERIOD);
    return v.isSet(Settings.CHECKPOINT_LOCK_TIMEOUT)
        ? "checkpointLockTimeout("
            + lock
            + ") must be longer than the propagation period ("
            + period
            + (v.isSet(Settings.PROPAGATION_PERIOD) ? "" : ", the default")
            + "): choose a longer lock timeout, or set propagationPeriod shorter as well"
        : "propagationPeriod("
            + period
            + ") must be shorter than the checkpoint lock timeout ("
            + lock
            + ", the default): choose a shorter period, or set checkpointLockTimeout longer"
            + " as well";
  }
}
