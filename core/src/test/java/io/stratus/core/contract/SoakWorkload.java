package io.stratus.core.contract;

import static io.stratus.core.contract.ContractCloud.COLLECTION;
import static io.stratus.core.contract.ContractCloud.bytes;
import static io.stratus.core.contract.ContractCloud.string;

import io.stratus.cloudapi.inprocess.QueueBehavior;
import io.stratus.core.Database;
import io.stratus.core.Key;
import io.stratus.core.Transaction;
import io.stratus.protocols.Guarantee;
import io.stratus.protocols.ProtocolKind;
import io.stratus.testkit.Anomaly;
import io.stratus.testkit.CheckResult;
import io.stratus.testkit.History;
import io.stratus.testkit.HistoryRecorder;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Random;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A workload of the fault soak: loads the database, runs one transaction of a session at a time
 * (from several threads at once), and after quiescence judges the history by the protocol's
 * declared guarantees. Sessions are numbered 0 to sessions-1 and keep their numbers when their
 * client is replaced after a crash.
 */
interface SoakWorkload {
  String name();

  void load(Database db);

  /** One transaction of session {@code session} in round {@code round}; never throws. */
  void transact(Database db, String client, int session, int round, Random r);

  /** The verdict, from every live client's view and a fresh reader's. */
  SoakResult.Judgement judge(List<Database> views, Database reader);

  /**
   * TPC-W-like: read-mostly transactions (a third only read), updates of the session's own keys
   * and of shared keys, inserts of fresh keys and deletes of the session's earlier inserts. The
   * shared keys are written by one session per round, so that completion order is write order
   * for every key; the history goes to testkit's checkers that the protocol's guarantees select
   * ({@link HistoryHarness#checkersFor}).
   */
  final class Tpcw implements SoakWorkload {
    static final int KEYS = 120;
    static final int SHARED = 12;
    private final ProtocolKind kind;
    private final int sessions;
    private final HistoryRecorder recorder = new HistoryRecorder();
    private final Map<Integer, List<Long>> inserted = new ConcurrentHashMap<>();

    /** The load's transaction: settled before any other write (fresh keys are not). */
    private volatile String loadTx;

    Tpcw(ProtocolKind kind, int sessions) {
      this.kind = kind;
      this.sessions = sessions;
    }

    @Override
    public String name() {
      return "tpcw";
    }

    @Override
    public void load(Database db) {
      db.createCollection(COLLECTION);
      HistoryRecorder.Recording loading = recorder.begin("loader");
      try (Transaction tx = db.begin()) {
        for (long k = 0; k < KEYS; k++) {
          tx.create(COLLECTION, Key.of(k), bytes(ContractCloud.initial(k)));
          loading.write(Long.toString(k), ContractCloud.initial(k));
        }
        tx.commit();
      }
      loading.ok();
      loadTx = loading.txId();
    }

    @Override
    public void transact(Database db, String client, int session, int round, Random r) {
      HistoryRecorder.Recording rec = recorder.begin(client);
      List<Long> mine = inserted.computeIfAbsent(session, s -> new CopyOnWriteArrayList<>());
      long fresh = -1;
      FaultSoak.Outcome o;
      try (Transaction tx = db.begin()) {
        for (int i = 0; i < 8; i++) {
          long k = r.nextInt(KEYS);
          rec.read(
              Long.toString(k),
              tx.read(COLLECTION, Key.of(k)).map(ContractCloud::string).orElse(null));
        }
        if (r.nextInt(3) > 0) {
          for (int i = 0; i < 1 + r.nextInt(2); i++) {
            // SHARED is a multiple of the session count: own keys are those of its residue.
            long k = SHARED + (long) r.nextInt((KEYS - SHARED) / sessions) * sessions + session;
            write(tx, rec, k, client + "/r" + round + "/" + k);
          }
          if (round % sessions == session) {
            long k = r.nextInt(SHARED);
            write(tx, rec, k, client + "/shared/r" + round + "/" + k);
          }
          if (r.nextInt(3) == 0) {
            fresh = 1000L + session * 100L + round;
            tx.create(COLLECTION, Key.of(fresh), bytes("new-" + fresh));
            rec.write(Long.toString(fresh), "new-" + fresh);
          }
          if (!mine.isEmpty() && r.nextInt(4) == 0) {
            long k = mine.get(r.nextInt(mine.size()));
            if (tx.delete(COLLECTION, Key.of(k))) {
              rec.delete(Long.toString(k));
              mine.remove(k);
            }
          }
        }
        o = FaultSoak.commit(tx);
      } catch (RuntimeException e) {
        o = FaultSoak.Outcome.FAILED; // a read failed (or the client died): nothing was sent
      }
      switch (o) {
        case OK -> {
          rec.ok();
          if (fresh >= 0) {
            mine.add(fresh);
          }
        }
        case FAILED -> rec.failed();
        default -> rec.unknown();
      }
    }

    private static void write(Transaction tx, HistoryRecorder.Recording rec, long k, String v) {
      if (tx.update(COLLECTION, Key.of(k), bytes(v))) {
        rec.write(Long.toString(k), v);
      }
    }

