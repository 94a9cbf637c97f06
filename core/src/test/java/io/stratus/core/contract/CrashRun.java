package io.stratus.core.contract;

import static io.stratus.core.contract.ContractCloud.COLLECTION;
import static io.stratus.core.contract.ContractCloud.bytes;
import static io.stratus.core.contract.ContractCloud.initial;
import static io.stratus.core.contract.ContractCloud.read;
import static org.assertj.core.api.Assertions.assertThat;

import io.stratus.cloudapi.decorate.FaultInterceptor;
import io.stratus.cloudapi.decorate.FaultPlan;
import io.stratus.cloudapi.decorate.ScriptedCrashPoints;
import io.stratus.core.Database;
import io.stratus.core.Key;
import io.stratus.core.Transaction;
import io.stratus.protocols.Guarantee;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * One crash-and-recover schedule of the contract: client "a" commits a few transactions (an
 * update and an insert each) and checkpoints, dying at a named crash point; its cloud calls in
 * flight die with it. Client "b" recovers it and quiesces; a fresh reader then judges the result
 * against the protocol's guarantees.
 */
final class CrashRun {
  private static final int LOADED = 100;

  private CrashRun() {}

  /** Runs the schedule with a crash armed at {@code point}; true if the client died there. */
  static boolean run(ProtocolContract suite, long seed, String point) {
    try (ContractCloud c = new ContractCloud(suite.kind(), seed)) {
      FaultInterceptor calls = new FaultInterceptor(FaultPlan.none(), seed, c.clock);
      // Commit-path points die in the second commit, so one commit has returned before.
      int occurrence = point.startsWith("checkpoint.") ? 1 : 2;
      ScriptedCrashPoints crash = new ScriptedCrashPoints().arm(point, occurrence)
          .onCrash(calls::killClient);
      Database a = c.open(c.config("a", calls).crashPoints(crash));
      Database b = c.open("b");
      ContractCloud.load(b, LOADED);
      Map<Long, String> committed = new LinkedHashMap<>();
      int dying = -1;
      for (int i = 0; i < 4 && !crash.crashed(); i++) {
        try (Transaction tx = a.begin()) {
          tx.update(COLLECTION, Key.of(i * 30L), bytes("u" + i));
          tx.create(COLLECTION, Key.of(1000L + i), bytes("n" + i));
          tx.commit();
        } catch (RuntimeException e) {
          if (!crash.crashed()) {
            throw e;
          }
          dying = i;
          break;
        }
        committed.put(i * 30L, "u" + i);
        committed.put(1000L + i, "n" + i);
        c.runBackground(); // propagation and writer-side checkpoints, maybe dying there
      }
      if (!crash.crashed()) {
        try {
          a.checkpointAll();
        } catch (RuntimeException e) {
          if (!crash.crashed()) {
            throw e;
          }
        }
      }
      c.clock.advance(ContractCloud.LEASES); // the dead client's leases lapse
      b.recoverAbandonedClients();
      c.settle(b);
      c.settle(b);
      Database reader = c.open("reader");
      String at = "crash at " + point + (crash.crashed() ? "" : " (not reached)");
      committed.forEach((k, v) -> assertThat(read(reader, k))
          .as("%s: key %d of a commit that returned", at, k).isEqualTo(v));
      int extra = 0;
      if (dying >= 0) {
        String u = read(reader, dying * 30L);
        String n = read(reader, 1000L + dying);
        assertThat(u).as("%s: update of the dying commit", at)
            .isIn(initial(dying * 30L), "u" + dying);
        assertThat(n).as("%s: insert of the dying commit", at).isIn(null, "n" + dying);
        if (suite.promises(Guarantee.ATOMIC)) {
          assertThat(n != null).as("%s: the dying commit is all or nothing (update %s, insert %s)",
              at, u, n).isEqualTo(u.equals("u" + dying));
        }
        extra = n == null ? 0 : 1;
      }
      assertThat(ContractCloud.scan(reader)).as("%s: every record once", at)
          .hasSize(LOADED + committed.size() / 2 + extra);
      return crash.crashed();
    }
  }
}
