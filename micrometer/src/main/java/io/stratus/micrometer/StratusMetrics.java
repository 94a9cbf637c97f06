package io.stratus.micrometer;

import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tag;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.binder.BaseUnits;
import io.micrometer.core.instrument.binder.MeterBinder;
import io.stratus.InvalidRequestException;
import io.stratus.cloudapi.decorate.CloudMeter;
import io.stratus.cloudapi.decorate.PriceTable;
import io.stratus.core.Database;
import io.stratus.core.DatabaseStats;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.function.ToDoubleFunction;
import java.util.function.ToLongFunction;
import org.jspecify.annotations.Nullable;

/**
 * Publishes a {@link Database} handle's counters ({@link Database#stats()}) to a Micrometer {@link
 * MeterRegistry}, and, when given the {@link CloudMeter} its cloud calls pass through, the calls,
 * failures and bytes per cloud operation and what they cost under a {@link PriceTable}.
 *
 * <pre>{@code
 * CloudMeter meter = new CloudMeter();
 * CloudServices cloud = Decorators.wrap(services, new MeteringInterceptor(meter));
 * Database db = Database.open(DatabaseConfig.builder(cloud, "db/shop").build());
 * StratusMetrics.builder(db).cloudMeter(meter).priceTable(PriceTables.aws2026()).build()
 *     .bindTo(registry);
 * }</pre>
 *
 * <p>Every meter reads its value when the registry asks (a scrape, a publication step): nothing is
 * counted twice and no thread is started. Counters that only grow are {@link FunctionCounter}s,
 * levels are {@link Gauge}s. Every meter carries the tags {@value #TAG_DATABASE} (the database
 * URI) and {@value #TAG_CLIENT} (the handle's client id), and those given to the builder. The
 * handle's meters hold it weakly, as Micrometer's function meters do, so registering them does not
 * keep a discarded handle alive (they report NaN then); the registry keeps the cloud meter.
 *
 * <p>The meter names are the constants of this class, the one place they are defined:
 *
 * <table>
 *   <caption>Meters</caption>
 *   <tr><th>name</th><th>kind</th><th>extra tags</th><th>from</th></tr>
 *   <tr><td>{@value #COMMITS}</td><td>counter</td><td></td><td>{@link DatabaseStats#commits()}</td></tr>
 *   <tr><td>{@value #COMMITS_FAILED}</td><td>counter</td><td></td>
 *       <td>{@link DatabaseStats#failedCommits()}</td></tr>
 *   <tr><td>{@value #COMMITS_UNKNOWN}</td><td>counter</td><td></td>
 *       <td>{@link DatabaseStats#unknownCommits()}</td></tr>
 *   <tr><td>{@value #ABORTS}</td><td>counter</td><td></td><td>{@link DatabaseStats#aborts()}</td></tr>
 *   <tr><td>{@value #RETRIES}</td><td>counter</td><td></td><td>{@link DatabaseStats#retries()}</td></tr>
 *   <tr><td>{@value #PAGES_WRITTEN}</td><td>counter</td><td></td>
 *       <td>{@link DatabaseStats#pagesWritten()}</td></tr>
 *   <tr><td>{@value #CHECKPOINTS}</td><td>counter</td><td></td>
 *       <td>{@link DatabaseStats#checkpointsRun()}</td></tr>
 *   <tr><td>{@value #CHECKPOINTS_FAILED}</td><td>counter</td><td></td>
 *       <td>{@link DatabaseStats#checkpointsFailed()}</td></tr>
 *   <tr><td>{@value #CHECKPOINTS_OWED}</td><td>gauge</td><td></td>
 *       <td>{@link DatabaseStats#owedCheckpoints()}</td></tr>
 *   <tr><td>{@value #PENDING_OWN_WRITES}</td><td>gauge</td><td></td>
 *       <td>{@link DatabaseStats#pendingOwnWrites()}</td></tr>
 *   <tr><td>{@value #RECORDS_WAITING_FOR_ROOM}</td><td>gauge</td><td></td>
 *       <td>{@link DatabaseStats#recordsWaitingForRoom()}</td></tr>
 *   <tr><td>{@value #BACKGROUND_FAILURES}</td><td>counter</td><td></td>
 *       <td>{@link DatabaseStats#backgroundFailures()}</td></tr>
 *   <tr><td>{@value #CORRUPT_MESSAGES}</td><td>counter</td><td></td>
 *       <td>{@link DatabaseStats#corruptMessages()}</td></tr>
 *   <tr><td>{@value #CORRUPT_PAGES}</td><td>counter</td><td></td>
 *       <td>{@link DatabaseStats#corruptPages()}</td></tr>
 *   <tr><td>{@value #DEAD_LETTERED}</td><td>counter</td><td></td>
 *       <td>{@link DatabaseStats#deadLettered()}</td></tr>
 *   <tr><td>{@value #CACHE_REQUESTS}</td><td>counter</td><td>{@code result}: hit, miss, refresh,
 *       coalesced</td><td>{@link DatabaseStats#bufferPool()}</td></tr>
 *   <tr><td>{@value #CACHE_EVICTIONS}</td><td>counter</td><td></td>
 *       <td>{@link DatabaseStats#bufferPool()}</td></tr>
 *   <tr><td>{@value #CACHE_PAGES}, {@value #CACHE_BYTES}</td><td>gauge</td><td></td>
 *       <td>{@link DatabaseStats#bufferPool()}</td></tr>
 *   <tr><td>{@value #CLOUD_REQUESTS}, {@value #CLOUD_FAILURES}</td><td>counter</td>
 *       <td>{@code service}, {@code operation}</td><td>{@link CloudMeter}</td></tr>
 *   <tr><td>{@value #CLOUD_BYTES}</td><td>counter</td><td>{@code direction}: sent, received</td>
 *       <td>{@link CloudMeter}</td></tr>
 *   <tr><td>{@value #CLOUD_COST}</td><td>counter (dollars)</td><td>{@code service}, {@code
 *       operation}, {@code price.table}</td><td>{@link CloudMeter} and {@link PriceTable}</td></tr>
 *   <tr><td>{@value #CLOUD_TRANSFER_COST}</td><td>counter (dollars)</td><td>{@code direction},
 *       {@code price.table}</td><td>{@link CloudMeter} and {@link PriceTable}</td></tr>
 * </table>
 *
 * <p>Operation and service tag values are the enum names in lower case ({@code storage_put},
 * {@code simple_queue}). Every operation gets its meters, called or not, so that a series never
 * appears half-way through a run. Immutable and thread-safe; binding to several registries is
 * fine.
 */
