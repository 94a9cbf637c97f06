package io.stratus.core;

import static io.stratus.core.Fixture.itemsByKey;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.stratus.InvalidConfigurationException;
import io.stratus.InvalidRequestException;
import io.stratus.cloudapi.CloudFutures;
import io.stratus.cloudapi.decorate.FaultInterceptor;
import io.stratus.cloudapi.decorate.FaultPlan;
import io.stratus.cloudapi.decorate.ScriptedCrashPoints;
import io.stratus.cloudapi.decorate.SimulatedCrashException;
import io.stratus.cloudapi.inprocess.QueueBehavior;
import io.stratus.cloudapi.testing.Seed;
import io.stratus.cloudapi.testing.SeedExtension;
import io.stratus.pagemanager.PageCodec;
import io.stratus.protocols.ProtocolKind;
import io.stratus.protocols.ProtocolOption;
import io.stratus.protocols.StorageLayout;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The protocol a database runs, as its catalog records it: a handle of a protocol that cannot
 * share the database is refused at its open, before it touches a queue, with a message naming
 * both protocols; protocols that share a database open it and keep its data; a switch moves a
 * database between the protocols of one group (queue protocols, isolating protocols) once their
 * work is done and keeps every record, and refuses to move it across the groups; a catalog from
 * before the record gets one.
 */
@ExtendWith(SeedExtension.class)
class ProtocolSwitchTest {
  private static final int RECORDS = 6;

  /** Simple-queue messages this small make an atomic commit of a few records take two steps. */
  private static final int SMALL_MESSAGES = 220;

  static DatabaseConfig.Builder config(Fixture f, ProtocolKind kind, String client) {
    DatabaseConfig.Builder b = f.config().protocol(kind).clientId(client);
    return kind.accepts(ProtocolOption.CHECKPOINTS)
        ? b.checkpointExecutor(new ManualExecutor())
        : b;
  }

  /** A database created under {@code kind} with records 1..RECORDS, committed, not checkpointed. */
  private static void create(Fixture f, ProtocolKind kind) {
    Database db = f.open(config(f, kind, "creator"));
    db.createCollection("items");
    for (int k = 1; k <= RECORDS; k++) {
      TwoHandlesTest.commitCreate(db, "items", k, "v" + k);
    }
    db.close();
  }

  private static Map<String, String> expected(int records) {
    Map<String, String> m = new TreeMap<>();
    for (int k = 1; k <= records; k++) {
      m.put(Integer.toString(k), "v" + k);
    }
    return m;
  }

  /** Every queue of the database, simple and advanced. */
  private static List<String> queues(Fixture f) {
    List<String> all = new ArrayList<>();
    all.addAll(CloudFutures.await(f.services().simpleQueues().listQueues(Fixture.DB)));
    all.addAll(CloudFutures.await(f.services().advancedQueues().listQueues(Fixture.DB)));
    return all;
  }

  static Stream<Arguments> pairsThatCannotShare() {
    List<Arguments> out = new ArrayList<>();
    for (ProtocolKind stored : ProtocolKind.values()) {
      for (ProtocolKind requested : ProtocolKind.values()) {
        if (!stored.sharesDatabasesWith(requested)) {
          out.add(Arguments.of(stored, requested));
        }
      }
    }
    return out.stream();
  }

  static Stream<Arguments> switches() {
    List<Arguments> out = new ArrayList<>();
    for (ProtocolKind from : ProtocolKind.values()) {
      for (ProtocolKind to : ProtocolKind.values()) {
        if (from != to && from.switchableTo(to)) {
          out.add(Arguments.of(from, to));
        }
      }
    }
    return out.stream();
  }

  @ParameterizedTest(name = "{0} refuses {1}")
  @MethodSource("pairsThatCannotShare")
  void aDatabaseRefusesAProtocolThatCannotShareIt(
      ProtocolKind stored, ProtocolKind requested, @Seed long seed) {
    try (Fixture f = new Fixture(seed)) {
      create(f, stored);
      List<String> before = queues(f);
      assertThatThrownBy(() -> f.open(config(f, requested, "other")))
          .isInstanceOf(InvalidConfigurationException.class)
          .hasMessageContaining("runs " + stored + " (recorded in its catalog)")
          .hasMessageContaining("configured for " + requested)
          .hasMessageContaining(
              stored.switchableTo(requested) ? "DatabaseAdmin.switchProtocol" : "copy its records");
      assertThat(queues(f)).as("the refused handle touched no queue").isEqualTo(before);
      Database again = f.open(config(f, stored, "creator"));
      again.admin().checkpointAll();
      assertThat(itemsByKey(again)).isEqualTo(expected(RECORDS));
    }
  }

