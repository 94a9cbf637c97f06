package io.stratus.core.contract;

import static io.stratus.core.contract.ContractCloud.COLLECTION;
import static io.stratus.core.contract.ContractCloud.bytes;
import static io.stratus.core.contract.ContractCloud.initial;
import static io.stratus.core.contract.ContractCloud.read;
import static org.assertj.core.api.Assertions.assertThat;

import io.stratus.cloudapi.CloudLimits;
import io.stratus.cloudapi.decorate.FaultInterceptor;
import io.stratus.cloudapi.decorate.FaultPlan;
import io.stratus.cloudapi.decorate.ScriptedCrashPoints;
import io.stratus.cloudapi.inprocess.QueueBehavior;
import io.stratus.cloudapi.inprocess.StorageConsistency;
import io.stratus.core.Database;
import io.stratus.core.Key;
import io.stratus.core.Transaction;
import io.stratus.protocols.CrashPoint;
import io.stratus.protocols.Guarantee;
import io.stratus.protocols.ProtocolKind;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * One crash-and-recover schedule of the crash-point sweep: client "a" commits a few transactions
 * (an update and an insert each) and checkpoints, dying at a named crash point; its cloud calls
 * in flight die with it. Client "b" recovers it and quiesces — and in two variants dies itself
 * while doing so, after which client "c" finishes the work. A fresh reader then judges the result
 * against the protocol's guarantees: commits that returned are kept, a commit a client died in
 * is all-or-nothing where atomicity is promised (each of its changes old or new otherwise), and
 * every record appears exactly once in a well-formed tree.
 *
 * <p>{@link Shape#SMALL_MESSAGES} caps queue messages so that every commit takes several
 * messages: the points between a commit's log messages and its commit record are reached only so.
 */
final class CrashRun {
  private static final int LOADED = 100;
  private static final int SMALL_MESSAGE_BYTES = 220;

  /** What the recovering client does. */
  enum Variant {
    /** b recovers and does not die. */
    SINGLE,
    /** b dies at the same point again or at the registry's next point while it recovers. */
    TWICE,
    /** b dies at the first recovery-phase point ({@link CrashPoint.Phase#RECOVERY}) it reaches. */
    DURING_RECOVERY
  }

  /** The cloud's message limits. */
  enum Shape {
    DEFAULT_MESSAGES,
    SMALL_MESSAGES
  }

  /** Where the clients died: a's point (empty if a never reached it) and b's, if b died. */
  record Outcome(boolean aCrashed, String bCrashedAt) {
    boolean bCrashed() {
      return bCrashedAt != null;
    }
  }

  private CrashRun() {}

  /** Runs the schedule of {@code kind} with a's crash armed at {@code point}. */
  static Outcome run(ProtocolKind kind, long seed, CrashPoint point, Variant variant, Shape shape) {
    String at =
        kind
            + " crash at "
            + point.id()
            + " ("
            + variant
            + ", "
            + shape
            + ", seed "
            + seed
            + ", replay: -D"
            + CrashPointSweepTest.PROTOCOL
            + "="
            + kind
            + " -D"
            + CrashPointSweepTest.POINT
            + "="
            + point.id()
            + " -D"
            + ContractSeeds.SEED
            + "="
            + seed
            + ")";
    try (ContractCloud c =
        new ContractCloud(
            kind,
            seed,
            QueueBehavior.reliable(),
            StorageConsistency.strong(),
            b ->
                shape == Shape.SMALL_MESSAGES
                    ? b.limits(
                        CloudLimits.aws().toBuilder()
                            .maxMessageSize(SMALL_MESSAGE_BYTES)
                            .maxAdvancedMessageSize(SMALL_MESSAGE_BYTES)
                            .build())
                    : b)) {
      FaultInterceptor aCalls = new FaultInterceptor(FaultPlan.none(), seed, c.clock);
      // Commit-path points die in the second commit, so one commit has returned before.
      // Several messages per commit need wide commits where small messages hold many records.
      int width = shape == Shape.SMALL_MESSAGES ? 6 : 1;
      int occurrence = point.phase() == CrashPoint.Phase.COMMIT ? 2 : 1;
      ScriptedCrashPoints aCrash =
          new ScriptedCrashPoints().arm(point.id(), occurrence).onCrash(aCalls::killClient);
      Database a = c.open(c.config("a", aCalls).crashPoints(aCrash));
      FaultInterceptor bCalls = new FaultInterceptor(FaultPlan.none(), seed + 1, c.clock);
      ScriptedCrashPoints bCrash = new ScriptedCrashPoints().onCrash(bCalls::killClient);
      Database b = c.open(c.config("b", bCalls).crashPoints(bCrash));
      ContractCloud.load(b, LOADED);
      Map<Long, String> committed = new LinkedHashMap<>();
      int dying = -1;
      for (int i = 0; i < 4 && !aCrash.crashed(); i++) {
        try (Transaction tx = a.begin()) {
          for (int j = 0; j < width; j++) {
            tx.update(COLLECTION, Key.of(i * 30L + j), bytes("u" + i));
          }
          tx.create(COLLECTION, Key.of(1000L + i), bytes("n" + i));
          tx.commit();
        } catch (RuntimeException e) {
          if (!aCrash.crashed()) {
            throw e;
          }
          dying = i;
          break;
        }
        for (int j = 0; j < width; j++) {
          committed.put(i * 30L + j, "u" + i);
        }
        committed.put(1000L + i, "n" + i);
        c.runBackground(); // propagation and writer-side checkpoints, maybe dying there
      }
      if (!aCrash.crashed()) {
        try {
          a.admin().checkpointAll();
        } catch (RuntimeException e) {
          if (!aCrash.crashed()) {
            throw e;
          }
        }
      }
      arm(bCrash, point, variant);
      c.clock.advance(ContractCloud.LEASES); // the dead client's leases lapse
      Database finisher = b;
      try {
        b.admin().recoverAbandonedClients();
        c.settle(b);
      } catch (RuntimeException e) {
        if (!bCrash.crashed()) {
          throw e;
        }
      }
      if (bCrash.crashed()) {
        finisher = c.open("c"); // the third client finishes what both left
        c.clock.advance(ContractCloud.LEASES);
        finisher.admin().recoverAbandonedClients();
      }
      c.settle(finisher);
      c.settle(finisher);
      Database reader = c.open("reader");
      String where =
          at
              + (aCrash.crashed() ? "" : " (not reached)")
              + bCrash.crashedAt().map(p -> ", recoverer died at " + p).orElse("");
      committed.forEach(
          (k, v) ->
              assertThat(read(reader, k))
                  .as("%s: key %d of a commit that returned", where, k)
                  .isEqualTo(v));
      int extra = 0;
      if (dying >= 0) {
        String n = read(reader, 1000L + dying);
        assertThat(n).as("%s: insert of the dying commit", where).isIn(null, "n" + dying);
        for (int j = 0; j < width; j++) {
          long k = dying * 30L + j;
          String u = read(reader, k);
          assertThat(u)
              .as("%s: update of key %d by the dying commit", where, k)
              .isIn(initial(k), "u" + dying);
          if (kind.guarantees(Guarantee.ATOMIC)) {
            assertThat(n != null)
                .as(
                    "%s: the dying commit is all or nothing (key %d: %s," + " insert: %s)",
                    where, k, u, n)
                .isEqualTo(u.equals("u" + dying));
          }
        }
        extra = n == null ? 0 : 1;
      }
      assertThat(ContractCloud.scan(reader))
          .as("%s: every record once", where)
          .hasSize(LOADED + committed.size() / (width + 1) + extra);
      return new Outcome(aCrash.crashed(), bCrash.crashedAt().orElse(null));
    }
  }

  /** Arms the recovering client as {@code variant} says. */
  private static void arm(ScriptedCrashPoints b, CrashPoint point, Variant variant) {
    switch (variant) {
      case SINGLE -> {}
      case TWICE -> {
        b.arm(point.id(), 1);
        List<CrashPoint> all = List.of(CrashPoint.values());
        int next = all.indexOf(point) + 1;
        if (next < all.size()) {
          b.arm(all.get(next).id(), 1);
        }
      }
      case DURING_RECOVERY ->
          CrashPoint.of(CrashPoint.Phase.RECOVERY).forEach(p -> b.arm(p.id(), 1));
    }
  }
}