public final class StratusMetrics implements MeterBinder {
  /** Tag: the database URI. */
  public static final String TAG_DATABASE = "database";

  /** Tag: the handle's client id. */
  public static final String TAG_CLIENT = "client";

  /** Transactions committed (read-only ones included). */
  public static final String COMMITS = "stratus.commits";

  /** Commits that failed, of every kind. */
  public static final String COMMITS_FAILED = "stratus.commits.failed";

  /** Failed commits whose outcome is unknown (they may have taken effect). */
  public static final String COMMITS_UNKNOWN = "stratus.commits.unknown";

  /** Transactions the application aborted. */
  public static final String ABORTS = "stratus.aborts";

  /** Attempts of {@code db.run} / {@code db.read} that failed retryably and ran again. */
  public static final String RETRIES = "stratus.retries";

  /** Pages the commit protocol wrote. */
  public static final String PAGES_WRITTEN = "stratus.pages.written";

  /** Background checkpoints run. */
  public static final String CHECKPOINTS = "stratus.checkpoints";

  /** Background checkpoints that gave up or failed. */
  public static final String CHECKPOINTS_FAILED = "stratus.checkpoints.failed";

  /** Queues owed a checkpoint by this handle (a level). */
  public static final String CHECKPOINTS_OWED = "stratus.checkpoints.owed";

  /** Committed records overlaid on this handle's reads until applied (a level). */
  public static final String PENDING_OWN_WRITES = "stratus.pending.own.writes";

  /** Committed records whose writer's chain waits for room in a page header (a level). */
  public static final String RECORDS_WAITING_FOR_ROOM = "stratus.records.waiting.for.room";

  /** Failures of background work other than checkpoints. */
  public static final String BACKGROUND_FAILURES = "stratus.background.failures";

  /** Distinct damaged queue messages found. */
  public static final String CORRUPT_MESSAGES = "stratus.corrupt.messages";

  /** Distinct corrupt pages found by checkpoints. */
  public static final String CORRUPT_PAGES = "stratus.corrupt.pages";

