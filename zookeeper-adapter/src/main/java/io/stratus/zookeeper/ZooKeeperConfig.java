package io.stratus.zookeeper;

import io.stratus.cloudapi.CloudLimits;
import java.time.Clock;
import java.time.Duration;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import org.apache.zookeeper.ZooDefs;
import org.apache.zookeeper.common.PathUtils;
import org.apache.zookeeper.data.ACL;
import org.apache.zookeeper.data.Id;
import org.jspecify.annotations.Nullable;

/**
 * How to reach a ZooKeeper ensemble and how the Cloud API services on it behave.
 *
 * <p>Why each time setting is here:
 *
 * <ul>
 *   <li>The <b>clock</b> decides every lease and every automatic validation: a lock lapses, and a
 *       counter value validates, once {@code recorded instant + timeout + maxClockSkew} is not
 *       after {@code clock.instant()}. ZooKeeper has no leases that end while a session lives on,
 *       so the adapter records instants in the znodes and judges them on this clock; tests inject
 *       a {@code ManualClock} and never sleep.
 *   <li><b>maxClockSkew</b> is how far the clocks of two clients may disagree. A holder treats its
 *       lock as lapsed at the instant it sent the request plus the timeout, on its own clock; every
 *       other client waits the skew longer before it takes the lock over. Zero is right only when
 *       all clients share one clock (tests).
 *   <li><b>freshNamespaceRefusal</b>: a namespace that was set up before and is found empty lost
 *       its locks and counters while clients may still hold leases (paper 000, section 2.3.5: a
 *       lock or counter service that lost its state refuses requests for the longest timeout), so
 *       requests are refused for this long. A namespace never set up before is a new deployment
 *       and refuses nothing. An ensemble that lost all its data looks new (its marker is gone
 *       too): keep clients away from it for this period when bringing it back.
 * </ul>
 *
 * <p>Access control: with {@link Builder#digestCredentials digest credentials} the client
 * authenticates with ZooKeeper's {@code digest} scheme and every znode it creates (the namespace
 * and its ancestors included) carries an ACL that admits only that identity (all permissions),
 * plus read access for an optional {@link Builder#extraReader extra reader} such as a monitoring
 * identity. Without credentials the znodes are open to every client, which suits only an ensemble
 * that nothing else can reach. The password is kept only to authenticate and never printed.
 *
 * <p>Immutable; {@link Builder#build()} validates every setting once.
 */
public final class ZooKeeperConfig {
  /** Default ZooKeeper session timeout: 20 s (the server bounds it to 2 to 20 ticks). */
  public static final Duration DEFAULT_SESSION_TIMEOUT = Duration.ofSeconds(20);

  /** Default time to wait for a connection: 10 s. */
  public static final Duration DEFAULT_CONNECTION_TIMEOUT = Duration.ofSeconds(10);

  /** Default first back-off of Curator's connection retries: 100 ms, doubling per retry. */
  public static final Duration DEFAULT_RETRY_BASE_SLEEP = Duration.ofMillis(100);

  /** Default number of Curator connection retries: 5. */
  public static final int DEFAULT_RETRY_MAX_RETRIES = 5;

  /** Default namespace: every znode of the adapter lives under {@code /stratus}. */
  public static final String DEFAULT_NAMESPACE = "stratus";

  /** Default lock timeout of URIs under no configured prefix: 60 s (as the in-process cloud). */
  public static final Duration DEFAULT_LOCK_TIMEOUT = Duration.ofSeconds(60);

  /** Default counter validation timeout of URIs under no configured prefix: 60 s. */
  public static final Duration DEFAULT_COUNTER_TIMEOUT = Duration.ofSeconds(60);

  /** Default bound on the disagreement of two clients' clocks: 1 s (NTP does far better). */
  public static final Duration DEFAULT_MAX_CLOCK_SKEW = Duration.ofSeconds(1);

  /**
   * The largest advanced-queue payload one znode takes: 1,000,000 bytes. A request larger than the
   * server's {@code jute.maxbuffer} (1,048,575 bytes by default, path included) makes the server
   * drop the connection, so payloads stay clear of it by room for the longest path.
   */
  public static final int MAX_ZNODE_PAYLOAD = 1_000_000;

