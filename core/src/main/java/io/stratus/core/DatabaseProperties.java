package io.stratus.core;

import io.stratus.InvalidConfigurationException;
import io.stratus.InvalidRequestException;
import io.stratus.cloudapi.CloudServices;
import io.stratus.protocols.CheckpointWrites;
import io.stratus.protocols.ProtocolKind;
import java.time.Duration;
import java.time.format.DateTimeParseException;
import java.util.Locale;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.function.BiConsumer;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A {@link DatabaseConfig} from string properties, for frameworks that configure libraries from
 * files or the environment. Every key is a constant here, its default next to it; a key under
 * {@value #PREFIX} that is not one of them is an error (a misspelt key silently ignored is a
 * setting that silently does not apply), and so is a value that does not parse or that the
 * builder refuses. Keys outside the prefix are ignored, so one properties file can serve several
 * libraries.
 *
 * <p>Durations are written {@code 500ms}, {@code 45s}, {@code 2m}, {@code 1h} or in ISO-8601
 * ({@code PT45S}); sizes in bytes, or with {@code k}, {@code m}, {@code g} (powers of 1,024).
 */
public final class DatabaseProperties {
  /** The prefix of every key. */
  public static final String PREFIX = "stratus.";

  /** The database's URI prefix (required): segments of letters, digits, '_', '-' and '.'. */
  public static final String DATABASE_URI = PREFIX + "database-uri";

  /** The commit protocol: naive, basic, monotonic, atomic or advanced_atomic. */
  public static final String PROTOCOL = PREFIX + "protocol";

  /** Default of {@link #PROTOCOL}. */
  public static final ProtocolKind PROTOCOL_DEFAULT = DatabaseConfig.DEFAULT_PROTOCOL;

  /** The page size (a size). */
  public static final String PAGE_SIZE = PREFIX + "page-size";

  /** Default of {@link #PAGE_SIZE}. */
  public static final int PAGE_SIZE_DEFAULT = DatabaseConfig.DEFAULT_PAGE_SIZE;

  /** The buffer pool's time to live (a duration). */
  public static final String TTL = PREFIX + "ttl";

  /** Default of {@link #TTL}. */
  public static final Duration TTL_DEFAULT = DatabaseConfig.DEFAULT_TTL;

  /** The buffer pool's bound on cached bytes (a size). */
  public static final String POOL_BYTES = PREFIX + "pool-bytes";

  /** Default of {@link #POOL_BYTES}. */
  public static final long POOL_BYTES_DEFAULT = DatabaseConfig.DEFAULT_POOL_BYTES;

  /** Whether the buffer pool never goes back to an older page version (true/false). */
  public static final String MONOTONIC_READS = PREFIX + "monotonic-reads";

  /** The checkpoint interval of the queue protocols (a duration). */
  public static final String CHECKPOINT_INTERVAL = PREFIX + "checkpoint.interval";

  /** Default of {@link #CHECKPOINT_INTERVAL}. */
  public static final Duration CHECKPOINT_INTERVAL_DEFAULT =
      DatabaseConfig.DEFAULT_CHECKPOINT_INTERVAL;

  /** The lease on a queue's lock, also the visibility timeout of a checkpoint (a duration). */
  public static final String CHECKPOINT_LOCK_TIMEOUT = PREFIX + "checkpoint.lock-timeout";

  /** The lease a checkpoint must have left to still put pages (a duration). */
  public static final String PROPAGATION_PERIOD = PREFIX + "checkpoint.propagation-period";

  /** The most log records one checkpoint applies. */
  public static final String MAX_RECORDS_PER_CHECKPOINT = PREFIX + "checkpoint.max-records";

  /** How checkpoints put pages: auto, conditional or timing_only. */
  public static final String CHECKPOINT_WRITES = PREFIX + "checkpoint.writes";

  /** The most a close spends checkpointing what the handle owes (a duration; zero: nothing). */
  public static final String CLOSE_TIMEOUT = PREFIX + "checkpoint.close-timeout";

  /** Default of {@link #CLOSE_TIMEOUT}. */
  public static final Duration CLOSE_TIMEOUT_DEFAULT = DatabaseConfig.DEFAULT_CLOSE_TIMEOUT;

  /** Monotonic and atomic: commits of one handle numbered and sent at once. */
  public static final String WRITER_LANES = PREFIX + "writer-lanes";

  /** Default of {@link #WRITER_LANES}. */
  public static final int WRITER_LANES_DEFAULT = DatabaseConfig.DEFAULT_WRITER_LANES;

