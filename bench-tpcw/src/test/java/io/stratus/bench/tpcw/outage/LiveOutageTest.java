package io.stratus.bench.tpcw.outage;

import static org.assertj.core.api.Assertions.assertThat;

import io.stratus.aws.AwsCloud;
import io.stratus.aws.LocalStackFixture;
import io.stratus.bench.tpcw.bookstore.BookstoreSchema;
import io.stratus.bench.tpcw.bookstore.DataGenerator;
import io.stratus.bench.tpcw.bookstore.Scale;
import io.stratus.bench.tpcw.bookstore.StalenessTracker;
import io.stratus.bench.tpcw.bookstore.StockAudit;
import io.stratus.bench.tpcw.bookstore.StratusBookstore;
import io.stratus.bench.tpcw.rbe.Emulator;
import io.stratus.bench.tpcw.rbe.InteractionAttribution;
import io.stratus.cloudapi.CloudServices;
import io.stratus.cloudapi.decorate.Decorators;
import io.stratus.core.Database;
import io.stratus.core.DatabaseConfig;
import io.stratus.protocols.ProtocolKind;
import io.stratus.zookeeper.ZooKeeperCloud;
import io.stratus.zookeeper.ZooKeeperCloud.Connection;
import io.stratus.zookeeper.ZooKeeperConfig;
import java.net.URI;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import org.apache.curator.test.InstanceSpec;
import org.apache.curator.test.TestingCluster;
import org.junit.jupiter.api.Test;

/**
 * A TPC-W run of two application servers (each with its own database handle, S3/SQS client and
 * ZooKeeper session) on LocalStack and a three-server ZooKeeper ensemble, through two outages:
 * the ZooKeeper leader is killed (the ensemble elects another; two servers stay), and later
 * LocalStack stops answering until an interaction is in flight against it (its processes are paused, see {@link Outages}). The faults come at points of the run's progress (counts of ended interactions), not
 * at wall-clock instants.
 *
 * <p>Asserted: interactions succeed after each outage (the run continues), the browsers all
 * finish, and nothing committed is lost: the stock audit adds up, no tracked row lost an update,
 * and no session read its own writes stale. Snapshot isolation, because its commits need
 * ZooKeeper (counters, advanced queues) as well as storage and queues, and because it guarantees
 * that no update is lost. Its leases are short ({@link #LEASE}; 120 s by default): a commit that
 * the election cuts off leaves record locks and a commit id that other transactions wait out.
 * Printed: response times before, during and after each outage.
 */
class LiveOutageTest {
  static {
    // A killed quorum server's listener thread may fail to re-bind its election port and then
    // asks ZooKeeper to exit the JVM (exit code 14), which would take the test JVM down with it.
    org.apache.zookeeper.util.ServiceUtils.setSystemExitProcedure(
        org.apache.zookeeper.util.ServiceUtils.LOG_ONLY);
  }

  /** How long record locks and commit ids of a client cut off mid-commit last. */
  private static final Duration LEASE = Duration.ofSeconds(15);

  private static final int CLIENTS = 2;
  private static final int EBS_PER_CLIENT = 2;
  private static final int INTERACTIONS_PER_EB = 80;

  /** Interactions to end before each outage, counted from the start or the previous outage. */
  private static final int BETWEEN_OUTAGES = 40;

  /**
   * Interactions the storage outage leaves for itself and the time after it. The election can
   * take many of them (interactions that fail fast while sessions reconnect), and interactions
   * served from caches need no storage, so they go on during the outage: a run whose last
   * interactions had ended during it left nothing to show that it continues afterwards.
   */
  private static final int KEPT_FOR_THE_STORAGE_OUTAGE = 80;

  private static final long SEED = 7;
  private static final long WAIT_NANOS = TimeUnit.SECONDS.toNanos(60);