  /** The ZooKeeper authentication scheme of {@link Builder#digestCredentials}. */
  public static final String DIGEST_SCHEME = "digest";

  private final String connectString;
  private final Duration sessionTimeout;
  private final Duration connectionTimeout;
  private final Duration retryBaseSleep;
  private final int retryMaxRetries;
  private final String namespace;
  private final Clock clock;
  private final Duration defaultLockTimeout;
  private final Duration defaultCounterTimeout;
  private final Duration maxClockSkew;
  private final Duration freshNamespaceRefusal;
  private final CloudLimits limits;

  /** Null: no authentication, open ACLs. */
  private final @Nullable DigestCredentials credentials;

  /** Null: nobody else may read. */
  private final @Nullable Id extraReader;

  private final List<ACL> acl;

  private ZooKeeperConfig(Builder b) {
    this.connectString = b.connectString;
    this.sessionTimeout = b.sessionTimeout;
    this.connectionTimeout = b.connectionTimeout;
    this.retryBaseSleep = b.retryBaseSleep;
    this.retryMaxRetries = b.retryMaxRetries;
    this.namespace = b.namespace;
    this.clock = b.clock;
    this.defaultLockTimeout = b.defaultLockTimeout;
    this.defaultCounterTimeout = b.defaultCounterTimeout;
    this.maxClockSkew = b.maxClockSkew;
    this.freshNamespaceRefusal =
        b.freshNamespaceRefusal != null
            ? b.freshNamespaceRefusal
            : max(b.defaultLockTimeout, b.defaultCounterTimeout).plus(b.maxClockSkew);
    // A payload limit above what a znode holds would turn a too-large send into a dropped
    // connection; the service reports the limit it enforces.
    this.limits =
        b.limits.maxAdvancedMessageSize() <= MAX_ZNODE_PAYLOAD
            ? b.limits
            : b.limits.toBuilder().maxAdvancedMessageSize(MAX_ZNODE_PAYLOAD).build();
    this.credentials = b.credentials;
    this.extraReader = b.extraReader;
    // Not List.of: ZooKeeper's client asks the list whether it contains null, which List.of's
    // lists answer with a NullPointerException.
    this.acl =
        credentials == null
            ? ZooDefs.Ids.OPEN_ACL_UNSAFE
            : Collections.unmodifiableList(
                extraReader == null
                    ? Arrays.asList(credentials.fullAccess())
                    : Arrays.asList(
                        credentials.fullAccess(), new ACL(ZooDefs.Perms.READ, extraReader)));
  }

  /** A builder for the ensemble at {@code connectString} ("host:port,host:port"). */
  public static Builder builder(String connectString) {
    return new Builder(connectString);
  }

  public String connectString() {
    return connectString;
  }

  public Duration sessionTimeout() {
    return sessionTimeout;
  }

  public Duration connectionTimeout() {
    return connectionTimeout;
  }

  public Duration retryBaseSleep() {
    return retryBaseSleep;
  }

  public int retryMaxRetries() {
    return retryMaxRetries;
  }

  /** The namespace, without leading slash: the adapter's znodes live under {@code /namespace}. */
  public String namespace() {
    return namespace;
  }

  public Clock clock() {
    return clock;
  }

  public Duration defaultLockTimeout() {
    return defaultLockTimeout;
  }

  public Duration defaultCounterTimeout() {
    return defaultCounterTimeout;
  }

  public Duration maxClockSkew() {
    return maxClockSkew;
  }

  /** How long requests are refused when a namespace set up before is found empty. */
  public Duration freshNamespaceRefusal() {
    return freshNamespaceRefusal;
  }

  /** The limits the services enforce; the advanced-message size is at most one znode's. */
  public CloudLimits limits() {
    return limits;
  }

  /** The user of the digest credentials, when the client authenticates. */
  public Optional<String> digestUser() {
    return credentials == null ? Optional.empty() : Optional.of(credentials.user());
  }

