package io.stratus.spring.boot;

import io.stratus.core.DatabaseProperties;
import io.stratus.protocols.Setting;
import io.stratus.protocols.Settings;
import java.time.Duration;
import java.util.Map;
import java.util.TreeMap;
import org.jspecify.annotations.Nullable;
import org.springframework.beans.BeanWrapper;
import org.springframework.beans.BeanWrapperImpl;
import org.springframework.boot.context.properties.ConfigurationProperties;

/**
 * The {@code stratus.*} settings of a Spring application: where the cloud is ({@code
 * stratus.cloud.*}), the database's settings (the keys of {@link DatabaseProperties}, same names,
 * same value syntax), and what to publish ({@code stratus.metrics.*}).
 *
 * <p>Why the database settings are strings: {@link DatabaseProperties} parses and checks them, so a
 * Spring application and one configured from a properties file accept exactly the same values
 * ({@code 45s}, {@code 100k}, ...) and get the same error, naming the key, for a bad one; this
 * class only carries them there ({@link #databaseSettings()}). Unknown keys under {@code stratus.}
 * fail the start-up, as they do for {@link DatabaseProperties}: a misspelt setting silently
 * ignored is a setting that silently does not apply. Unset values keep the library's defaults.
 *
 * <p>The database properties here are the shape Spring binds (relaxed names, unknown-key checks,
 * IDE metadata) of the table of {@link Settings}, which holds each setting's default, the values
 * it accepts and its documentation; {@link #databaseSettings()} reads them by that table's keys,
 * and a test checks that the two name the same settings.
 */
@ConfigurationProperties(prefix = "stratus", ignoreUnknownFields = false)
public class StratusProperties {
  /** Whether to create the Stratus beans at all. */
  private boolean enabled = true;

  /** The database's URI prefix (required), e.g. db/shop. */
  private @Nullable String databaseUri;

  /** The commit protocol. */
  private @Nullable String protocol;

  /** The page size: bytes, or with k, m, g. */
  private @Nullable String pageSize;

  /** The buffer pool's time to live: 500ms, 45s, 2m, 1h or ISO-8601. */
  private @Nullable String ttl;

  /** The buffer pool's bound on cached bytes: a size. */
  private @Nullable String poolBytes;

  /** Whether the buffer pool never goes back to an older page version. */
  private @Nullable Boolean monotonicReads;

  /** Monotonic and atomic protocols: commits of one handle numbered and sent at once. */
  private @Nullable Integer writerLanes;

  /** This client's id, unique among the database's clients. */
  private @Nullable String clientId;

  private final Checkpoint checkpoint = new Checkpoint();
  private final Atomic atomic = new Atomic();
  private final Isolation isolation = new Isolation();
  private final Cloud cloud = new Cloud();
  private final Metrics metrics = new Metrics();

  /** The defaults; Spring binds the {@code stratus.*} properties to it. */
  public StratusProperties() {}

  /**
   * The database settings as {@link DatabaseProperties} keys and values, the unset ones left out
   * (so that the library's defaults apply). The keys come from {@link Settings}: each is read from
   * the property of this class with the same name.
   *
   * @throws IllegalStateException a setting has no property here (a test checks there is none)
   */
  public Map<String, String> databaseSettings() {
    BeanWrapper bean = new BeanWrapperImpl(this);
    Map<String, String> m = new TreeMap<>();
    for (Setting<?> setting : Settings.all()) {
      String path = propertyPath(setting.key());
      if (!bean.isReadableProperty(path)) {
        throw new IllegalStateException("no property " + setting.key() + " in " + getClass());
      }
      Object value = bean.getPropertyValue(path);
      if (value != null && !value.toString().isBlank()) {
        m.put(setting.key(), value.toString());
      }
    }
    return m;
  }

  /** {@code stratus.checkpoint.lock-timeout} as a bean path: {@code checkpoint.lockTimeout}. */
  static String propertyPath(String key) {
    StringBuilder b = new StringBuilder();
    boolean upper = false;
    for (char c : key.substring(DatabaseProperties.PREFIX.length()).toCharArray()) {
      if (c == '-') {
        upper = true;
      } else {
        b.append(upper ? Character.toUpperCase(c) : c);
        upper = false;
      }
    }
    return b.toString();
  }

  public boolean isEnabled() {
    return enabled;
  }

  public void setEnabled(boolean enabled) {
    this.enabled = enabled;
  }

  public @Nullable String getDatabaseUri() {
    return databaseUri;
  }

  public void setDatabaseUri(@Nullable String databaseUri) {
    this.databaseUri = databaseUri;
  }

  public @Nullable String getProtocol() {
    return protocol;
  }

  public void setProtocol(@Nullable String protocol) {
    this.protocol = protocol;
  }

  public @Nullable String getPageSize() {
    return pageSize;
  }

  public void setPageSize(@Nullable String pageSize) {
    this.pageSize = pageSize;
  }

  public @Nullable String getTtl() {
    return ttl;
  }

  public void setTtl(@Nullable String ttl) {
    this.ttl = ttl;
  }

