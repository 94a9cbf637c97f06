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
import io.stratus.testkit.Op;
import io.stratus.testkit.Outcome;
import io.stratus.testkit.Txn;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Random;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
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

  /** Called before round {@code round}'s transactions start, while none runs. */
  default void beforeRound(int round, Random r) {}

  /**
   * One transaction of session {@code session} in round {@code round}, the session's {@code
   * step}-th (steps count on across rounds; a session's steps run one after the other); never
   * throws.
   */
  void transact(Database db, String client, int session, int round, int step, Random r);

  /** A loader's commit: creates {@code key}; never throws. */
  FaultSoak.Outcome loaderCommit(Database db, String client, long key);

  /**
   * Whether a handle that takes a session over from another (after a crash or a restart) may
   * start only once the database settled: its read-modify-writes would otherwise overwrite what
   * the old handle committed and it does not see yet, which only isolation rules out.
   */
  default boolean newHandlesNeedSettling() {
    return false;
  }

  /** Schedule events the workload drew (for the tally), by kind. */
  default Map<String, Integer> scheduled() {
    return Map.of();
  }

  /** The verdict, from every live client's view and a fresh reader's. */
  SoakResult.Judgement judge(List<Database> views, Database reader);

  /**
   * The verdict while pages are damaged ({@link PageDamage}), after the passes that precede the
   * repair: from {@code reader}'s reads of every key the workload wrote, one at a time. A key
   * whose read meets a corrupt page is left out; every other key must show the acknowledged
   * writes the protocol's durability promises, although records for the damaged pages are still
   * held back. Anomalies are named {@code damage-window-<kind>}.
   */
  SoakResult.Judgement judgeReadable(Database reader);

  /** Who wrote each key and how their commits ended, for {@link SoakIndex#check}. */
  Map<Long, SoakIndex.Writes> writesByKey();

  /** The handle of a session or client name ("c1.0/t1" is handle "c1.0"). */
  static String handle(String client) {
    int slash = client.indexOf('/');
    return slash < 0 ? client : client.substring(0, slash);
  }

  /** The value a loader writes to {@code key}. */
  static String loaded(long key) {
    return "L" + key;
  }

  /**
   * TPC-W-like: read-mostly transactions (a third only read), updates of the session's own keys
   * and of shared keys, inserts of fresh keys and deletes of the session's earlier inserts. The
   * shared keys are written by one session per round, so that completion order is write order
   * for every key; the history goes to testkit's checkers that the protocol's guarantees select
   * ({@link HistoryHarness#checkersFor}).
   *
   * <p>With late re-sends, before a round some sessions claim a key that a session of another
   * client created in the round before (acknowledged or of unknown outcome, its record possibly
   * still hidden in a queue or not yet propagated); the claimer puts the key and then deletes it,
   * in two transactions of its first step, and the creator no longer touches it. The key must end
   * absent: a create that arrives after the delete must not bring it back.
   */
  final class Tpcw implements SoakWorkload {
    static final int KEYS = 120;
    static final int SHARED = 12;
    private final ProtocolKind kind;
    private final int sessions;
    private final int threads;
    private final boolean lateResends;
    private final HistoryRecorder recorder = new HistoryRecorder();
    private final Map<Integer, List<Long>> inserted = new ConcurrentHashMap<>();

    /** Fresh keys whose create returned OK or unknown, with the round of the create. */
    private final Map<Long, Integer> created = new ConcurrentHashMap<>();

    /** Keys claimed for a late re-send in the coming round, by claiming session. */
    private final Map<Integer, Long> claims = new ConcurrentHashMap<>();

    private final AtomicInteger resends = new AtomicInteger();

    /** The load's transaction: settled before any other write (fresh keys are not). */
    private volatile String loadTx;

    Tpcw(ProtocolKind kind, int sessions, int threads, boolean lateResends) {
      this.kind = kind;
      this.sessions = sessions;
      this.threads = threads;
      this.lateResends = lateResends;
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
    public void beforeRound(int round, Random r) {
      claims.clear();
      if (!lateResends || round == 0) {
        return;
      }
      List<Long> recent = new ArrayList<>();
      created.forEach((k, rd) -> recent.add(k));
      recent.removeIf(k -> created.get(k) != round - 1);
      recent.sort(null);
      for (int session = 0; session < sessions && !recent.isEmpty(); session++) {
        if (r.nextInt(3) != 0) {
          continue;
        }
        int client = session / threads;
        List<Long> others = recent.stream().filter(k -> creator(k) / threads != client).toList();
        if (others.isEmpty()) {
          continue;
        }
        long k = others.get(r.nextInt(others.size()));
        recent.remove(k);
        created.remove(k);
        inserted.getOrDefault(creator(k), List.of()).remove(k); // its creator leaves it alone now
        claims.put(session, k);
      }
    }

    /** The session that created fresh key {@code k} (see {@link #freshKey}). */
    private static int creator(long k) {
      return (int) ((k - 1000) / 100);
    }

    private static long freshKey(int session, int step) {
      return 1000L + session * 100L + step;
    }

    @Override
    public void transact(Database db, String client, int session, int round, int step, Random r) {
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
            write(tx, rec, k, client + "/s" + step + "/" + k);
          }
          if (round % sessions == session) {
            long k = r.nextInt(SHARED);
            write(tx, rec, k, client + "/shared/s" + step + "/" + k);
          }
          if (r.nextInt(3) == 0) {
            fresh = freshKey(session, step);
            tx.create(COLLECTION, Key.of(fresh), bytes("new-" + fresh));
            rec.write(Long.toString(fresh), "new-" + fresh);
          }
          if (!mine.isEmpty() && r.nextInt(4) == 0) {
            long k = mine.get(r.nextInt(mine.size()));
            if (tx.delete(COLLECTION, Key.of(k))) {
              rec.delete(Long.toString(k));
              mine.remove(k);
              created.remove(k);
            }
          }
        }
        o = FaultSoak.commit(tx);
      } catch (RuntimeException e) {
        o = FaultSoak.Outcome.FAILED; // a read failed (or the client died): nothing was sent
      }
      record(rec, o);
      if (fresh >= 0 && o != FaultSoak.Outcome.FAILED) {
        created.put(fresh, round);
        if (o == FaultSoak.Outcome.OK) {
          mine.add(fresh);
        }
      }
      Long claimed = claims.remove(session);
      if (claimed != null) {
        resendAndDelete(db, client, step, claimed);
      }
    }

    /** Puts {@code k} (created by another client, perhaps not visible yet), then deletes it. */
    private void resendAndDelete(Database db, String client, int step, long k) {
      resends.incrementAndGet();
      String v = client + "/again/s" + step + "/" + k;
      HistoryRecorder.Recording put = recorder.begin(client);
      FaultSoak.Outcome o;
      try (Transaction tx = db.begin()) {
        tx.put(COLLECTION, Key.of(k), bytes(v));
        put.write(Long.toString(k), v);
        o = FaultSoak.commit(tx);
      } catch (RuntimeException e) {
        o = FaultSoak.Outcome.FAILED;
      }
      record(put, o);
      HistoryRecorder.Recording delete = recorder.begin(client);
      try (Transaction tx = db.begin()) {
        if (tx.delete(COLLECTION, Key.of(k))) {
          delete.delete(Long.toString(k));
        }
        o = FaultSoak.commit(tx);
      } catch (RuntimeException e) {
        o = FaultSoak.Outcome.FAILED;
      }
      record(delete, o);
    }

    private static void record(HistoryRecorder.Recording rec, FaultSoak.Outcome o) {
      switch (o) {
        case OK -> rec.ok();
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
    public FaultSoak.Outcome loaderCommit(Database db, String client, long key) {
      HistoryRecorder.Recording rec = recorder.begin(client);
      FaultSoak.Outcome o;
      try (Transaction tx = db.begin()) {
        tx.create(COLLECTION, Key.of(key), bytes(SoakWorkload.loaded(key)));
        rec.write(Long.toString(key), SoakWorkload.loaded(key));
        o = FaultSoak.commit(tx);
      } catch (RuntimeException e) {
        o = FaultSoak.Outcome.FAILED;
      }
      record(rec, o);
      return o;
    }

    @Override
    public Map<String, Integer> scheduled() {
      return resends.get() == 0 ? Map.of() : Map.of("late-resend", resends.get());
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

    @Override
    public SoakResult.Judgement judgeReadable(Database reader) {
      History h = recorder.snapshot();
      Set<String> damaged = new TreeSet<>();
      Map<String, String> state = new HashMap<>();
      for (String k : h.keys()) {
        Optional<Optional<String>> v =
            PageDamage.readOr(
                key -> Optional.of(Optional.ofNullable(ContractCloud.read(reader, key))),
                Long.parseLong(k),
                Optional.empty());
        if (v.isEmpty()) {
          damaged.add(k);
        } else {
          v.get().ifPresent(value -> state.put(k, value));
        }
      }
      // The history without the keys behind damage: their records may still wait.
      List<Txn> readable = new ArrayList<>();
      for (Txn t : h.transactions()) {
        List<Op> ops = t.ops().stream().filter(op -> !damaged.contains(op.key())).toList();
        readable.add(
            new Txn(
                t.clientId(),
                t.txId(),
                t.invokedAt(),
                t.completedAt(),
                ops,
                t.outcome(),
                t.commitTime()));
      }
      Set<Guarantee> durability = kind.guarantees();
      durability.retainAll(Set.of(Guarantee.DURABLE, Guarantee.MONOTONIC_WRITES));
      CheckResult result =
          History.of(readable, Map.of("window-reader", state))
              .check(
                  HistoryHarness.checkersFor(
                      durability,
                      QueueBehavior.weak(),
                      Optional.of(loadTx == null ? Set.of() : Set.of(loadTx))));
      Map<String, Integer> kinds = new TreeMap<>();
      List<String> descriptions = new ArrayList<>();
      int lost = 0;
      for (Anomaly a : result.anomalies()) {
        if (a.checker().equals("committedWritesSurvive")
            || a.checker().equals("updatesTakeEffect")) {
          lost++;
          PageDamage.note(kinds, descriptions, "damage-window-" + a.checker(), a.toString());
        }
      }
      if (!damaged.isEmpty()) {
        descriptions.add("damage window: " + damaged.size() + " keys behind damage");
      }
      return new SoakResult.Judgement(0, kinds, lost, descriptions);
    }

    @Override
    public Map<Long, SoakIndex.Writes> writesByKey() {
      Map<Long, SoakIndex.Writes> out = new HashMap<>();
      for (Txn t : recorder.snapshot().transactions()) {
        boolean ok = t.outcome() == Outcome.OK;
        String handle = t.txId().equals(loadTx) ? null : SoakWorkload.handle(t.clientId());
        for (String k : t.effectiveWrites().keySet()) {
          long key = Long.parseLong(k);
          out.put(key, out.getOrDefault(key, SoakIndex.Writes.NONE).and(ok, handle));
        }
      }
      return out;
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
    private final Map<Long, Load> loaded = new ConcurrentHashMap<>();

    private record Transfer(
        String id, String client, int from, int to, long amount, FaultSoak.Outcome outcome) {}

    private record Load(String client, FaultSoak.Outcome outcome) {}

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
    public boolean newHandlesNeedSettling() {
      return !isolating;
    }

    @Override
    public FaultSoak.Outcome loaderCommit(Database db, String client, long key) {
      FaultSoak.Outcome o;
      try (Transaction tx = db.begin()) {
        tx.create(COLLECTION, Key.of(key), bytes(SoakWorkload.loaded(key)));
        o = FaultSoak.commit(tx);
      } catch (RuntimeException e) {
        o = FaultSoak.Outcome.FAILED;
      }
      loaded.put(key, new Load(client, o));
      return o;
    }

    @Override
    public void transact(Database db, String client, int session, int round, int step, Random r) {
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
      transfers.put(id, new Transfer(id, client, from, to, amount, o));
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
      long total = accounts(finalState, Set.of(), applied, kinds, descriptions, "");
      boolean atomic = kind.guarantees(Guarantee.ATOMIC);
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
        if (keepsAcknowledged() && t.outcome == FaultSoak.Outcome.OK && !(inFrom && inTo)) {
          lost++;
          note(
              kinds,
              descriptions,
              "acknowledged-transfer-lost",
              t + " from " + inFrom + " to " + inTo);
        }
      }
      lost += loads(finalState, Set.of(), kinds, descriptions, "");
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
      return new SoakResult.Judgement(
          transfers.size() + audits.get() + loaded.size(), kinds, lost, descriptions);
    }

    @Override
    public SoakResult.Judgement judgeReadable(Database reader) {
      Map<String, Integer> kinds = new TreeMap<>();
      List<String> descriptions = new ArrayList<>();
      Map<Long, String> state = new HashMap<>();
      Set<Long> damaged = new TreeSet<>();
      List<Long> keys = new ArrayList<>(loaded.keySet());
      for (long a = 0; a < ACCOUNTS; a++) {
        keys.add(a);
      }
      for (long k : keys) {
        Optional<Optional<String>> v =
            PageDamage.readOr(
                key -> Optional.of(Optional.ofNullable(ContractCloud.read(reader, key))),
                k,
                Optional.empty());
        if (v.isEmpty()) {
          damaged.add(k);
        } else {
          v.get().ifPresent(value -> state.put(k, value));
        }
      }
      Map<Integer, Set<String>> applied = new HashMap<>();
      accounts(state, damaged, applied, kinds, descriptions, "damage-window-");
      int lost = 0;
      if (keepsAcknowledged()) {
        for (Transfer t : transfers.values()) {
          for (int a : new int[] {t.from, t.to}) {
            if (t.outcome == FaultSoak.Outcome.OK
                && applied.containsKey(a)
                && !applied.get(a).contains(t.id)) {
              lost++;
              note(
                  kinds,
                  descriptions,
                  "damage-window-acknowledged-transfer-lost",
                  t + " not at readable account " + a);
            }
          }
        }
      }
      lost += loads(state, damaged, kinds, descriptions, "damage-window-");
      if (!damaged.isEmpty()) {
        descriptions.add("damage window: keys behind damage " + damaged);
      }
      return new SoakResult.Judgement(0, kinds, lost, descriptions);
    }

    /**
     * Whether the protocol keeps every transfer that returned: durable with read-your-writes and
     * monotonic writes, or isolating.
     */
    private boolean keepsAcknowledged() {
      return isolating
          || (kind.guarantees(Guarantee.DURABLE)
              && kind.guarantees(Guarantee.READ_YOUR_WRITES)
              && kind.guarantees(Guarantee.MONOTONIC_WRITES));
    }

    /**
     * Checks every account of {@code state} but those {@code damaged} (unread): present, each
     * transfer listed once and made by someone, the balance their sum; fills {@code applied} with
     * each account's transfers. Returns the balances' sum.
     */
    private long accounts(
        Map<Long, String> state,
        Set<Long> damaged,
        Map<Integer, Set<String>> applied,
        Map<String, Integer> kinds,
        List<String> descriptions,
        String prefix) {
      long total = 0;
      for (int a = 0; a < ACCOUNTS; a++) {
        if (damaged.contains((long) a)) {
          continue;
        }
        String v = state.get((long) a);
        if (v == null) {
          note(kinds, descriptions, prefix + "account-missing", "account " + a + " is gone");
          continue;
        }
        Account acc = Account.parse(v);
        total += acc.balance;
        Set<String> once = new LinkedHashSet<>(acc.ids);
        applied.put(a, once);
        if (once.size() != acc.ids.size()) {
          note(kinds, descriptions, prefix + "applied-twice", "account " + a + " lists " + acc.ids);
        }
        long expected = START;
        for (String id : acc.ids) {
          Transfer t = transfers.get(id);
          if (t == null || (t.from != a && t.to != a)) {
            note(
                kinds,
                descriptions,
                prefix + "value-nobody-wrote",
                "account " + a + " lists " + id);
            continue;
          }
          expected += t.from == a ? -t.amount : t.amount;
        }
        if (expected != acc.balance) {
          note(
              kinds,
              descriptions,
              prefix + "torn-balance",
              "account " + a + " holds " + acc.balance + " but its transfers sum to " + expected);
        }
      }
      return total;
    }

    /**
     * Checks the loader's keys of {@code state} but those {@code damaged}: an acknowledged load
     * present (durable protocols), nobody else's value, a failed one absent (atomic). Returns the
     * acknowledged loads lost.
     */
    private int loads(
        Map<Long, String> state,
        Set<Long> damaged,
        Map<String, Integer> kinds,
        List<String> descriptions,
        String prefix) {
      if (!kind.guarantees(Guarantee.DURABLE)) {
        return 0;
      }
      boolean atomic = kind.guarantees(Guarantee.ATOMIC);
      int[] lost = {0};
      loaded.forEach(
          (k, load) -> {
            if (damaged.contains(k)) {
              return;
            }
            FaultSoak.Outcome o = load.outcome();
            String v = state.get(k);
            if (o == FaultSoak.Outcome.OK && v == null) {
              lost[0]++;
              note(kinds, descriptions, prefix + "acknowledged-load-lost", "key " + k);
            }
            if (v != null && !v.equals(SoakWorkload.loaded(k))) {
              note(kinds, descriptions, prefix + "load-nobody-wrote", "key " + k + " holds " + v);
            }
            if (v != null && o == FaultSoak.Outcome.FAILED && atomic) {
              note(kinds, descriptions, prefix + "failed-load-visible", "key " + k);
            }
          });
      return lost[0];
    }

    @Override
    public Map<Long, SoakIndex.Writes> writesByKey() {
      Map<Long, SoakIndex.Writes> out = new HashMap<>();
      for (Transfer t : transfers.values()) {
        boolean ok = t.outcome == FaultSoak.Outcome.OK;
        String handle = SoakWorkload.handle(t.client);
        for (long k : new long[] {t.from, t.to}) {
          out.put(k, out.getOrDefault(k, SoakIndex.Writes.NONE).and(ok, handle));
        }
      }
      loaded.forEach(
          (k, load) ->
              out.put(
                  k,
                  SoakIndex.Writes.NONE.and(
                      load.outcome() == FaultSoak.Outcome.OK, SoakWorkload.handle(load.client()))));
      return out;
    }

    private static void note(
        Map<String, Integer> kinds, List<String> descriptions, String kind, String what) {
      kinds.merge(kind, 1, Integer::sum);
      descriptions.add(kind + ": " + what);
    }
  }
}
