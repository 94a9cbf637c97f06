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

/**
 * What a commit protocol gets from the database handle that runs it: everything it may need now or
 * in the later issues (queues and checkpoints need the services, the clock and the interval;
 * monotonicity needs the client id; recovery tests need the crash points; checkpoints and GSI read
 * through the buffer pool). The protocol does not own any of it: closing the protocol closes none.
 *
 * @param services the cloud services of the database (the protocol uses storage; later ones queues,
 *     locks and counters)
 * @param databaseUri the database's URI prefix, under which a protocol names its queues and items
 * @param clientId this client's id, unique among the clients of the database
 * @param clock the time source of leases, checkpoint intervals and timestamps
 * @param crashPoints the named steps at which tests kill the client
 * @param bufferPool the handle's pool of committed pages
 * @param checkpointInterval how often pending updates are checkpointed (unused by the naive
 *     protocol)
 * @param checkpointExecutor where the queue-based protocols run their checkpoints, never on the
 *     application's thread; null: the protocol owns a small pool of daemon threads and shuts it
 *     down on close (tests pass an executor that runs tasks when the test says)
 * @param checkpoints the checkpoint parameters (lock timeout, propagation period, X, write mode)
 * @param writerLanes how many commits of this handle the monotonic and atomic protocols number
 *     and send at once ({@link io.stratus.protocols.engine.WriterLanes}); at least 1
 * @param isolation the timeouts of the isolating protocols
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
    Duration checkpointInterval,
    Executor checkpointExecutor,
    CheckpointSettings checkpoints,
    int writerLanes,
    IsolationSettings isolation,
    DamageReports damage,
    Pause pause) {

  /** Where the database keeps its objects, queues, locks and counters. */
  public StorageLayout layout() {
    return new StorageLayout(databaseUri);
  }

  /**
   * Writer lanes per handle at most, by default: they are made as concurrent commits need them,
   * and commits beyond this wait for a lane. Each lane that writes to a page adds a counter entry
   * (about 60 bytes) to its header.
   */
  public static final int DEFAULT_WRITER_LANES = 32;

  /** A context with damage reports of its own, whose waits park the thread. */
  public ProtocolContext(
      CloudServices services,
      String databaseUri,
      String clientId,
      Clock clock,
      CrashPoints crashPoints,
      BufferPool bufferPool,
      Duration checkpointInterval,
      Executor checkpointExecutor,
      CheckpointSettings checkpoints,
      int writerLanes,
      IsolationSettings isolation) {
    this(
        services,
        databaseUri,
        clientId,
        clock,
        crashPoints,
        bufferPool,
        checkpointInterval,
        checkpointExecutor,
        checkpoints,
        writerLanes,
        isolation,
        new DamageReports(),
        Pause.PARK);
  }

  /** A context with the default isolation settings. */
  public ProtocolContext(
      CloudServices services,
      String databaseUri,
      String clientId,
      Clock clock,
      CrashPoints crashPoints,
      BufferPool bufferPool,
      Duration checkpointInterval,
      Executor checkpointExecutor,
      CheckpointSettings checkpoints,
      int writerLanes) {
    this(
        services,
        databaseUri,
        clientId,
        clock,
        crashPoints,
        bufferPool,
        checkpointInterval,
        checkpointExecutor,
        checkpoints,
        writerLanes,
        IsolationSettings.defaults());
  }

  /** A context with {@link #DEFAULT_WRITER_LANES} writer lanes. */
  public ProtocolContext(
      CloudServices services,
      String databaseUri,
      String clientId,
      Clock clock,
      CrashPoints crashPoints,
      BufferPool bufferPool,
      Duration checkpointInterval,
      Executor checkpointExecutor,
      CheckpointSettings checkpoints) {
    this(
        services,
        databaseUri,
        clientId,
        clock,
        crashPoints,
        bufferPool,
        checkpointInterval,
        checkpointExecutor,
        checkpoints,
        DEFAULT_WRITER_LANES);
  }

  /** A context with the protocol's own checkpoint executor and the default checkpoint settings. */
  public ProtocolContext(
      CloudServices services,
      String databaseUri,
      String clientId,
      Clock clock,
      CrashPoints crashPoints,
      BufferPool bufferPool,
      Duration checkpointInterval) {
    this(
        services,
        databaseUri,
        clientId,
        clock,
        crashPoints,
        bufferPool,
        checkpointInterval,
        null,
        CheckpointSettings.defaults());
  }

  public ProtocolContext {
    Objects.requireNonNull(services, "services");
    Objects.requireNonNull(databaseUri, "databaseUri");
    Objects.requireNonNull(clientId, "clientId");
    Objects.requireNonNull(clock, "clock");
    Objects.requireNonNull(crashPoints, "crashPoints");
    Objects.requireNonNull(bufferPool, "bufferPool");
    Objects.requireNonNull(checkpointInterval, "checkpointInterval");
    Objects.requireNonNull(checkpoints, "checkpoints");
    Objects.requireNonNull(isolation, "isolation");
    Objects.requireNonNull(damage, "damage");
    Objects.requireNonNull(pause, "pause");
    if (writerLanes < 1) {
      throw new IllegalArgumentException("at least one writer lane, got " + writerLanes);
    }
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
}