  /** Damaged messages moved into the dead-letter area. */
  public static final String DEAD_LETTERED = "stratus.dead.lettered";

  /** Buffer-pool fetches, tagged by {@code result}. */
  public static final String CACHE_REQUESTS = "stratus.cache.requests";

  /** Pages the buffer pool dropped to stay within its bound. */
  public static final String CACHE_EVICTIONS = "stratus.cache.evictions";

  /** Pages in the buffer pool (a level). */
  public static final String CACHE_PAGES = "stratus.cache.pages";

  /** Bytes the buffer pool's pages take at most (a level). */
  public static final String CACHE_BYTES = "stratus.cache.bytes";

  /** Cloud calls, per operation. */
  public static final String CLOUD_REQUESTS = "stratus.cloud.requests";

  /** Cloud calls that failed, per operation. */
  public static final String CLOUD_FAILURES = "stratus.cloud.failures";

  /** Payload bytes moved, per direction. */
  public static final String CLOUD_BYTES = "stratus.cloud.bytes";

  /** Dollars the cloud calls cost under the price table, per operation. */
  public static final String CLOUD_COST = "stratus.cloud.cost";

  /** Dollars the transfer cost under the price table, per direction. */
  public static final String CLOUD_TRANSFER_COST = "stratus.cloud.transfer.cost";

  /** The base unit of the cost meters. */
  public static final String DOLLARS = "dollars";

  private final Database db;
  private final @Nullable CloudMeter cloudMeter;
  private final @Nullable PriceTable priceTable;
  private final Tags tags;

  private StratusMetrics(Builder b) {
    this.db = b.db;
    this.cloudMeter = b.cloudMeter;
    this.priceTable = b.priceTable;
    this.tags =
        Tags.of(TAG_DATABASE, b.db.config().databaseUri())
            .and(TAG_CLIENT, b.db.config().clientId())
            .and(b.tags);
  }

  /** A builder for the metrics of {@code db}. */
  public static Builder builder(Database db) {
    return new Builder(db);
  }

  /** The tags every meter carries. */
  public Tags tags() {
    return tags;
  }

  @Override
  public void bindTo(MeterRegistry registry) {
    counter(registry, COMMITS, "transactions committed", DatabaseStats::commits);
    counter(registry, COMMITS_FAILED, "commits that failed", DatabaseStats::failedCommits);
    counter(
        registry,
        COMMITS_UNKNOWN,
        "failed commits whose outcome is unknown",
        DatabaseStats::unknownCommits);
    counter(registry, ABORTS, "transactions aborted by the application", DatabaseStats::aborts);
    counter(registry, RETRIES, "transaction attempts run again", DatabaseStats::retries);
    counter(registry, PAGES_WRITTEN, "pages written by commits", DatabaseStats::pagesWritten);
    counter(registry, CHECKPOINTS, "background checkpoints run", DatabaseStats::checkpointsRun);
    counter(
        registry,
        CHECKPOINTS_FAILED,
        "background checkpoints that gave up or failed",
        DatabaseStats::checkpointsFailed);
    gauge(
        registry,
        CHECKPOINTS_OWED,
        "queues owed a checkpoint by this handle",
        DatabaseStats::owedCheckpoints);
    gauge(
        registry,
        PENDING_OWN_WRITES,
        "committed records overlaid on this handle's reads",
        DatabaseStats::pendingOwnWrites);
    gauge(
        registry,
        RECORDS_WAITING_FOR_ROOM,
        "committed records whose writer chain waits for room in a page header",
        DatabaseStats::recordsWaitingForRoom);
    counter(
        registry,
        BACKGROUND_FAILURES,
        "failures of background work other than checkpoints",
        DatabaseStats::backgroundFailures);
    counter(
        registry, CORRUPT_MESSAGES, "damaged queue messages found", DatabaseStats::corruptMessages);
    counter(registry, CORRUPT_PAGES, "corrupt pages found", DatabaseStats::corruptPages);
    counter(
        registry,
        DEAD_LETTERED,
        "messages moved to the dead-letter area",
        DatabaseStats::deadLettered);
    cacheMeters(registry);
    if (cloudMeter != null) {
      new CloudMeters(cloudMeter, priceTable, tags).bindTo(registry);
    }
  }