    @Override
    public SoakResult.Judgement judge(List<Database> views, Database reader) {
      for (int i = 0; i < views.size(); i++) {
        recorder.finalState("view-" + i, view(views.get(i)));
      }
      recorder.finalState("reader", view(reader));
      History h = recorder.snapshot();
      // Fresh keys are inserted, and deleted, while faults are on: only the load is settled.
      CheckResult result =
          h.check(
              HistoryHarness.checkersFor(
                  kind.guarantees(),
                  QueueBehavior.weak(),
                  Optional.of(loadTx == null ? Set.of() : Set.of(loadTx))));
      Map<String, Integer> kinds = new TreeMap<>();
      List<String> descriptions = new ArrayList<>();
      int lost = 0;
      for (Anomaly a : result.anomalies()) {
        kinds.merge(a.checker(), 1, Integer::sum);
        descriptions.add(a.toString());
        if (a.checker().equals("committedWritesSurvive")
            || a.checker().equals("updatesTakeEffect")) {
          lost++;
        }
      }
      return new SoakResult.Judgement(h.transactions().size(), kinds, lost, descriptions);
    }

    private static Map<String, String> view(Database db) {
      Map<String, String> out = new HashMap<>();
      ContractCloud.scan(db).forEach((k, v) -> out.put(Long.toString(k), v));
      return out;
    }
  }

  /**
   * Bank transfers: each transaction moves an amount between two accounts, and an account's value
   * is its balance and the ids of the transfers applied to it, so the final state tells which
   * transfers took effect where. With isolation ({@link Guarantee#SNAPSHOT_ISOLATION} or {@link
   * Guarantee#SERIALIZABLE}) any two accounts, contended; audits read every account in one
   * transaction and must see the total. Without, each session moves money among accounts of its
   * own (the protocols promise nothing about concurrent read-modify-writes of one key).
   *
   * <p>What is checked, from the guarantees: always that every balance matches the transfers its
   * value lists, each listed once, each one somebody made. {@link Guarantee#ATOMIC}: no failed
   * transfer appears; one that returned appears at both accounts or neither, and so does one of
   * unknown outcome under isolation (without isolation a later transfer of the same handle may
   * have read the account before the unknown one was visible and overwritten it: read-your-writes
   * covers commits that returned). Durable with read-your-writes and monotonic writes, or
   * isolation: no transfer that returned is missing (an acknowledged write lost). Isolation: the
   * balances sum to the total. {@link Guarantee#CONVERGES}: every client sees the same.
   */
  final class Bank implements SoakWorkload {
    static final int ACCOUNTS = 24;
    static final long START = 100;
    private final ProtocolKind kind;
    private final int sessions;
    private final boolean isolating;
    private final AtomicInteger ids = new AtomicInteger();
    private final AtomicInteger audits = new AtomicInteger();
    private final Map<String, Transfer> transfers = new ConcurrentHashMap<>();
    private final List<String> auditFailures = new CopyOnWriteArrayList<>();

    private record Transfer(String id, int from, int to, long amount, FaultSoak.Outcome outcome) {}

    Bank(ProtocolKind kind, int sessions) {
      this.kind = kind;
      this.sessions = sessions;
      this.isolating =
          kind.guarantees(Guarantee.SNAPSHOT_ISOLATION) || kind.guarantees(Guarantee.SERIALIZABLE);
    }

    @Override
    public String name() {
      return "bank";
    }

    @Override
    public void load(Database db) {
      db.createCollection(COLLECTION);
      try (Transaction tx = db.begin()) {
        for (long a = 0; a < ACCOUNTS; a++) {
          tx.create(COLLECTION, Key.of(a), bytes(START + ";"));
        }
        tx.commit();
      }
    }

    @Override
    public void transact(Database db, String client, int session, int round, Random r) {
      if (isolating && r.nextInt(3) == 0) {
        audit(db, client);
        return;
      }
      int from;
      int to;
      if (isolating) {
        from = r.nextInt(ACCOUNTS);
        to = (from + 1 + r.nextInt(ACCOUNTS - 1)) % ACCOUNTS;
      } else {
        int own = ACCOUNTS / sessions;
        from = r.nextInt(own) * sessions + session;
        to = ((from / sessions + 1 + r.nextInt(own - 1)) % own) * sessions + session;
      }
      long amount = 1 + r.nextInt(10);
      String id = "t" + ids.incrementAndGet();
      FaultSoak.Outcome o;
      try (Transaction tx = db.begin()) {
        Optional<Account> a = read(tx, from);
        Optional<Account> b = read(tx, to);
        if (a.isEmpty() || b.isEmpty()) {
          return; // not visible yet to this client: nothing to move
        }
        tx.update(COLLECTION, Key.of(from), bytes(a.get().with(id, -amount)));
        tx.update(COLLECTION, Key.of(to), bytes(b.get().with(id, amount)));
        o = FaultSoak.commit(tx);
      } catch (RuntimeException e) {
        o = FaultSoak.Outcome.FAILED;
      }
      transfers.put(id, new Transfer(id, from, to, amount, o));
    }