  /** Atomic: the age after which losers and abandoned commits are settled (a duration). */
  public static final String ATOMIC_TIMEOUT = PREFIX + "atomic.timeout";

  /** Snapshot protocols: the longest a transaction may run (a duration; default 10 s). */
  public static final String TRANSACTION_TIMEOUT = PREFIX + "isolation.transaction-timeout";

  /** Snapshot protocols: the lease of record locks and commit ids (a duration; default 120 s). */
  public static final String ISOLATION_LEASE = PREFIX + "isolation.lease-timeout";

  /** Snapshot protocols: how long read-only transactions reuse a snapshot (default 500 ms). */
  public static final String SNAPSHOT_REUSE = PREFIX + "isolation.snapshot-reuse";

  /** This client's id, unique among the database's clients (default: random). */
  public static final String CLIENT_ID = PREFIX + "client-id";

  private static final Pattern SIMPLE_DURATION =
      Pattern.compile("(\\d+)\\s*(ms|s|m|h|d)", Pattern.CASE_INSENSITIVE);
  private static final Pattern SIZE =
      Pattern.compile("(\\d+)\\s*([kmg]?)b?", Pattern.CASE_INSENSITIVE);

  private static final Map<String, BiConsumer<DatabaseConfig.Builder, String>> SETTERS =
      new TreeMap<>();

  static {
    SETTERS.put(DATABASE_URI, (b, v) -> {}); // taken by the builder's constructor
    SETTERS.put(PROTOCOL, (b, v) -> b.protocol(enumValue(ProtocolKind.class, PROTOCOL, v)));
    SETTERS.put(PAGE_SIZE, (b, v) -> b.pageSize(Math.toIntExact(size(PAGE_SIZE, v))));
    SETTERS.put(TTL, (b, v) -> b.ttl(duration(TTL, v)));
    SETTERS.put(POOL_BYTES, (b, v) -> b.poolBytes(size(POOL_BYTES, v)));
    SETTERS.put(MONOTONIC_READS, (b, v) -> b.monotonicReads(bool(MONOTONIC_READS, v)));
    SETTERS.put(
        CHECKPOINT_INTERVAL, (b, v) -> b.checkpointInterval(duration(CHECKPOINT_INTERVAL, v)));
    SETTERS.put(
        CHECKPOINT_LOCK_TIMEOUT,
        (b, v) -> b.checkpointLockTimeout(duration(CHECKPOINT_LOCK_TIMEOUT, v)));
    SETTERS.put(PROPAGATION_PERIOD, (b, v) -> b.propagationPeriod(duration(PROPAGATION_PERIOD, v)));
    SETTERS.put(
        MAX_RECORDS_PER_CHECKPOINT,
        (b, v) ->
            b.maxRecordsPerCheckpoint(Math.toIntExact(number(MAX_RECORDS_PER_CHECKPOINT, v))));
    SETTERS.put(
        CHECKPOINT_WRITES,
        (b, v) -> b.checkpointWrites(enumValue(CheckpointWrites.class, CHECKPOINT_WRITES, v)));
    SETTERS.put(CLOSE_TIMEOUT, (b, v) -> b.closeTimeout(duration(CLOSE_TIMEOUT, v)));
    SETTERS.put(WRITER_LANES, (b, v) -> b.writerLanes(Math.toIntExact(number(WRITER_LANES, v))));
    SETTERS.put(ATOMIC_TIMEOUT, (b, v) -> b.atomicTimeout(duration(ATOMIC_TIMEOUT, v)));
    SETTERS.put(
        TRANSACTION_TIMEOUT, (b, v) -> b.transactionTimeout(duration(TRANSACTION_TIMEOUT, v)));
    SETTERS.put(ISOLATION_LEASE, (b, v) -> b.isolationLeaseTimeout(duration(ISOLATION_LEASE, v)));
    SETTERS.put(SNAPSHOT_REUSE, (b, v) -> b.snapshotReuse(duration(SNAPSHOT_REUSE, v)));
    SETTERS.put(CLIENT_ID, (b, v) -> b.clientId(v));
  }

  private DatabaseProperties() {}

  /** Every key this class knows. */
  public static Set<String> keys() {
    return new TreeSet<>(SETTERS.keySet());
  }