  /** The extra identity granted read access, as {@code scheme:id}, when one is configured. */
  public Optional<String> extraReader() {
    return extraReader == null
        ? Optional.empty()
        : Optional.of(extraReader.getScheme() + ":" + extraReader.getId());
  }

  /** The credentials to authenticate with, or null; for {@link ZooKeeperCloud} only. */
  @Nullable DigestCredentials credentials() {
    return credentials;
  }

  /** The ACL of every znode the adapter creates (open when no credentials are configured). */
  List<ACL> acl() {
    return acl;
  }

  @Override
  public String toString() {
    return "ZooKeeperConfig{"
        + connectString
        + ", namespace=/"
        + namespace
        + ", auth="
        + (credentials == null ? "none" : credentials)
        + (extraReader == null ? "" : ", extraReader=" + extraReader().orElseThrow())
        + ", sessionTimeout="
        + sessionTimeout
        + ", connectionTimeout="
        + connectionTimeout
        + ", retry="
        + retryBaseSleep
        + " x"
        + retryMaxRetries
        + ", lockTimeout="
        + defaultLockTimeout
        + ", counterTimeout="
        + defaultCounterTimeout
        + ", maxClockSkew="
        + maxClockSkew
        + ", freshNamespaceRefusal="
        + freshNamespaceRefusal
        + '}';
  }

  private static Duration max(Duration a, Duration b) {
    return a.compareTo(b) >= 0 ? a : b;
  }

  /** Collects settings; {@link #build()} checks them all. */
  public static final class Builder {
    private final String connectString;
    private Duration sessionTimeout = DEFAULT_SESSION_TIMEOUT;
    private Duration connectionTimeout = DEFAULT_CONNECTION_TIMEOUT;
    private Duration retryBaseSleep = DEFAULT_RETRY_BASE_SLEEP;
    private int retryMaxRetries = DEFAULT_RETRY_MAX_RETRIES;
    private String namespace = DEFAULT_NAMESPACE;
    private Clock clock = Clock.systemUTC();
    private Duration defaultLockTimeout = DEFAULT_LOCK_TIMEOUT;
    private Duration defaultCounterTimeout = DEFAULT_COUNTER_TIMEOUT;
    private Duration maxClockSkew = DEFAULT_MAX_CLOCK_SKEW;

    /** Null: the longer default timeout plus the skew. */
    private @Nullable Duration freshNamespaceRefusal;

    private CloudLimits limits = CloudLimits.aws();
    private @Nullable DigestCredentials credentials;
    private @Nullable Id extraReader;
    private @Nullable String invalidAuth;

    private Builder(String connectString) {
      this.connectString = connectString;
    }

    public Builder sessionTimeout(Duration timeout) {
      this.sessionTimeout = timeout;
      return this;
    }

    public Builder connectionTimeout(Duration timeout) {
      this.connectionTimeout = timeout;
      return this;
    }

    /** Curator's exponential back-off for (re)connecting: first sleep and number of retries. */
    public Builder retry(Duration baseSleep, int maxRetries) {
      this.retryBaseSleep = baseSleep;
      this.retryMaxRetries = maxRetries;
      return this;
    }

    /** A ZooKeeper path without leading slash, e.g. "stratus" or "prod/shop". */
    public Builder namespace(String namespace) {
      this.namespace = namespace;
      return this;
    }

    public Builder clock(Clock clock) {
      this.clock = clock;
      return this;
    }

    public Builder defaultLockTimeout(Duration timeout) {
      this.defaultLockTimeout = timeout;
      return this;
    }

    public Builder defaultCounterTimeout(Duration timeout) {
      this.defaultCounterTimeout = timeout;
      return this;
    }

    public Builder maxClockSkew(Duration skew) {
      this.maxClockSkew = skew;
      return this;
    }

    public Builder freshNamespaceRefusal(Duration refusal) {
      this.freshNamespaceRefusal = refusal;
      return this;
    }

    public Builder limits(CloudLimits limits) {
      this.limits = limits;
      return this;
    }

