package io.stratus.protocols;

import io.stratus.pagemanager.BufferPoolConfig;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.StringJoiner;
import java.util.UUID;
import java.util.function.Predicate;
import java.util.regex.Pattern;

/**
 * Every setting of a database that has a value one can write down, each described once (key,
 * builder method, type, default, protocols, accepted values, doc): the table that {@code
 * DatabaseConfig.Builder}, {@code DatabaseProperties}, the Spring binding and the documentation's
 * option table ({@link #markdownTable()}) read. What only code can give (a clock, an executor, a
 * keyring, index extractors) is set on the builder alone.
 *
 * <p>A setting applies to every protocol unless it belongs to a {@link ProtocolOption}; setting
 * one the chosen protocol does not have is refused when the configuration is built. Rules between
 * settings belong to the protocols' settings records ({@link ProtocolSettings}).
 */
public final class Settings {
  private Settings() {}

  /**
   * The longest duration any setting accepts: 365 days. Longer ones overflow the millisecond and
   * nanosecond arithmetic of timers and leases and mean "never" in practice.
   */
  public static final Duration MAX_DURATION = Duration.ofDays(365);

  /** The most writer lanes accepted. */
  public static final int MAX_WRITER_LANES = 1024;

  /** The longest database URI accepted, in characters. */
  public static final int MAX_DATABASE_URI_LENGTH = 200;

  private static final Pattern URI_SEGMENT = Pattern.compile("[A-Za-z0-9_.-]+");

  private static final Setting.Check<Duration> POSITIVE =
      new Setting.Check<>(
          "positive, at most " + MAX_DURATION.toDays() + " days",
          d -> !d.isNegative() && !d.isZero() && d.compareTo(MAX_DURATION) <= 0);

  private static final Setting.Check<Duration> NOT_NEGATIVE =
      new Setting.Check<>(
          "zero or positive, at most " + MAX_DURATION.toDays() + " days",
          d -> !d.isNegative() && d.compareTo(MAX_DURATION) <= 0);

  private static <T> Setting.Check<T> any() {
    return new Setting.Check<>("any", v -> true);
  }

  private static Setting.Check<Integer> between(int min, int max) {
    return new Setting.Check<>("between " + min + " and " + max, n -> n >= min && n <= max);
  }

  /** The database's URI prefix: required, given to {@code DatabaseConfig.builder}. */
  public static final Setting<String> DATABASE_URI =
      Setting.derived(
          "stratus.database-uri",
          "databaseUri",
          "database URI",
          Setting.Type.TEXT,
          v -> null,
          "(required)",
          null,
          new Setting.Check<>(
              "1 to "
                  + MAX_DATABASE_URI_LENGTH
                  + " characters: segments of letters, digits, '_', '-' and '.' (not \".\" or"
                  + " \"..\") joined by single '/'",
              Settings::validUri),
          "the prefix of every item of the database, e.g. db/shop");

  /** The commit protocol. */
  public static final Setting<ProtocolKind> PROTOCOL =
      Setting.of(
          "stratus.protocol",
          "protocol",
          "protocol",
          Setting.Type.of(ProtocolKind.class),
          ProtocolKind.MONOTONIC,
          null,
          any(),
          "the commit protocol; every client of one database uses the same (docs/protocols.md)");

  /** The page size in bytes. */
  public static final Setting<Integer> PAGE_SIZE =
      Setting.of(
          "stratus.page-size",
          "pageSize",
          "page size",
          Setting.Type.INT_BYTES,
          BufferPoolConfig.DEFAULT_PAGE_SIZE,
          null,
          new Setting.Check<>(
              "at least " + BufferPoolConfig.MIN_PAGE_SIZE + " bytes",
              b -> b >= BufferPoolConfig.MIN_PAGE_SIZE),
          "the size of a page (papers: 100 KiB); every client of one database uses the same");

  /** The buffer pool's time to live. */
  public static final Setting<Duration> TTL =
      Setting.of(
          "stratus.ttl",
          "ttl",
          "TTL",
          Setting.Type.DURATION,
          BufferPoolConfig.DEFAULT_TTL,
          null,
          NOT_NEGATIVE,
          "how long a cached page is used before storage is asked again (papers: 100 s)");

  /** The buffer pool's bound on cached bytes. */
  public static final Setting<Long> POOL_BYTES =
      Setting.of(
          "stratus.pool-bytes",
          "poolBytes",
          "pool size",
          Setting.Type.BYTES,
          BufferPoolConfig.DEFAULT_MAX_BYTES,
          null,
          new Setting.Check<>("positive", b -> b > 0),
          "the buffer pool's bound on cached pages");

  /** Whether the buffer pool refuses page versions older than one it has seen. */
  public static final Setting<Boolean> MONOTONIC_READS =
      Setting.derived(
          "stratus.monotonic-reads",
          "monotonicReads",
          "monotonic reads",
          Setting.Type.BOOLEAN,
          v -> v.get(PROTOCOL).guarantees(Guarantee.MONOTONIC_READS),
          "on for the protocols that promise monotonic reads (all but naive and basic)",
          null,
          any(),
          "whether the buffer pool never goes back to an older version of a page");