  private void cacheMeters(MeterRegistry registry) {
    String fetches = "buffer-pool fetches";
    counter(
        registry, CACHE_REQUESTS, fetches, Tags.of("result", "hit"), s -> s.bufferPool().hits());
    counter(
        registry, CACHE_REQUESTS, fetches, Tags.of("result", "miss"), s -> s.bufferPool().misses());
    counter(
        registry,
        CACHE_REQUESTS,
        fetches,
        Tags.of("result", "refresh"),
        s -> s.bufferPool().refreshes());
    counter(
        registry,
        CACHE_REQUESTS,
        fetches,
        Tags.of("result", "coalesced"),
        s -> s.bufferPool().coalesced());
    counter(
        registry,
        CACHE_EVICTIONS,
        "pages dropped from the buffer pool",
        Tags.empty(),
        s -> s.bufferPool().evictions());
    gauge(registry, CACHE_PAGES, "pages in the buffer pool", s -> s.bufferPool().pagesCached());
    Gauge.builder(CACHE_BYTES, db, d -> d.stats().bufferPool().bytesCached())
        .description("bytes the buffer pool's pages take at most")
        .baseUnit(BaseUnits.BYTES)
        .tags(tags)
        .register(registry);
  }

  private void counter(
      MeterRegistry registry,
      String name,
      String description,
      ToLongFunction<DatabaseStats> value) {
    counter(registry, name, description, Tags.empty(), value);
  }

  private void counter(
      MeterRegistry registry,
      String name,
      String description,
      Tags extra,
      ToLongFunction<DatabaseStats> value) {
    FunctionCounter.builder(name, db, d -> value.applyAsLong(d.stats()))
        .description(description)
        .tags(tags)
        .tags(extra)
        .register(registry);
  }

  private void gauge(
      MeterRegistry registry,
      String name,
      String description,
      ToLongFunction<DatabaseStats> value) {
    Gauge.builder(name, db, (ToDoubleFunction<Database>) d -> value.applyAsLong(d.stats()))
        .description(description)
        .tags(tags)
        .register(registry);
  }

  /** The lower-case tag value of an enum constant. */
  static String tagValue(Enum<?> e) {
    return e.name().toLowerCase(Locale.ROOT);
  }

  /** Chooses what to publish besides the handle's counters. */
  public static final class Builder {
    private final Database db;
    private @Nullable CloudMeter cloudMeter;
    private @Nullable PriceTable priceTable;
    private final List<Tag> tags = new ArrayList<>();

    private Builder(Database db) {
      if (db == null) {
        throw new InvalidRequestException("db must not be null");
      }
      this.db = db;
    }

    /**
     * The meter the handle's cloud calls pass through (a {@link
     * io.stratus.cloudapi.decorate.MeteringInterceptor} on its services): publishes calls,
     * failures and bytes per operation. Without it, no cloud meters.
     */
    public Builder cloudMeter(CloudMeter meter) {
      if (meter == null) {
        throw new InvalidRequestException("meter must not be null");
      }
      this.cloudMeter = meter;
      return this;
    }

    /**
     * Also publishes what the metered calls cost under {@code table}, e.g. {@link
     * io.stratus.cloudapi.decorate.PriceTables#aws2026()}. Needs {@link #cloudMeter}.
     */
    public Builder priceTable(PriceTable table) {
      if (table == null) {
        throw new InvalidRequestException("table must not be null");
      }
      this.priceTable = table;
      return this;
    }

    /** Adds a tag to every meter (e.g. the application's name). */
    public Builder tag(String key, String value) {
      if (key == null || key.isBlank() || value == null) {
        throw new InvalidRequestException("a tag needs a key and a value: " + key + "=" + value);
      }
      if (key.equals(TAG_DATABASE) || key.equals(TAG_CLIENT)) {
        throw new InvalidRequestException("the tag " + key + " is set from the handle");
      }
      tags.add(Tag.of(key, value));
      return this;
    }

    /**
     * The binder.
     *
     * @throws InvalidRequestException when a price table is given without a cloud meter (there
     *     would be no calls to price)
     */
    public StratusMetrics build() {
      if (priceTable != null && cloudMeter == null) {
        throw new InvalidRequestException(
            "a price table needs a cloud meter: the cost is that of"
                + " the metered calls (set cloudMeter too)");
      }
      return new StratusMetrics(this);
    }
  }
}