  /** {@link #builder(CloudServices, Map)} from {@link Properties}. */
  public static DatabaseConfig.Builder builder(CloudServices services, Properties properties) {
    Map<String, String> m = new TreeMap<>();
    for (String k : properties.stringPropertyNames()) {
      m.put(k, properties.getProperty(k));
    }
    return builder(services, m);
  }

  /**
   * A configuration builder with every {@value #PREFIX} setting of {@code properties} applied;
   * the caller may set more (index extractors, a clock) before building.
   *
   * @throws InvalidConfigurationException for a missing {@link #DATABASE_URI}, an unknown key under
   *     the prefix, or a value that does not parse or is out of range (the message names the key)
   */
  public static DatabaseConfig.Builder builder(
      CloudServices services, Map<String, String> properties) {
    Args.notNull(services, "services");
    Args.notNull(properties, "properties");
    String uri = properties.get(DATABASE_URI);
    if (uri == null || uri.isBlank()) {
      throw new InvalidConfigurationException("the property " + DATABASE_URI + " is required");
    }
    DatabaseConfig.Builder b;
    try {
      b = DatabaseConfig.builder(services, uri.trim());
    } catch (InvalidRequestException e) {
      throw new InvalidConfigurationException(DATABASE_URI + ": " + e.getMessage());
    }
    for (Map.Entry<String, String> e : new TreeMap<>(properties).entrySet()) {
      String key = e.getKey();
      if (!key.startsWith(PREFIX)) {
        continue;
      }
      BiConsumer<DatabaseConfig.Builder, String> setter = SETTERS.get(key);
      if (setter == null) {
        throw new InvalidConfigurationException(
            "unknown property "
                + Names.quote(key)
                + "; known: "
                + String.join(", ", SETTERS.keySet()));
      }
      String value = e.getValue() == null ? "" : e.getValue().trim();
      try {
        setter.accept(b, value);
      } catch (InvalidRequestException | IllegalArgumentException | ArithmeticException ex) {
        throw new InvalidConfigurationException(key + ": " + ex.getMessage());
      }
    }
    return b;
  }

  private static Duration duration(String key, String v) {
    Matcher m = SIMPLE_DURATION.matcher(v);
    if (m.matches()) {
      long n = Long.parseLong(m.group(1));
      return switch (m.group(2).toLowerCase(Locale.ROOT)) {
        case "ms" -> Duration.ofMillis(n);
        case "s" -> Duration.ofSeconds(n);
        case "m" -> Duration.ofMinutes(n);
        case "h" -> Duration.ofHours(n);
        default -> Duration.ofDays(n);
      };
    }
    try {
      return Duration.parse(v);
    } catch (DateTimeParseException e) {
      throw new InvalidConfigurationException(
          "not a duration: " + Names.quote(v) + " (e.g. 500ms, 45s, 2m, PT45S)");
    }
  }

  private static long size(String key, String v) {
    Matcher m = SIZE.matcher(v);
    if (!m.matches()) {
      throw new InvalidConfigurationException(
          "not a size: " + Names.quote(v) + " (e.g. 102400, 100k)");
    }
    long n = Long.parseLong(m.group(1));
    int shift =
        switch (m.group(2).toLowerCase(Locale.ROOT)) {
          case "k" -> 10;
          case "m" -> 20;
          case "g" -> 30;
          default -> 0;
        };
    if (n > (Long.MAX_VALUE >> shift)) {
      throw new InvalidConfigurationException("too large: " + Names.quote(v));
    }
    return n << shift;
  }

  private static long number(String key, String v) {
    try {
      return Long.parseLong(v);
    } catch (NumberFormatException e) {
      throw new InvalidConfigurationException("not a whole number: " + Names.quote(v));
    }
  }

  private static boolean bool(String key, String v) {
    if (v.equalsIgnoreCase("true") || v.equalsIgnoreCase("false")) {
      return Boolean.parseBoolean(v);
    }
    throw new InvalidConfigurationException("not true or false: " + Names.quote(v));
  }

  private static <E extends Enum<E>> E enumValue(Class<E> type, String key, String v) {
    for (E e : type.getEnumConstants()) {
      if (e.name().equalsIgnoreCase(v.replace('-', '_'))) {
        return e;
      }
    }
    StringBuilder known = new StringBuilder();
    for (E e : type.getEnumConstants()) {
      known.append(known.length() == 0 ? "" : ", ").append(e.name().toLowerCase(Locale.ROOT));
    }
    throw new InvalidConfigurationException("not one of " + known + ": " + Names.quote(v));
  }
}