  /** This client's id. */
  public static final Setting<String> CLIENT_ID =
      Setting.derived(
          "stratus.client-id",
          "clientId",
          "client id",
          Setting.Type.TEXT,
          v -> UUID.randomUUID().toString(),
          "a random UUID per configuration",
          null,
          new Setting.Check<>(
              "1 to 100 printable ASCII characters without spaces",
              id ->
                  !id.isEmpty()
                      && id.length() <= 100
                      && id.chars().allMatch(c -> c > 0x20 && c < 0x7F)),
          "this client's id, unique among the database's clients");

  /** The checkpoint interval. */
  public static final Setting<Duration> CHECKPOINT_INTERVAL =
      Setting.of(
          "stratus.checkpoint.interval",
          "checkpointInterval",
          "checkpoint interval",
          Setting.Type.DURATION,
          Duration.ofSeconds(45),
          ProtocolOption.CHECKPOINTS,
          POSITIVE,
          "how often the log records of a queue are checkpointed (papers: 45 s)");

  /** How long a checkpoint holds a queue's lock. */
  public static final Setting<Duration> CHECKPOINT_LOCK_TIMEOUT =
      Setting.of(
          "stratus.checkpoint.lock-timeout",
          "checkpointLockTimeout",
          "checkpoint lock timeout",
          Setting.Type.DURATION,
          Duration.ofSeconds(30),
          ProtocolOption.CHECKPOINTS,
          POSITIVE,
          "the lease on a queue's lock, also the visibility timeout of what a checkpoint receives;"
              + " longer than the propagation period, at most the queues' longest visibility"
              + " timeout, at least 5s under atomic (paper: 30 s)");

  /** How much lease a checkpoint must have left to put a page. */
  public static final Setting<Duration> PROPAGATION_PERIOD =
      Setting.of(
          "stratus.checkpoint.propagation-period",
          "propagationPeriod",
          "propagation period",
          Setting.Type.DURATION,
          Duration.ofSeconds(5),
          ProtocolOption.CHECKPOINTS,
          NOT_NEGATIVE,
          "how much of its lease a checkpoint must have left to still put a page (paper: 5 s)");

  /** X, the most log records one checkpoint applies. */
  public static final Setting<Integer> MAX_RECORDS_PER_CHECKPOINT =
      Setting.of(
          "stratus.checkpoint.max-records",
          "maxRecordsPerCheckpoint",
          "number of records per checkpoint",
          Setting.Type.INT,
          256,
          ProtocolOption.CHECKPOINTS,
          new Setting.Check<>("at least 1", n -> n >= 1),
          "X, the most log records one checkpoint applies (paper: 256)");

  /** How checkpoints put pages. */
  public static final Setting<CheckpointWrites> CHECKPOINT_WRITES =
      Setting.of(
          "stratus.checkpoint.writes",
          "checkpointWrites",
          "checkpoint writes",
          Setting.Type.of(CheckpointWrites.class),
          CheckpointWrites.AUTO,
          ProtocolOption.CHECKPOINTS,
          any(),
          "how checkpoints put pages: conditional puts when storage has them (auto)");

  /** The seed of the reader-side checkpoint decisions. */
  public static final Setting<Long> CHECKPOINT_SEED =
      Setting.of(
          "stratus.checkpoint.seed",
          "checkpointSeed",
          "checkpoint seed",
          Setting.Type.LONG,
          0L,
          ProtocolOption.CHECKPOINTS,
          any(),
          "the seed of the random reader-side checkpoint decisions");

  /** The most a close spends settling what the handle owes. */
  public static final Setting<Duration> CLOSE_TIMEOUT =
      Setting.of(
          "stratus.checkpoint.close-timeout",
          "closeTimeout",
          "close timeout",
          Setting.Type.DURATION,
          Duration.ofSeconds(20),
          ProtocolOption.CHECKPOINTS,
          NOT_NEGATIVE,
          "the most a close spends checkpointing what the handle owes (inside the 30 s"
              + " Kubernetes grants a stopping process); 0s: nothing");

  /** How many commits of a handle are numbered and sent at once. */
  public static final Setting<Integer> WRITER_LANES =
      Setting.of(
          "stratus.writer-lanes",
          "writerLanes",
          "number of writer lanes",
          Setting.Type.INT,
          32,
          ProtocolOption.WRITER_LANES,
          between(1, MAX_WRITER_LANES),
          "commits of one handle numbered and sent at once; each lane that writes to a page adds"
              + " about 60 bytes to its header");

  /** The atomic protocols' grace period. */
  public static final Setting<Duration> ATOMIC_TIMEOUT =
      Setting.derived(
          "stratus.atomic.timeout",
          "atomicTimeout",
          "atomic timeout",
          Setting.Type.DURATION,
          v -> max(Duration.ofSeconds(60), v.get(CHECKPOINT_LOCK_TIMEOUT).multipliedBy(2)),
          "60s, or twice the checkpoint lock timeout if longer",
          ProtocolOption.ATOMIC_TIMEOUT,
          POSITIVE,
          "the age after which an uncommitted or abandoned transaction in an atomic log is"
              + " settled by recovery; longer than the checkpoint lock timeout");