  /** BASIC and MONOTONIC handles share a database, either way round and at once. */
  @Test
  void basicAndMonotonicShareADatabase(@Seed long seed) {
    try (Fixture f = new Fixture(seed)) {
      create(f, ProtocolKind.MONOTONIC);
      Database basic = f.open(config(f, ProtocolKind.BASIC, "b"));
      Database monotonic = f.open(config(f, ProtocolKind.MONOTONIC, "m"));
      TwoHandlesTest.commitCreate(basic, "items", RECORDS + 1, "v" + (RECORDS + 1));
      TwoHandlesTest.commitCreate(monotonic, "items", RECORDS + 2, "v" + (RECORDS + 2));
      basic.admin().checkpointAll();
      Database reader = f.open(config(f, ProtocolKind.BASIC, "reader"));
      assertThat(itemsByKey(reader)).isEqualTo(expected(RECORDS + 2));
    }
  }

  /**
   * A switch between two protocols of one group keeps every record (committed, not yet applied
   * when it starts); the database then opens under the new protocol, refuses the old one (unless
   * they share databases), and takes new commits.
   */
  @ParameterizedTest(name = "{0} to {1}")
  @MethodSource("switches")
  void aSwitchKeepsEveryRecord(ProtocolKind from, ProtocolKind to, @Seed long seed) {
    try (Fixture f = new Fixture(seed)) {
      create(f, from);
      DatabaseAdmin.switchProtocol(config(f, from, "operator").build(), to);
      Database db = f.open(config(f, to, "after"));
      assertThat(itemsByKey(db)).isEqualTo(expected(RECORDS));
      TwoHandlesTest.commitCreate(db, "items", RECORDS + 1, "v" + (RECORDS + 1));
      db.admin().checkpointAll();
      assertThat(itemsByKey(f.open(config(f, to, "reader")))).isEqualTo(expected(RECORDS + 1));
      if (!from.sharesDatabasesWith(to)) {
        assertThatThrownBy(() -> f.open(config(f, from, "late")))
            .isInstanceOf(InvalidConfigurationException.class)
            .hasMessageContaining("runs " + to)
            .hasMessageContaining("configured for " + from);
      }
    }
  }

  /** Between the queue protocols and the isolating ones a switch is refused; nothing changes. */
  @Test
  void aSwitchAcrossTheGroupsIsRefused(@Seed long seed) {
    try (Fixture f = new Fixture(seed)) {
      create(f, ProtocolKind.MONOTONIC);
      assertThatThrownBy(
              () ->
                  DatabaseAdmin.switchProtocol(
                      config(f, ProtocolKind.MONOTONIC, "operator").build(),
                      ProtocolKind.SNAPSHOT_ISOLATION))
          .isInstanceOf(InvalidConfigurationException.class)
          .hasMessageContaining("cannot move from MONOTONIC to SNAPSHOT_ISOLATION");
      Database db = f.open(config(f, ProtocolKind.MONOTONIC, "after"));
      db.admin().checkpointAll();
      assertThat(itemsByKey(db)).isEqualTo(expected(RECORDS));
    }
  }

  /**
   * Two atomic clients died in commits too large for one message: one after its commit record
   * (committed, not propagated: recovery propagates it), one after its log messages (no commit
   * record: a loser once older than the atomic timeout). A switch to MONOTONIC before that timeout
   * is refused with nothing switched, since only an atomic handle would ever clear the loser's
   * messages; after it, the switch keeps the winner and nothing of the loser.
   */
  @Test
  void aSwitchWaitsUntilDeadAtomicClientsAreRecovered(@Seed long seed) {
    try (Fixture f =
        new Fixture(seed, true, QueueBehavior.reliable(), Fixture.maxMessageSize(SMALL_MESSAGES))) {
      create(f, ProtocolKind.ATOMIC);
      dieIn(f, "winner", "atomic.after-commit-record", 7, seed);
      dieIn(f, "loser", "atomic.after-log", 11, seed);
      DatabaseConfig atomic = config(f, ProtocolKind.ATOMIC, "operator").build();
      assertThatThrownBy(() -> DatabaseAdmin.switchProtocol(atomic, ProtocolKind.MONOTONIC))
          .isInstanceOf(InvalidRequestException.class)
          .hasMessageContaining("nothing was switched");
      f.open(config(f, ProtocolKind.ATOMIC, "still")).close(); // still an atomic database
      f.clock.advance(Duration.ofSeconds(61)); // past the atomic timeout
      DatabaseAdmin.switchProtocol(atomic, ProtocolKind.MONOTONIC);
      Database db = f.open(config(f, ProtocolKind.MONOTONIC, "after"));
      Map<String, String> all = expected(RECORDS);
      for (int k = 7; k < 7 + WIDE; k++) {
        all.put(Integer.toString(k), "v" + k);
      }
      assertThat(itemsByKey(db)).isEqualTo(all);
    }
  }