  @Test
  void aTpcwRunSurvivesAZooKeeperLeaderElectionAndAStorageOutageWithoutLosingACommit()
      throws Exception {
    LocalStackFixture localstack = LocalStackFixture.get();
    URI endpoint = localstack.config().build().endpoint().orElseThrow();
    long localStackGroup = Outages.localStackProcessGroup(endpoint);
    String run = "outage-" + UUID.randomUUID().toString().substring(0, 8);
    Scale scale = new Scale(50, CLIENTS * EBS_PER_CLIENT, 10);
    List<AutoCloseable> resources = new ArrayList<>();
    boolean paused = false;
    try (TestingCluster zookeeper = new TestingCluster(3)) {
      zookeeper.start();
      List<ZooKeeperCloud> sessions = new ArrayList<>();
      List<Database> dbs = new ArrayList<>();
      List<InteractionAttribution> attributions = new ArrayList<>();
      for (int k = 0; k < CLIENTS; k++) {
        AwsCloud aws =
            AwsCloud.connect(localstack.config().keyPrefix(run + "/").queueNamePrefix(run).build());
        resources.add(aws);
        ZooKeeperCloud zk =
            ZooKeeperCloud.connect(
                ZooKeeperConfig.builder(zookeeper.getConnectString())
                    .namespace(run)
                    .freshNamespaceRefusal(Duration.ZERO)
                    .build());
        resources.add(zk);
        sessions.add(zk);
        CloudServices services = zk.addTo(aws.addTo(CloudServices.builder())).build();
        InteractionAttribution attribution = new InteractionAttribution();
        attributions.add(attribution);
        Database db =
            Database.open(
                BookstoreSchema.configure(
                        DatabaseConfig.builder(
                            Decorators.wrap(services, attribution), "tpcw/" + run))
                    .protocol(ProtocolKind.SNAPSHOT_ISOLATION)
                    .clientId(run + "-c" + k)
                    .checkpointSeed(SEED + k)
                    // Short leases, so that what an outage leaves behind lapses within the test: a
                    // commit cut off from ZooKeeper leaves its record locks and commit id to lapse.
                    .transactionTimeout(Duration.ofSeconds(2))
                    .checkpointLockTimeout(Duration.ofSeconds(6))
                    .atomicTimeout(Duration.ofSeconds(8))
                    .isolationLeaseTimeout(LEASE)
                    .build());
        resources.add(db);
        dbs.add(db);
      }
      new DataGenerator(dbs.get(0), scale, SEED, Clock.systemUTC()).load();
      for (Database db : dbs.subList(1, dbs.size())) {
        BookstoreSchema.install(db);
      }

      TimedBookstore.Log log = new TimedBookstore.Log(System::nanoTime);
      StalenessTracker tracker = new StalenessTracker();
      List<StratusBookstore> bookstores = new ArrayList<>();
      List<Emulator.Client> clients = new ArrayList<>();
      for (int k = 0; k < CLIENTS; k++) {
        StratusBookstore b =
            new StratusBookstore(dbs.get(k), scale, Clock.systemUTC(), SEED, tracker);
        bookstores.add(b);
        clients.add(new Emulator.Client(new TimedBookstore(b, log), attributions.get(k), () -> {}));
      }
      Emulator emulator =
          Emulator.builder()
              .ebs(EBS_PER_CLIENT)
              .warmUp(Duration.ZERO)
              .measure(Duration.ofMinutes(10))
              .interactionsPerBrowser(INTERACTIONS_PER_EB)
              .seed(SEED)
              .build();
      long start = log.now();
      CompletableFuture<Emulator.ClientsReport> running =
          CompletableFuture.supplyAsync(() -> emulator.runClients(clients));

      // Outage 1: the ZooKeeper leader dies; the two others elect a new one.
      log.awaitEnded(BETWEEN_OUTAGES, WAIT_NANOS);
      List<CompletableFuture<Void>> reconnected = new ArrayList<>();
      for (ZooKeeperCloud zk : sessions) {
        reconnected.add(reconnection(zk));
      }
      InstanceSpec leader = Outages.leader(zookeeper);
      long leaderKilled = log.now();
      assertThat(zookeeper.killServer(leader)).isTrue();
      CompletableFuture.allOf(reconnected.toArray(new CompletableFuture<?>[0]))
          .get(WAIT_NANOS, TimeUnit.NANOSECONDS);
      long zooKeeperBack = log.now();
      InstanceSpec newLeader = Outages.leader(zookeeper);
      assertThat(newLeader).isNotEqualTo(leader);

      // Outage 2 waits for the run to be back: a commit cut off by the election may have taken a
      // commit id it could not validate, and snapshots then wait for that id's lease (LEASE) to
      // end, so every interaction may fail for up to that long after the sessions reconnected.
      log.awaitSucceededSince(zooKeeperBack, WAIT_NANOS);

      // Outage 2: storage and queues stop answering.
      int total = CLIENTS * EBS_PER_CLIENT * INTERACTIONS_PER_EB;
      log.awaitEnded(
          Math.max(
              log.size(),
              Math.min(log.size() + BETWEEN_OUTAGES, total - KEPT_FOR_THE_STORAGE_OUTAGE)),
          WAIT_NANOS);
      long storagePaused = log.now();
      Outages.signalGroup(localStackGroup, "STOP");
      paused = true;
      // The outage lasts until an interaction is in flight against the paused service: an event
      // of the run, not a wall-clock length. (Interactions begun before the pause count: when
      // every browser is already blocked in one, no new one starts.)
      log.awaitInFlightSince(Long.MIN_VALUE, 1, WAIT_NANOS);
      Outages.signalGroup(localStackGroup, "CONT");
      paused = false;
      long storageBack = log.now();

      Emulator.ClientsReport report = running.get(5, TimeUnit.MINUTES);
      long end = log.now();
      StockAudit audit = bookstores.get(0).auditStock();
      List<TimedBookstore.Sample> samples = log.samples();

      List<Window> windows =
          List.of(
              Window.of("before the leader kill", samples, start, leaderKilled),
              Window.of(
                  "leader election (kill to all sessions reconnected)",
                  samples,
                  leaderKilled,
                  zooKeeperBack),
              Window.of("between the outages", samples, zooKeeperBack, storagePaused),
              Window.of(
                  "storage paused (until an interaction waited on it)",
                  samples,
                  storagePaused,
                  storageBack),
              Window.of("after the storage outage", samples, storageBack, end));
      StringBuilder printed =
          new StringBuilder(
              String.format(
                  Locale.ROOT,
                  "Outage run %s: %d interactions, %d errors; leader %s killed, sessions back after %.0f"
                      + " ms, new leader %s; stock audit: %d of %d items off, %d uncertain buys;"
                      + " lost updates %d item, %d customer; own reads %d stale of %d%n",
                  run,
                  samples.size(),
                  samples.stream().filter(s -> !s.ok()).count(),
                  leader.getPort(),
                  (zooKeeperBack - leaderKilled) / 1e6,
                  newLeader.getPort(),
                  audit.itemsOff(),
                  audit.itemsChecked(),
                  audit.uncertainBuys(),
                  tracker.lostUpdates(BookstoreSchema.ITEM),
                  tracker.lostUpdates(BookstoreSchema.CUSTOMER),
                  tracker.ownStaleReads(),
                  tracker.ownReadsChecked()));
      for (Window w : windows) {
        printed.append("  ").append(w).append('\n');
      }
      samples.stream()
          .filter(s -> !s.ok())
          .limit(5)
          .forEach(s -> printed.append("  error: ").append(s.error()).append('\n'));
      System.out.print(printed);

      assertThat(report.total().unfinishedBrowsers()).as(printed.toString()).isZero();
      assertThat(samples)
          .as(printed.toString())
          .hasSize(CLIENTS * EBS_PER_CLIENT * INTERACTIONS_PER_EB);
      assertThat(windows.get(2).succeeded)
          .as("the run continues after the election\n" + printed)
          .isPositive();
      assertThat(windows.get(4).succeeded)
          .as("the run continues after the storage outage\n" + printed)
          .isPositive();
      List<TimedBookstore.Sample> tail =
          samples.subList(samples.size() - 2 * CLIENTS * EBS_PER_CLIENT, samples.size());
      assertThat(tail)
          .as("the last interactions all succeed\n" + printed)
          .allMatch(TimedBookstore.Sample::ok);
      assertThat(audit.clean()).as("no committed stock change lost\n" + printed).isTrue();
      assertThat(tracker.lostUpdates(BookstoreSchema.ITEM)).as(printed.toString()).isZero();
      assertThat(tracker.lostUpdates(BookstoreSchema.CUSTOMER)).as(printed.toString()).isZero();
      assertThat(tracker.ownStaleReads()).as(printed.toString()).isZero();
      assertThat(tracker.ownReadsChecked()).as(printed.toString()).isPositive();
    } finally {
      if (paused) {
        Outages.signalGroup(localStackGroup, "CONT");
      }
      for (int i = resources.size() - 1; i >= 0; i--) {
        try {
          resources.get(i).close();
        } catch (Exception e) {
          // closing after a failed run must not hide the failure
        }
      }
    }
  }

