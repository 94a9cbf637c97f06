package io.stratus.core.contract;

import static io.stratus.core.contract.ContractCloud.COLLECTION;
import static io.stratus.core.contract.ContractCloud.bytes;

import io.stratus.CommitStateUnknownException;
import io.stratus.StratusException;
import io.stratus.cloudapi.Operation;
import io.stratus.cloudapi.decorate.CallInterceptor;
import io.stratus.cloudapi.decorate.FaultInterceptor;
import io.stratus.cloudapi.decorate.FaultPlan;
import io.stratus.core.Database;
import io.stratus.core.IndexKeyExtractor;
import io.stratus.core.Key;
import io.stratus.core.Record;
import io.stratus.core.SwitchedFaults;
import io.stratus.core.Transaction;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;

/**
 * A user's loader under queue faults, the schedule that found acknowledged commits left invisible
 * for good: 4 KB pages, one collection with a secondary index, short checkpoint intervals and
 * leases, and ONE request thread committing one-record transactions while simple-queue calls
 * fail or lose their replies — on every path, so propagation, clean-up, checkpoint and recovery
 * sends and receives fail as well as commits. Background work runs every few commits, the clock
 * moves a little per commit. Then the faults heal, the writer checkpoints and closes, and another
 * client settles the database.
 */
final class PropagationFaults {
  static final String INDEX = "byRest";

  /** Search keys of {@link #EXTRACTOR}: the record key modulo this. */
  static final int SEARCH_KEYS = 13;

  /** Indexes a record "v&lt;k&gt;" under k mod {@link #SEARCH_KEYS}. */
  static final IndexKeyExtractor EXTRACTOR =
      (key, payload) -> {
        long k = Long.parseLong(ContractCloud.string(payload).substring(1));
        return Optional.of(Key.of(Math.floorMod(k, SEARCH_KEYS)).toBytes());
      };

  private static final FaultPlan.Selector QUEUES =
      FaultPlan.Selector.services(Operation.Service.SIMPLE_QUEUE, Operation.Service.ADVANCED_QUEUE);

  /** What the writer was told. */
  record Outcome(List<Long> acknowledged, Set<Long> unknown, int faults) {}

  private PropagationFaults() {}

  /** Opens a handle of {@code c} with the schedule's settings. */
  static Database open(ContractCloud c, String clientId, CallInterceptor... faults) {
    return c.open(
        c.checkpoints(
                c.config(clientId, faults)
                    .pageSize(4096)
                    .indexExtractor(COLLECTION, INDEX, EXTRACTOR),
                b ->
                    b.checkpointInterval(Duration.ofSeconds(1))
                        .checkpointLockTimeout(Duration.ofSeconds(5))
                        .propagationPeriod(Duration.ofSeconds(1))
                        .maxRecordsPerCheckpoint(64))
            .clientId(clientId));
  }

  /** Runs {@code commits} one-record commits under faults, heals, checkpoints and closes. */
  static Outcome load(ContractCloud c, int commits) {
    Database setup = open(c, "setup");
    setup.createCollection(COLLECTION);
    setup.createIndex(COLLECTION, INDEX, EXTRACTOR);
    FaultPlan plan = FaultPlan.builder().fail(QUEUES, 0.03).loseReply(QUEUES, 0.02).build();
    SwitchedFaults faults = new SwitchedFaults(new FaultInterceptor(plan, c.seed, c.clock));
    Database w = open(c, "w", faults);
    faults.switchTo(true);
    List<Long> acknowledged = new ArrayList<>();
    Set<Long> unknown = new HashSet<>();
    for (long k = 0; k < commits; k++) {
      try (Transaction tx = w.begin()) {
        tx.put(COLLECTION, Key.of(k), bytes("v" + k));
        tx.commit();
        acknowledged.add(k);
      } catch (CommitStateUnknownException e) {
        unknown.add(k);
      } catch (StratusException e) {
        // failed, nothing took effect: the loader moves on
      }
      c.clock.advance(Duration.ofMillis(20));
      if (k % 7 == 6) {
        c.runBackground();
      }
    }
    int injected = faults.injected();
    faults.switchTo(false);
    c.runBackground();
    w.admin().checkpointAll();
    w.close();
    return new Outcome(acknowledged, unknown, injected);
  }

  /** The record keys {@code reader} finds through the index, each under its own search key. */
  static Set<Long> indexed(Database reader) {
    Set<Long> out = new TreeSet<>();
    try (Transaction tx = reader.begin()) {
      for (int s = 0; s < SEARCH_KEYS; s++) {
        for (Record r : tx.probe(COLLECTION, INDEX, Key.of(s))) {
          long k = r.key().decoder().nextLong();
          if (Math.floorMod(k, SEARCH_KEYS) == s) {
            out.add(k);
          }
        }
      }
    }
    return out;
  }
}