  /** Records in a transaction of an atomic commit too wide for one small message. */
  private static final int WIDE = 4;

  /** Client {@code client} dies at {@code point} committing keys {@code first}.. (WIDE of them). */
  private static void dieIn(Fixture f, String client, String point, int first, long seed) {
    FaultInterceptor calls = new FaultInterceptor(FaultPlan.none(), seed, f.clock);
    ScriptedCrashPoints crash = new ScriptedCrashPoints().arm(point, 1).onCrash(calls::killClient);
    Database dying =
        f.open(
            f.config(calls)
                .protocol(ProtocolKind.ATOMIC)
                .clientId(client)
                .checkpointExecutor(new ManualExecutor())
                .crashPoints(crash));
    assertThatThrownBy(
            () -> {
              try (Transaction tx = dying.begin()) {
                for (int k = first; k < first + WIDE; k++) {
                  tx.create("items", Key.of((long) k), Fixture.bytes("v" + k));
                }
                tx.commit();
              }
            })
        .isInstanceOf(SimulatedCrashException.class);
  }

  /** A handle open during a switch refuses to work once its catalog copy shows the switch. */
  @Test
  void aHandleOpenDuringASwitchRefusesOnceItSeesIt(@Seed long seed) {
    try (Fixture f = new Fixture(seed)) {
      create(f, ProtocolKind.MONOTONIC);
      Database old = f.open(config(f, ProtocolKind.MONOTONIC, "old"));
      old.admin().checkpointAll();
      assertThat(TwoHandlesTest.read(old, "items", 1)).isEqualTo("v1");
      DatabaseAdmin.switchProtocol(
          config(f, ProtocolKind.MONOTONIC, "operator").build(), ProtocolKind.ATOMIC);
      f.clock.advance(Fixture.TTL.plusSeconds(1));
      assertThatThrownBy(old::begin)
          .isInstanceOf(InvalidConfigurationException.class)
          .hasMessageContaining("runs ATOMIC")
          .hasMessageContaining("configured for MONOTONIC");
    }
  }

  /**
   * Two handles of protocols that cannot share a database open it while it has no catalog yet:
   * the first catalog write records its writer's protocol, and the other handle is refused from
   * then on, for catalog changes and for transactions.
   */
  @Test
  void theFirstCatalogWriteDecidesBetweenHandlesOfAnEmptyDatabase(@Seed long seed) {
    try (Fixture f = new Fixture(seed)) {
      Database first = f.open(config(f, ProtocolKind.MONOTONIC, "first"));
      Database second = f.open(config(f, ProtocolKind.ATOMIC, "second"));
      first.createCollection("items");
      assertThatThrownBy(() -> second.createCollection("other"))
          .isInstanceOf(InvalidConfigurationException.class)
          .hasMessageContaining("runs MONOTONIC");
      f.clock.advance(Fixture.TTL.plusSeconds(1));
      assertThatThrownBy(second::begin).isInstanceOf(InvalidConfigurationException.class);
    }
  }

  /**
   * A catalog written before databases recorded their protocol: the first handle to open it
   * records its protocol when storage has conditional puts, else its next catalog change does;
   * a handle that cannot share the database is refused from then on.
   */
  @Test
  void aCatalogWithoutARecordGetsTheProtocolOfItsNextWriter(@Seed long seed) {
    for (boolean conditional : new boolean[] {true, false}) {
      try (Fixture f = new Fixture(seed, conditional)) {
        create(f, ProtocolKind.MONOTONIC);
        forgetProtocol(f);
        Database legacy = f.open(config(f, ProtocolKind.MONOTONIC, "legacy"));
        if (!conditional) {
          f.open(config(f, ProtocolKind.ATOMIC, "unrecorded")).close(); // nothing recorded yet
          legacy.createCollection("more");
        }
        assertThatThrownBy(() -> f.open(config(f, ProtocolKind.ATOMIC, "other")))
            .as("conditional puts: %s", conditional)
            .isInstanceOf(InvalidConfigurationException.class)
            .hasMessageContaining("runs MONOTONIC");
        legacy.admin().checkpointAll();
        assertThat(itemsByKey(legacy)).isEqualTo(expected(RECORDS));
      }
    }
  }

  /** Rewrites the stored catalog as a build before the protocol record wrote it. */
  private static void forgetProtocol(Fixture f) {
    String uri = new StorageLayout(Fixture.DB).catalog();
    byte[] stored = CloudFutures.await(f.services().storage().get(uri)).orElseThrow().payload();
    byte[] legacy =
        PageCodec.encode(
            PageCodec.decode(uri, stored).toBuilder().protocolState(new byte[0]).build());
    CloudFutures.await(f.services().storage().put(uri, legacy, Map.of()));
  }
}
