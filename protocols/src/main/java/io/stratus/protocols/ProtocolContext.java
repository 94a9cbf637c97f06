package io.stratus.protocols;

import io.stratus.cloudapi.CloudServices;
import io.stratus.cloudapi.CrashPoints;
import io.stratus.pagemanager.BufferPool;
import java.time.Clock;
import java.time.Duration;
import java.util.Objects;
import java.util.concurrent.Executor;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;
import org.jspecify.annotations.Nullable;

/**
 * What a commit protocol gets from the database handle that runs it: the cloud, the handle's
 * identity, clock and buffer pool, and the protocol's own settings ({@link #settings()}). The
 * protocol does not own any of it: closing the protocol closes none. Made with {@link #builder}.
 *
 * @param services the cloud services of the database
 * @param databaseUri the database's URI prefix, under which a protocol names its queues and items
 * @param clientId this client's id, unique among the clients of the database
 * @param clock the time source of leases, checkpoint intervals and timestamps
 * @param crashPoints the named steps at which tests kill the client
 * @param bufferPool the handle's pool of committed pages
 * @param settings the settings of the protocol to run, and only of it
 * @param checkpointExecutor where the protocols with checkpoints run them, never on the
 *     application's thread; null: the protocol owns a small pool of daemon threads and shuts it
 *     down on close (tests pass an executor that runs tasks when the test says)
 * @param damage where the handle's background work reports damaged pages and messages (one per
 *     handle, shared by all its parts, so its statistics count each object once)
 * @param pause how the handle waits between polls of other clients' progress
 */
public record ProtocolContext(
    CloudServices services,
    String databaseUri,
    String clientId,
    Clock clock,
    CrashPoints crashPoints,
    BufferPool bufferPool,
    ProtocolSettings settings,
    @Nullable Executor checkpointExecutor,
    DamageReports damage,
    Pause pause) {

  /** Checked values; {@code checkpointExecutor} may be null. */
  public ProtocolContext {
    Objects.requireNonNull(services, "services");
    Objects.requireNonNull(databaseUri, "databaseUri");
    Objects.requireNonNull(clientId, "clientId");
    Objects.requireNonNull(clock, "clock");
    Objects.requireNonNull(crashPoints, "crashPoints");
    Objects.requireNonNull(bufferPool, "bufferPool");
    Objects.requireNonNull(settings, "settings");
    Objects.requireNonNull(damage, "damage");
    Objects.requireNonNull(pause, "pause");
  }

  /**
   * A builder of a context for the protocol of {@code settings}; clock, crash points, damage
   * reports and pause default to the system UTC clock, none, reports of its own and parking the
   * thread.
   */
  public static Builder builder(
      CloudServices services,
      String databaseUri,
      String clientId,
      BufferPool bufferPool,
      ProtocolSettings settings) {
    return new Builder(services, databaseUri, clientId, bufferPool, settings);
  }

  /** The protocol the context is for. */
  public ProtocolKind kind() {
    return settings.kind();
  }

  /** Where the database keeps its objects, queues, locks and counters. */
  public StorageLayout layout() {
    return new StorageLayout(databaseUri);
  }

  /**
   * The checkpoint settings of {@link #settings()}, for the parts the protocols with checkpoints
   * share.
   *
   * @throws IllegalStateException the protocol has no checkpoints (naive)
   */
  public CheckpointSettings checkpoints() {
    if (settings instanceof ProtocolSettings.Checkpointed c) {
      return c.checkpoints();
    }
    throw new IllegalStateException("the " + kind() + " protocol has no checkpoints");
  }

  /** {@link CheckpointSettings#interval()} of {@link #checkpoints()}. */
  public Duration checkpointInterval() {
    return checkpoints().interval();
  }

  /**
   * The writer lanes of {@link #settings()}, for the parts the monotonic and atomic protocols
   * share.
   *
   * @throws IllegalStateException the protocol numbers no commits
   */
  public int writerLanes() {
    if (settings instanceof ProtocolSettings.Monotonic m) {
      return m.writerLanes();
    }
    if (settings instanceof ProtocolSettings.Atomic a) {
      return a.writerLanes();
    }
    throw new IllegalStateException("the " + kind() + " protocol has no writer lanes");
  }

  /**
   * The isolation settings of {@link #settings()}, for the parts the isolating protocols share.
   *
   * @throws IllegalStateException the protocol is not an isolating one
   */
  public IsolationSettings isolation() {
    if (settings instanceof ProtocolSettings.Isolating i) {
      return i.isolation();
    }
    throw new IllegalStateException("the " + kind() + " protocol is not an isolating one");
  }

  /**
   * A pool of {@code threads} daemon threads named {@code stratus-<role>-<clientId>-<n>}, for a
   * protocol's background work when no checkpoint executor was given; the caller shuts it down.
   */
  public ExecutorService newDaemonPool(String role, int threads) {
    AtomicInteger n = new AtomicInteger();
    return Executors.newFixedThreadPool(
        threads,
        r -> {
          Thread t = new Thread(r, "stratus-" + role + "-" + clientId + "-" + n.incrementAndGet());
          t.setDaemon(true);
          return t;
        });
  }

  /** Builds a {@link ProtocolContext}. Not thread-safe. */
  public static final class Builder {
    private final CloudServices services;
    private final String databaseUri;
    private final String clientId;
    private final BufferPool bufferPool;
    private final ProtocolSettings settings;
    private Clock clock = Clock.systemUTC();
    private CrashPoints crashPoints = CrashPoints.none();
    private @Nullable Executor checkpointExecutor;
    private DamageReports damage = new DamageReports();
    private Pause pause = Pause.PARK;

    private Builder(
        CloudServices services,
        String databaseUri,
        String clientId,
        BufferPool bufferPool,
        ProtocolSettings settings) {
      this.services = services;
      this.databaseUri = databaseUri;
      this.clientId = clientId;
      this.bufferPool = bufferPool;
      this.settings = settings;
    }

    /** The time source. */
    public Builder clock(Clock clock) {
      this.clock = clock;
      return this;
    }

    /** The named steps at which tests kill the client. */
    public Builder crashPoints(CrashPoints crashPoints) {
      this.crashPoints = crashPoints;
      return this;
    }

    /** Where checkpoints run; null: the protocol's own daemon threads. */
    public Builder checkpointExecutor(@Nullable Executor executor) {
      this.checkpointExecutor = executor;
      return this;
    }

    /** The handle's damage reports. */
    public Builder damage(DamageReports damage) {
      this.damage = damage;
      return this;
    }

    /** How the handle waits between polls. */
    public Builder pause(Pause pause) {
      this.pause = pause;
      return this;
    }

    /** The context. */
    public ProtocolContext build() {
      return new ProtocolContext(
          services,
          databaseUri,
          clientId,
          clock,
          crashPoints,
          bufferPool,
          settings,
          checkpointExecutor,
          damage,
          pause);
    }
  }
}