    private void audit(Database db, String client) {
      audits.incrementAndGet();
      long sum = 0;
      try (Transaction tx = db.begin()) {
        for (int a = 0; a < ACCOUNTS; a++) {
          Optional<Account> acc = read(tx, a);
          if (acc.isEmpty()) {
            return;
          }
          sum += acc.get().balance;
        }
      } catch (RuntimeException e) {
        return; // a failed read: the audit saw nothing
      }
      if (sum != START * ACCOUNTS) {
        auditFailures.add(client + " audited a total of " + sum);
      }
    }

    private static Optional<Account> read(Transaction tx, int account) {
      return tx.read(COLLECTION, Key.of((long) account)).map(b -> Account.parse(string(b)));
    }

    /** Balance and the ids of the transfers applied, in order. */
    private record Account(long balance, List<String> ids) {
      static Account parse(String v) {
        int semi = v.indexOf(';');
        String rest = v.substring(semi + 1);
        return new Account(
            Long.parseLong(v.substring(0, semi)),
            rest.isEmpty() ? List.of() : List.of(rest.split(",")));
      }

      String with(String id, long delta) {
        List<String> out = new ArrayList<>(ids);
        out.add(id);
        return (balance + delta) + ";" + String.join(",", out);
      }
    }

    @Override
    public SoakResult.Judgement judge(List<Database> views, Database reader) {
      Map<String, Integer> kinds = new TreeMap<>();
      List<String> descriptions = new ArrayList<>();
      Map<Long, String> finalState = ContractCloud.scan(reader);
      Map<Integer, Set<String>> applied = new HashMap<>();
      long total = 0;
      for (int a = 0; a < ACCOUNTS; a++) {
        String v = finalState.get((long) a);
        if (v == null) {
          note(kinds, descriptions, "account-missing", "account " + a + " is gone");
          continue;
        }
        Account acc = Account.parse(v);
        total += acc.balance;
        Set<String> once = new LinkedHashSet<>(acc.ids);
        applied.put(a, once);
        if (once.size() != acc.ids.size()) {
          note(kinds, descriptions, "applied-twice", "account " + a + " lists " + acc.ids);
        }
        long expected = START;
        for (String id : acc.ids) {
          Transfer t = transfers.get(id);
          if (t == null || (t.from != a && t.to != a)) {
            note(kinds, descriptions, "value-nobody-wrote", "account " + a + " lists " + id);
            continue;
          }
          expected += t.from == a ? -t.amount : t.amount;
        }
        if (expected != acc.balance) {
          note(
              kinds,
              descriptions,
              "torn-balance",
              "account " + a + " holds " + acc.balance + " but its transfers sum to " + expected);
        }
      }
      boolean atomic = kind.guarantees(Guarantee.ATOMIC);
      boolean keepsAcknowledged =
          isolating
              || (kind.guarantees(Guarantee.DURABLE)
                  && kind.guarantees(Guarantee.READ_YOUR_WRITES)
                  && kind.guarantees(Guarantee.MONOTONIC_WRITES));
      int lost = 0;
      for (Transfer t : transfers.values()) {
        boolean inFrom = applied.getOrDefault(t.from, Set.of()).contains(t.id);
        boolean inTo = applied.getOrDefault(t.to, Set.of()).contains(t.id);
        if (atomic && t.outcome == FaultSoak.Outcome.FAILED && (inFrom || inTo)) {
          note(kinds, descriptions, "failed-transfer-visible", t.toString());
        }
        boolean judgedWhole =
            t.outcome == FaultSoak.Outcome.OK
                || (isolating && t.outcome == FaultSoak.Outcome.UNKNOWN);
        if (atomic && judgedWhole && inFrom != inTo) {
          note(kinds, descriptions, "half-applied-transfer", t + " from " + inFrom + " to " + inTo);
        }
        if (keepsAcknowledged && t.outcome == FaultSoak.Outcome.OK && !(inFrom && inTo)) {
          lost++;
          note(
              kinds,
              descriptions,
              "acknowledged-transfer-lost",
              t + " from " + inFrom + " to " + inTo);
        }
      }
      if (isolating && total != START * ACCOUNTS) {
        note(kinds, descriptions, "sum-not-conserved", "balances sum to " + total);
      }
      if (isolating) {
        auditFailures.forEach(f -> note(kinds, descriptions, "audit-saw-wrong-total", f));
      }
      if (kind.guarantees(Guarantee.CONVERGES)) {
        for (int i = 0; i < views.size(); i++) {
          if (!ContractCloud.scan(views.get(i)).equals(finalState)) {
            note(kinds, descriptions, "diverged", "client view " + i + " differs from a reader's");
          }
        }
      }
      return new SoakResult.Judgement(transfers.size() + audits.get(), kinds, lost, descriptions);
    }

    private static void note(
        Map<String, Integer> kinds, List<String> descriptions, String kind, String what) {
      kinds.merge(kind, 1, Integer::sum);
      descriptions.add(kind + ": " + what);
    }
  }
}