  public @Nullable String getPoolBytes() {
    return poolBytes;
  }

  public void setPoolBytes(@Nullable String poolBytes) {
    this.poolBytes = poolBytes;
  }

  public @Nullable Boolean getMonotonicReads() {
    return monotonicReads;
  }

  public void setMonotonicReads(@Nullable Boolean monotonicReads) {
    this.monotonicReads = monotonicReads;
  }

  public @Nullable Integer getWriterLanes() {
    return writerLanes;
  }

  public void setWriterLanes(@Nullable Integer writerLanes) {
    this.writerLanes = writerLanes;
  }

  public @Nullable String getClientId() {
    return clientId;
  }

  public void setClientId(@Nullable String clientId) {
    this.clientId = clientId;
  }

  public Checkpoint getCheckpoint() {
    return checkpoint;
  }

  public Atomic getAtomic() {
    return atomic;
  }

  public Isolation getIsolation() {
    return isolation;
  }

  public Cloud getCloud() {
    return cloud;
  }

  public Metrics getMetrics() {
    return metrics;
  }

  /** {@code stratus.checkpoint.*}: the queue protocols' checkpoints. */
  public static class Checkpoint {
    /** The checkpoint interval: a duration. */
    private @Nullable String interval;

    /** The lease on a queue's lock, also a checkpoint's visibility timeout. */
    private @Nullable String lockTimeout;

    /** The lease a checkpoint must have left to still put pages. */
    private @Nullable String propagationPeriod;

    /** The most log records one checkpoint applies. */
    private @Nullable Integer maxRecords;

    /** How checkpoints put pages: auto, conditional or timing_only. */
    private @Nullable String writes;

    /** The most a close spends checkpointing what the handle owes (0s: nothing). */
    private @Nullable String closeTimeout;

    /** The seed of the reader-side checkpoint decisions. */
    private @Nullable Long seed;

    /** The defaults; Spring binds the {@code stratus.checkpoint.*} properties to it. */
    public Checkpoint() {}

    public @Nullable Long getSeed() {
      return seed;
    }

    public void setSeed(@Nullable Long seed) {
      this.seed = seed;
    }

    public @Nullable String getCloseTimeout() {
      return closeTimeout;
    }

    public void setCloseTimeout(@Nullable String closeTimeout) {
      this.closeTimeout = closeTimeout;
    }

    public @Nullable String getInterval() {
      return interval;
    }

    public void setInterval(@Nullable String interval) {
      this.interval = interval;
    }

    public @Nullable String getLockTimeout() {
      return lockTimeout;
    }

    public void setLockTimeout(@Nullable String lockTimeout) {
      this.lockTimeout = lockTimeout;
    }

    public @Nullable String getPropagationPeriod() {
      return propagationPeriod;
    }

    public void setPropagationPeriod(@Nullable String propagationPeriod) {
      this.propagationPeriod = propagationPeriod;
    }

    public @Nullable Integer getMaxRecords() {
      return maxRecords;
    }

    public void setMaxRecords(@Nullable Integer maxRecords) {
      this.maxRecords = maxRecords;
    }

    public @Nullable String getWrites() {
      return writes;
    }

    public void setWrites(@Nullable String writes) {
      this.writes = writes;
    }
  }

  /** {@code stratus.atomic.*}. */
  public static class Atomic {
    /** The age after which losers and abandoned commits are settled: a duration. */
    private @Nullable String timeout;

    /** The defaults; Spring binds the {@code stratus.atomic.*} properties to it. */
    public Atomic() {}

    public @Nullable String getTimeout() {
      return timeout;
    }

    public void setTimeout(@Nullable String timeout) {
      this.timeout = timeout;
    }
  }

  /** {@code stratus.isolation.*}: the snapshot and locking protocols. */
  public static class Isolation {
    /** The longest a transaction may run. */
    private @Nullable String transactionTimeout;

    /** The lease of record locks and commit ids. */
    private @Nullable String leaseTimeout;

    /** How long read-only transactions reuse a snapshot. */
    private @Nullable String snapshotReuse;

    /** The defaults; Spring binds the {@code stratus.isolation.*} properties to it. */
    public Isolation() {}

    public @Nullable String getTransactionTimeout() {
      return transactionTimeout;
    }

    public void setTransactionTimeout(@Nullable String transactionTimeout) {
      this.transactionTimeout = transactionTimeout;
    }

    public @Nullable String getLeaseTimeout() {
      return leaseTimeout;
    }

    public void setLeaseTimeout(@Nullable String leaseTimeout) {
      this.leaseTimeout = leaseTimeout;
    }

    public @Nullable String getSnapshotReuse() {
      return snapshotReuse;
    }

    public void setSnapshotReuse(@Nullable String snapshotReuse) {
      this.snapshotReuse = snapshotReuse;
    }
  }