  /** Completes when {@code zk} has lost its connection and then has it again. */
  private static CompletableFuture<Void> reconnection(ZooKeeperCloud zk) {
    CompletableFuture<Void> back = new CompletableFuture<>();
    boolean[] lost = {false};
    Consumer<Connection> listener =
        state -> {
          synchronized (lost) {
            if (state != Connection.CONNECTED) {
              lost[0] = true;
            } else if (lost[0]) {
              back.complete(null);
            }
          }
        };
    zk.addConnectionListener(listener);
    return back.whenComplete((v, e) -> zk.removeConnectionListener(listener));
  }

  /** The interactions that started in [from, to): how many, how many failed, response times. */
  private record Window(
      String name,
      long started,
      long succeeded,
      long failed,
      double meanMs,
      double p50Ms,
      double p95Ms,
      double maxMs,
      double seconds) {
    static Window of(String name, List<TimedBookstore.Sample> all, long from, long to) {
      List<TimedBookstore.Sample> in =
          all.stream().filter(s -> s.startNanos() >= from && s.startNanos() < to).toList();
      double[] ms = in.stream().mapToDouble(TimedBookstore.Sample::millis).sorted().toArray();
      long ok = in.stream().filter(TimedBookstore.Sample::ok).count();
      return new Window(
          name,
          in.size(),
          ok,
          in.size() - ok,
          ms.length == 0 ? 0 : Arrays.stream(ms).average().orElse(0),
          pct(ms, 50),
          pct(ms, 95),
          ms.length == 0 ? 0 : ms[ms.length - 1],
          (to - from) / 1e9);
    }

    private static double pct(double[] sorted, int p) {
      return sorted.length == 0
          ? 0
          : sorted[Math.min(sorted.length - 1, (int) Math.ceil(p / 100.0 * sorted.length) - 1)];
    }

    @Override
    public String toString() {
      return String.format(
          Locale.ROOT,
          "%-52s %5.1f s: %4d started, %4d failed; response ms"
              + " mean %7.1f, p50 %7.1f, p95 %7.1f, max %7.1f",
          name,
          seconds,
          started,
          failed,
          meanMs,
          p50Ms,
          p95Ms,
          maxMs);
    }
  }
}
