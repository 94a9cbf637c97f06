package io.stratus.core.contract;

import io.stratus.protocols.ProtocolKind;
import io.stratus.testkit.History;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The protocol contract's history cases on real services ({@link RealServices}: S3 and SQS on
 * LocalStack, locks, counters and advanced queues on ZooKeeper), judged as on the in-process cloud
 * ({@link ProtocolContract}): seeded histories of clients and of request threads sharing a handle,
 * checked by what each protocol's guarantees select, and the list-append isolation check. The
 * other contract cases need the in-process cloud's knobs (weak queues, stale storage, injected
 * faults and crashes) and run there only.
 *
 * <p>By default (CI) two protocols run, one of the queue family and one isolating (monotonic and
 * snapshot isolation), with the first CI seed; {@code -D}{@value #ALL}{@code =true} runs every
 * protocol with every seed of {@link ContractSeeds#seeds()} (the seed properties apply).
 */
class RealServicesContractTest {
  /** The property that runs every protocol and every seed. */
  static final String ALL = "stratus.contract.all";

  private static RealServices real;

  @BeforeAll
  static void startServices() throws Exception {
    real = new RealServices();
  }

  @AfterAll
  static void stopServices() throws Exception {
    if (real != null) {
      real.close();
    }
  }

  /** (protocol, seed) pairs of this run. */
  static Stream<Arguments> runs() {
    boolean all = Boolean.getBoolean(ALL);
    List<ProtocolKind> kinds =
        all
            ? List.of(ProtocolKind.values())
            : List.of(ProtocolKind.MONOTONIC, ProtocolKind.SNAPSHOT_ISOLATION);
    List<Long> seeds =
        all ? ContractSeeds.seeds().toList() : List.of(ContractSeeds.CI_SEEDS.get(0));
    List<Arguments> out = new ArrayList<>();
    for (ProtocolKind kind : kinds) {
      for (long seed : seeds) {
        out.add(Arguments.of(kind, seed));
      }
    }
    return out.stream();
  }

  private static void announce(ProtocolKind kind, String test, long seed) {
    System.out.println(
        "[contract] "
            + kind
            + " on LocalStack + ZooKeeper "
            + test
            + " seed="
            + seed
            + " (replay: -D"
            + ContractSeeds.SEED
            + "="
            + seed
            + (Boolean.getBoolean(ALL) ? "" : " -D" + ALL + "=true")
            + ")");
  }

  /** Three clients' sessions, round by round ({@link HistoryHarness#runClients}). */
  @ParameterizedTest(name = "{0} seed {1}")
  @MethodSource("runs")
  void historyOfClients(ProtocolKind kind, long seed) {
    announce(kind, "historyOfClients", seed);
    History h = new HistoryHarness(kind, seed, real).runClients();
    HistoryHarness.assertClientsValid(kind, h);
  }

  /** Request threads sharing one handle ({@link HistoryHarness#runThreads}). */
  @ParameterizedTest(name = "{0} seed {1}")
  @MethodSource("runs")
  void historyOfRequestThreadsSharingOneHandle(ProtocolKind kind, long seed) throws Exception {
    announce(kind, "historyOfRequestThreadsSharingOneHandle", seed);
    History h = new HistoryHarness(kind, seed, real).runThreads();
    HistoryHarness.assertThreadsValid(kind, h);
  }

  /** Isolation as the guarantees declare it ({@link IsolationContract}). */
  @ParameterizedTest(name = "{0} seed {1}")
  @MethodSource("runs")
  void isolationOfConcurrentTransactionsIsWhatTheGuaranteesSay(ProtocolKind kind, long seed)
      throws Exception {
    announce(kind, "isolation", seed);
    IsolationContract.check(kind, seed, real);
  }
}