  /** The longest an isolating transaction may run. */
  public static final Setting<Duration> TRANSACTION_TIMEOUT =
      Setting.of(
          "stratus.isolation.transaction-timeout",
          "transactionTimeout",
          "transaction timeout",
          Setting.Type.DURATION,
          Duration.ofSeconds(10),
          ProtocolOption.ISOLATION,
          POSITIVE,
          "the longest a transaction may run, from begin to the end of its commit");

  /** The lease of record locks and commit ids. */
  public static final Setting<Duration> ISOLATION_LEASE_TIMEOUT =
      Setting.of(
          "stratus.isolation.lease-timeout",
          "isolationLeaseTimeout",
          "isolation lease timeout",
          Setting.Type.DURATION,
          Duration.ofSeconds(120),
          ProtocolOption.ISOLATION,
          POSITIVE,
          "how long the record locks and commit ids of a dead client last; more than 2 x"
              + " transaction timeout + 1.2 x atomic timeout + 1s");

  /** How long read-only transactions reuse a snapshot. */
  public static final Setting<Duration> SNAPSHOT_REUSE =
      Setting.of(
          "stratus.isolation.snapshot-reuse",
          "snapshotReuse",
          "snapshot reuse",
          Setting.Type.DURATION,
          Duration.ofMillis(500),
          ProtocolOption.ISOLATION,
          NOT_NEGATIVE,
          "how long read-only transactions reuse a handle's snapshot before asking for a newer"
              + " one; 0s: always ask");

  private static final List<Setting<?>> ALL =
      List.of(
          DATABASE_URI,
          PROTOCOL,
          PAGE_SIZE,
          TTL,
          POOL_BYTES,
          MONOTONIC_READS,
          CLIENT_ID,
          CHECKPOINT_INTERVAL,
          CHECKPOINT_LOCK_TIMEOUT,
          PROPAGATION_PERIOD,
          MAX_RECORDS_PER_CHECKPOINT,
          CHECKPOINT_WRITES,
          CHECKPOINT_SEED,
          CLOSE_TIMEOUT,
          WRITER_LANES,
          ATOMIC_TIMEOUT,
          TRANSACTION_TIMEOUT,
          ISOLATION_LEASE_TIMEOUT,
          SNAPSHOT_REUSE);

  private static final Map<String, Setting<?>> BY_KEY = new LinkedHashMap<>();

  static {
    for (Setting<?> s : ALL) {
      BY_KEY.put(s.key(), s);
    }
  }

  /** Every setting, in the documentation's order. */
  public static List<Setting<?>> all() {
    return ALL;
  }

  /** Every key. */
  public static Set<String> keys() {
    return java.util.Collections.unmodifiableSet(BY_KEY.keySet());
  }

  /** The setting with property key {@code key}. */
  public static Optional<Setting<?>> byKey(String key) {
    return Optional.ofNullable(BY_KEY.get(key));
  }

  /**
   * The documentation's option table (docs/using.md): one Markdown row per setting with its key,
   * builder method, default, protocols, accepted values and what it does.
   */
  public static String markdownTable() {
    StringBuilder b =
        new StringBuilder("| key | builder | default | protocols | value | what it does |\n")
            .append("| --- | --- | --- | --- | --- | --- |\n");
    for (Setting<?> s : ALL) {
      b.append("| `")
          .append(s.key())
          .append("` | `")
          .append(s.name())
          .append("` | ")
          .append(s.defaultText())
          .append(" | ")
          .append(protocolsOf(s))
          .append(" | ")
          .append(s.type().syntax())
          .append(s.accepts().equals("any") ? "" : "; " + s.accepts())
          .append(" | ")
          .append(s.doc())
          .append(" |\n");
    }
    return b.toString();
  }

  private static String protocolsOf(Setting<?> s) {
    Set<ProtocolKind> kinds = s.protocols();
    if (kinds.size() == ProtocolKind.values().length) {
      return "all";
    }
    if (kinds.size() == ProtocolKind.values().length - 1 && !kinds.contains(ProtocolKind.NAIVE)) {
      return "all but naive";
    }
    StringJoiner j = new StringJoiner(", ");
    for (ProtocolKind k : kinds) {
      j.add(k.name().toLowerCase(Locale.ROOT));
    }
    return j.toString();
  }

  private static boolean validUri(String uri) {
    if (uri.isEmpty() || uri.length() > MAX_DATABASE_URI_LENGTH) {
      return false;
    }
    Predicate<String> segment =
        s -> URI_SEGMENT.matcher(s).matches() && !s.equals(".") && !s.equals("..");
    for (String s : uri.split("/", -1)) {
      if (!segment.test(s)) {
        return false;
      }
    }
    return true;
  }

  static Duration max(Duration a, Duration b) {
    return a.compareTo(b) >= 0 ? a : b;
  }
}