  /** The clouds the auto-configuration can connect to. */
  public enum CloudKind {
    /** A cloud inside this JVM: nothing to set up, nothing kept after the application stops. */
    INPROCESS,
    /** LocalStack (S3, SQS) at {@code stratus.cloud.endpoint}, with its test credentials. */
    LOCALSTACK,
    /** AWS with the default credential chain. */
    AWS
  }

  /** {@code stratus.cloud.*}: where the database lives. */
  public static class Cloud {
    /** inprocess, localstack or aws. */
    private CloudKind kind = CloudKind.INPROCESS;

    /** LocalStack's endpoint, e.g. http://localhost:4566 (localstack only). */
    private @Nullable String endpoint;

    /** The AWS region. */
    private String region = "us-east-1";

    /** The bucket holding the pages (required on localstack and aws). */
    private @Nullable String bucket;

    /** Whether to create the bucket when it is missing (always done on localstack). */
    private boolean createBucket;

    /** Key prefix of the pages in the bucket (default items/). */
    private @Nullable String keyPrefix;

    /** SQS queue-name prefix (default stratus-). */
    private @Nullable String queuePrefix;

    /** Where simple queues live: sqs or s3. */
    private String queueBackend = "sqs";

    private final ZooKeeper zookeeper = new ZooKeeper();

    /** The defaults; Spring binds the {@code stratus.cloud.*} properties to it. */
    public Cloud() {}

    public CloudKind getKind() {
      return kind;
    }

    public void setKind(CloudKind kind) {
      this.kind = kind;
    }

    public @Nullable String getEndpoint() {
      return endpoint;
    }

    public void setEndpoint(@Nullable String endpoint) {
      this.endpoint = endpoint;
    }

    public String getRegion() {
      return region;
    }

    public void setRegion(String region) {
      this.region = region;
    }

    public @Nullable String getBucket() {
      return bucket;
    }

    public void setBucket(@Nullable String bucket) {
      this.bucket = bucket;
    }

    public boolean isCreateBucket() {
      return createBucket;
    }

    public void setCreateBucket(boolean createBucket) {
      this.createBucket = createBucket;
    }

    public @Nullable String getKeyPrefix() {
      return keyPrefix;
    }

    public void setKeyPrefix(@Nullable String keyPrefix) {
      this.keyPrefix = keyPrefix;
    }

    public @Nullable String getQueuePrefix() {
      return queuePrefix;
    }

    public void setQueuePrefix(@Nullable String queuePrefix) {
      this.queuePrefix = queuePrefix;
    }

    public String getQueueBackend() {
      return queueBackend;
    }

    public void setQueueBackend(String queueBackend) {
      this.queueBackend = queueBackend;
    }

    public ZooKeeper getZookeeper() {
      return zookeeper;
    }
  }

  /** {@code stratus.cloud.zookeeper.*}: locks, counters and advanced queues on ZooKeeper. */
  public static class ZooKeeper {
    /** The ensemble, host:port[,host:port...]; unset: those services come from this JVM. */
    private @Nullable String connectString;

    /** The clients' ZooKeeper namespace (default stratus). */
    private @Nullable String namespace;

    /**
     * How long locks and counters are refused after this client finds the namespace empty (a new
     * or wiped ensemble): 0s when creating a deployment; default the adapter's (the longest
     * timeout plus the clock skew), which protects clients that held locks in a lost namespace.
     */
    private @Nullable Duration freshNamespaceRefusal;

    /** The defaults; Spring binds the {@code stratus.cloud.zookeeper.*} properties to it. */
    public ZooKeeper() {}

    public @Nullable String getConnectString() {
      return connectString;
    }

    public void setConnectString(@Nullable String connectString) {
      this.connectString = connectString;
    }

    public @Nullable String getNamespace() {
      return namespace;
    }

    public void setNamespace(@Nullable String namespace) {
      this.namespace = namespace;
    }

    public @Nullable Duration getFreshNamespaceRefusal() {
      return freshNamespaceRefusal;
    }

    public void setFreshNamespaceRefusal(@Nullable Duration freshNamespaceRefusal) {
      this.freshNamespaceRefusal = freshNamespaceRefusal;
    }
  }

  /** {@code stratus.metrics.*}: what the Micrometer binder publishes. */
  public static class Metrics {
    /** Whether to publish the database's meters when Micrometer is present. */
    private boolean enabled = true;

    /** Whether to count the cloud calls (a metering decorator on the services). */
    private boolean cloudRequests = true;

    /** The prices of the cost meters: aws2026, paper2008 or none. */
    private String priceTable = "aws2026";

    /** The defaults; Spring binds the {@code stratus.metrics.*} properties to it. */
    public Metrics() {}

    public boolean isEnabled() {
      return enabled;
    }

    public void setEnabled(boolean enabled) {
      this.enabled = enabled;
    }

    public boolean isCloudRequests() {
      return cloudRequests;
    }

    public void setCloudRequests(boolean cloudRequests) {
      this.cloudRequests = cloudRequests;
    }

    public String getPriceTable() {
      return priceTable;
    }

    public void setPriceTable(String priceTable) {
      this.priceTable = priceTable;
    }
  }
}