    /**
     * Authenticates with ZooKeeper's digest scheme as {@code user} and restricts every znode the
     * adapter creates to that identity. Every client of a namespace must use the same user and
     * password; a client with other credentials, or none, is refused with {@code
     * BadRequestException}. The user may not contain ':'.
     */
    public Builder digestCredentials(String user, String password) {
      this.credentials = null;
      this.invalidAuth = null;
      if (user == null || user.isBlank() || user.indexOf(':') >= 0) {
        invalidAuth = "the digest user must be non-blank and without ':'";
      } else if (password == null || password.isEmpty()) {
        invalidAuth = "the digest password must not be empty";
      } else {
        this.credentials = new DigestCredentials(user, password);
      }
      return this;
    }

    /**
     * Grants read access (and nothing else) on every znode the adapter creates to one more
     * identity, e.g. {@code ("digest", "monitor:<base64 SHA-1 of monitor:password>")} or {@code
     * ("ip", "10.0.0.0/8")}. Only with {@link #digestCredentials}.
     */
    public Builder extraReader(@Nullable String scheme, @Nullable String id) {
      this.extraReader = scheme == null || id == null ? null : new Id(scheme, id);
      return this;
    }

    /**
     * Checks every setting once and returns the configuration.
     *
     * @throws IllegalArgumentException naming the first invalid setting
     */
    public ZooKeeperConfig build() {
      if (connectString == null || connectString.isBlank()) {
        throw new IllegalArgumentException("a connect string is required");
      }
      positive("sessionTimeout", sessionTimeout);
      positive("connectionTimeout", connectionTimeout);
      positive("retryBaseSleep", retryBaseSleep);
      if (retryMaxRetries < 0 || retryMaxRetries > 29) {
        throw new IllegalArgumentException("retryMaxRetries must be 0..29, got " + retryMaxRetries);
      }
      if (sessionTimeout.toMillis() > Integer.MAX_VALUE
          || connectionTimeout.toMillis() > Integer.MAX_VALUE
          || retryBaseSleep.toMillis() > Integer.MAX_VALUE) {
        throw new IllegalArgumentException("ZooKeeper takes timeouts in int milliseconds");
      }
      if (namespace == null
          || namespace.isEmpty()
          || namespace.startsWith("/")
          || namespace.endsWith("/")) {
        throw new IllegalArgumentException(
            "a namespace is a non-empty path without leading or trailing slash: " + namespace);
      }
      try {
        PathUtils.validatePath("/" + namespace);
      } catch (IllegalArgumentException e) {
        throw new IllegalArgumentException(
            "invalid namespace " + namespace + ": " + e.getMessage());
      }
      Objects.requireNonNull(clock, "clock");
      positive("defaultLockTimeout", defaultLockTimeout);
      positive("defaultCounterTimeout", defaultCounterTimeout);
      notNegative("maxClockSkew", maxClockSkew);
      if (freshNamespaceRefusal != null) {
        notNegative("freshNamespaceRefusal", freshNamespaceRefusal);
      }
      Objects.requireNonNull(limits, "limits");
      if (invalidAuth != null) {
        throw new IllegalArgumentException(invalidAuth);
      }
      if (extraReader != null) {
        if (credentials == null) {
          throw new IllegalArgumentException(
              "an extraReader needs digestCredentials: without them every znode is open anyway");
        }
        if (extraReader.getScheme().isBlank() || extraReader.getId().isBlank()) {
          throw new IllegalArgumentException("an extraReader needs a scheme and an id");
        }
      }
      return new ZooKeeperConfig(this);
    }

    private static void positive(String name, Duration d) {
      Objects.requireNonNull(d, name);
      if (d.isNegative() || d.isZero()) {
        throw new IllegalArgumentException(name + " must be positive, got " + d);
      }
    }

    private static void notNegative(String name, Duration d) {
      Objects.requireNonNull(d, name);
      if (d.isNegative()) {
        throw new IllegalArgumentException(name + " must not be negative, got " + d);
      }
    }
  }
}
