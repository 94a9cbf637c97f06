package io.stratus.core;

import static org.assertj.core.api.Assertions.assertThat;

import io.stratus.cloudapi.inprocess.QueueBehavior;
import io.stratus.cloudapi.testing.Seed;
import io.stratus.cloudapi.testing.SeedExtension;
import io.stratus.protocols.ProtocolKind;
import io.stratus.testkit.CheckResult;
import io.stratus.testkit.Checkers;
import io.stratus.testkit.Guarantees;
import io.stratus.testkit.HistoryRecorder;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Several clients run seeded random transactions against one in-process cloud while a {@link
 * HistoryRecorder} notes every read, write and outcome; after quiescence the history is checked
 * against what the protocol promises (testkit's per-protocol {@link Guarantees}).
 *
 * <p>Each round, every client begins, reads and updates records of its own share of the keys (so
 * no two concurrent transactions write one key, but their records share pages), and then all commit
 * one after another; the clock moves a millisecond per commit so that commit-time order is
 * completion order. Naive keeps only "values were written" and is shown to break durability;
 * basic keeps committed writes and converges on reliable queues, and converges on written values
 * on weak ones.
 */
@ExtendWith(SeedExtension.class)
class HistoryCheckedProtocolTest {
  private static final int CLIENTS = 3;
  private static final int ROUNDS = 8;
  private static final int RECORDS = 90;

  @Test
  void basicKeepsEveryCommittedWriteAndConverges(@Seed long seed) {
    CheckResult result = run(seed, ProtocolKind.BASIC, QueueBehavior.reliable());
    result.assertValid();
  }

  /**
   * With reordering, short receives and duplicates, basic still converges on values that were
   * written, and loses no record; but an older update of a key can be applied after a newer one
   * when its message comes late or twice (paper 000, section 4.3: the indeterminism of simple redo
   * records), so "the latest committed write survives" is not promised here. Monotonic writes fix
   * it.
   */
  @Test
  void basicConvergesOnWrittenValuesUnderWeakQueues(@Seed long seed) {
    HistoryRun run = new HistoryRun(seed, ProtocolKind.BASIC, QueueBehavior.weak());
    run.execute();
    run.recorder.snapshot()
        .check(Guarantees.of(Checkers.valuesWereWritten(), Checkers.convergence()))
        .assertValid();
  }

  @Test
  void naiveLosesCommittedWrites(@Seed long seed) {
    HistoryRun naive = new HistoryRun(seed, ProtocolKind.NAIVE, QueueBehavior.reliable());
    naive.execute();
    naive.recorder.snapshot().check(Guarantees.forProtocol("naive")).assertValid();
    CheckResult asIfBasic = naive.recorder.snapshot().check(Guarantees.forProtocol("basic"));
    assertThat(asIfBasic.valid()).as("naive should lose updates on shared pages").isFalse();
    assertThat(asIfBasic.failedCheckers()).contains("committedWritesSurvive");
  }

  private static CheckResult run(long seed, ProtocolKind protocol, QueueBehavior queues) {
    HistoryRun run = new HistoryRun(seed, protocol, queues);
    run.execute();
    return run.recorder.snapshot().check(Guarantees.forProtocol(protocol.name().toLowerCase()));
  }

  /** One seeded run: the cloud, the clients, the recorder. */
  private static final class HistoryRun {
    final Random random;
    final ProtocolKind protocol;
    final Fixture fixture;
    final HistoryRecorder recorder = new HistoryRecorder();
    final List<Database> clients = new ArrayList<>();
    final List<ManualExecutor> executors = new ArrayList<>();

    HistoryRun(long seed, ProtocolKind protocol, QueueBehavior queues) {
      this.random = new Random(seed);
      this.protocol = protocol;
      this.fixture = new Fixture(seed, true, queues);
    }

    void execute() {
      try (Fixture f = fixture) {
        for (int c = 0; c < CLIENTS; c++) {
          ManualExecutor executor = new ManualExecutor();
          executors.add(executor);
          clients.add(f.open(f.config().protocol(protocol).clientId("client-" + c)
              .checkpointExecutor(executor)));
        }
        load();
        for (int round = 0; round < ROUNDS; round++) {
          round(round);
          if (random.nextInt(3) == 0) {
            executors.get(random.nextInt(CLIENTS)).runAll(); // background checkpoints, now
          }
        }
        quiesce();
        for (int c = 0; c < CLIENTS; c++) {
          recorder.finalState("client-" + c, Fixture.itemsByKey(clients.get(c)));
        }
      }
    }

    private void load() {
      Database db = clients.get(0);
      db.createCollection("items");
      List<Record> records = new ArrayList<>();
      HistoryRecorder.Recording loading = recorder.begin("loader");
      for (int k = 0; k < RECORDS; k++) {
        records.add(new Record(Key.of((long) k), Fixture.bytes("v0-" + k)));
        loading.write(Long.toString(k), "v0-" + k);
      }
      db.bulkLoad("items", records);
      loading.ok();
    }

    private void round(int round) {
      List<Transaction> txs = new ArrayList<>();
      List<HistoryRecorder.Recording> recordings = new ArrayList<>();
      for (int c = 0; c < CLIENTS; c++) {
        Transaction tx = clients.get(c).begin();
        HistoryRecorder.Recording rec = recorder.begin("client-" + c);
        long probe = random.nextInt(RECORDS);
        rec.read(Long.toString(probe), tx.read("items", Key.of(probe)).map(Fixture::string)
            .orElse(null));
        for (int i = 0; i < 3; i++) {
          long k = random.nextInt(RECORDS / CLIENTS) * CLIENTS + c; // this client's share
          String value = "client-" + c + "/r" + round + "/" + i + "/" + k;
          if (tx.update("items", Key.of(k), Fixture.bytes(value))) {
            rec.write(Long.toString(k), value);
          }
        }
        txs.add(tx);
        recordings.add(rec);
      }
      for (int c = 0; c < CLIENTS; c++) {
        txs.get(c).commit();
        recordings.get(c).ok();
        fixture.clock.advance(Duration.ofMillis(1)); // commit-time order = completion order
      }
    }

    private void quiesce() {
      fixture.clock.advance(Duration.ofSeconds(31)); // leases lapse, hidden messages reappear
      if (protocol != ProtocolKind.NAIVE) {
        clients.get(0).checkpointAll();
        fixture.clock.advance(Duration.ofSeconds(31));
        clients.get(1).checkpointAll();
      }
      fixture.clock.advance(Fixture.TTL.plusSeconds(1));
    }
  }
}
