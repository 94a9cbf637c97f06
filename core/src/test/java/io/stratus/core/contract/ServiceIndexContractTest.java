package io.stratus.core.contract;

import static io.stratus.core.contract.ContractCloud.bytes;
import static io.stratus.core.contract.ContractCloud.string;
import static io.stratus.core.contract.QueryContract.BY_GROUP;
import static io.stratus.core.contract.QueryContract.GROUP;
import static io.stratus.core.contract.QueryContract.GROUPS;
import static io.stratus.core.contract.QueryContract.PEOPLE;
import static org.assertj.core.api.Assertions.assertThat;

import io.stratus.StratusException;
import io.stratus.cloudapi.Operation;
import io.stratus.cloudapi.decorate.Call;
import io.stratus.cloudapi.decorate.CallInterceptor;
import io.stratus.cloudapi.decorate.FaultInterceptor;
import io.stratus.cloudapi.decorate.FaultPlan;
import io.stratus.core.Database;
import io.stratus.core.Finding;
import io.stratus.core.IndexPlacement;
import io.stratus.core.Key;
import io.stratus.core.Record;
import io.stratus.core.RecordCursor;
import io.stratus.core.Transaction;
import io.stratus.core.query.Continuation;
import io.stratus.core.query.Query;
import io.stratus.core.query.QueryPage;
import io.stratus.protocols.ProtocolKind;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Supplier;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * An index held by the index service under every protocol, where its calls fail or race: a query
 * whose service call fails or loses its reply gives its transaction a retryable error or a
 * correct page, never a wrong one; an index created while another handle writes the collection
 * ends up listing every record. Seeds as the contract's ({@link ContractSeeds}); each assertion
 * names the protocol and the seed.
 */
class ServiceIndexContractTest {
  /** People loaded: keys 0, 2, ..., 2(PEOPLE_LOADED-1). */
  private static final int PEOPLE_LOADED = 60;

  /** The group queried: keys 2, 10, 18, ... (15 of the loaded people). */
  private static final long QUERIED = 2;

  /** Rows per page: several pages, so a fault may hit a continuation's call. */
  private static final int PAGE = 4;

  static Stream<Arguments> kindsAndSeeds() {
    List<Long> seeds = ContractSeeds.seeds().toList();
    return Stream.of(ProtocolKind.values())
        .flatMap(k -> seeds.stream().map(s -> Arguments.of(k, s)));
  }

  @ParameterizedTest(name = "{0} seed {1}")
  @MethodSource("kindsAndSeeds")
  void aFailedOrLostIndexQueryGivesARetryableErrorOrACorrectPage(ProtocolKind kind, long seed) {
    List<FaultPlan.Fault> faults =
        List.of(FaultPlan.Fault.fail(), FaultPlan.Fault.unavailable(), FaultPlan.Fault.loseReply());
    for (FaultPlan.Fault fault : faults) {
      for (long n = 1; n <= 3; n++) {
        String what = kind + " seed " + seed + ", " + fault.kind() + " on INDEX_QUERY call #" + n;
        try (ContractCloud c = new ContractCloud(kind, seed)) {
          Database loader = open(c, "loader");
          QueryContract.loadPeople(loader, PEOPLE_LOADED, IndexPlacement.INDEX_SERVICE);
          List<Long> expected = new ArrayList<>();
          for (long k = 0; k < 2L * PEOPLE_LOADED; k += 2) {
            if (k % GROUPS == QUERIED) {
              expected.add(k);
            }
          }
          FaultInterceptor faulty =
              new FaultInterceptor(
                  FaultPlan.builder().onNthCall(Operation.INDEX_QUERY, "", n, fault).build(),
                  seed,
                  c.clock);
          Database reader =
              c.open(c.config("reader", faulty).indexExtractor(PEOPLE, BY_GROUP, GROUP));
          Optional<List<Long>> first = Optional.empty();
          try {
            first = Optional.of(queryAll(reader));
          } catch (StratusException e) {
            assertThat(e.isRetryable()).as("%s: retryable: %s", what, e).isTrue();
            assertThat(e.isOutcomeUnknown()).as("%s: %s", what, e).isFalse();
            assertThat(e.getMessage()).as(what).contains("query");
          }
          assertThat(faulty.injectedFaults()).as("%s: the fault was injected", what).hasSize(1);
          first.ifPresent(rows -> assertThat(rows).as("%s: the page", what).isEqualTo(expected));
          assertThat(queryAll(reader))
              .as("%s: the transaction run again", what)
              .isEqualTo(expected);
        }
      }
    }
  }

  /** Every row of group {@link #QUERIED}, page by page in one transaction, checked as it comes. */
  private static List<Long> queryAll(Database db) {
    Query q = Query.onIndex(PEOPLE, BY_GROUP).equalTo(Key.of(QUERIED)).limit(PAGE);
    List<Long> out = new ArrayList<>();
    try (Transaction tx = db.begin()) {
      Optional<Continuation> next = Optional.empty();
      do {
        QueryPage<Record> page = tx.query(next.map(q::after).orElse(q));
        for (Record r : page.rows()) {
          long k = r.key().decoder().nextLong();
          assertThat(string(r.payload())).as("row %d", k).startsWith(QUERIED + ":");
          out.add(k);
        }
        next = page.continuation();
      } while (next.isPresent());
      tx.commit();
    }
    return out;
  }

  @ParameterizedTest(name = "{0} seed {1}")
  @MethodSource("kindsAndSeeds")
  void creatingAServiceIndexWhileAnotherHandleWritesLeavesEveryRecordFindable(
      ProtocolKind kind, long seed) {
    String what = kind + " seed " + seed;
    try (ContractCloud c = new ContractCloud(kind, seed)) {
      Runnable[] duringFill = {() -> {}};
      Database creator =
          c.open(
              c.config("creator", new OnceBefore(Operation.INDEX_PUT_BATCH, () -> duringFill[0]))
                  .indexExtractor(PEOPLE, BY_GROUP, GROUP));
      creator.createCollection(PEOPLE);
      List<Record> people = new ArrayList<>();
      for (long k = 0; k < 2L * PEOPLE_LOADED; k += 2) {
        people.add(new Record(Key.of(k), bytes((k % GROUPS) + ":v0-" + k)));
      }
      creator.bulkLoad(PEOPLE, people);
      // Opened before the index exists: its catalog does not name it for a TTL.
      Database writer = open(c, "writer");
      duringFill[0] =
          () -> {
            for (long k = 1; k < 20; k += 2) {
              put(writer, k, k % GROUPS, "new");
            }
            for (long k = 0; k < 20; k += 2) {
              put(writer, k, (k + 1) % GROUPS, "moved");
            }
            for (long k = 100; k < 2L * PEOPLE_LOADED; k += 2) {
              Key gone = Key.of(k);
              write(writer, tx -> tx.delete(PEOPLE, gone));
            }
          };
      creator.createIndex(PEOPLE, BY_GROUP, GROUP, IndexPlacement.INDEX_SERVICE);
      // And after it, before the writer's catalog names the index.
      for (long k = 21; k < 30; k += 2) {
        put(writer, k, k % GROUPS, "after");
      }
      for (long k = 20; k < 30; k += 2) {
        put(writer, k, (k + 3) % GROUPS, "after");
      }
      c.settle(creator); // its checkpoints reconcile the index once the catalog's TTL passed
      c.settle(creator);
      Database reader = open(c, "reader");
      Map<Long, String> records = scan(reader);
      assertThat(records).as("%s: the writer's creates and deletes applied", what).hasSize(65);
      Map<Long, String> found = new TreeMap<>();
      try (Transaction tx = reader.begin()) {
        for (long g = 0; g < GROUPS; g++) {
          for (Record r : tx.probe(PEOPLE, BY_GROUP, Key.of(g))) {
            String v = string(r.payload());
            assertThat(v).as("%s: a probe of group %d", what, g).startsWith(g + ":");
            found.put(r.key().decoder().nextLong(), v);
          }
        }
      }
      assertThat(found).as("%s: every record findable through the index", what).isEqualTo(records);
      assertThat(reader.admin().verify().findings(Finding.Severity.ERROR)).as(what).isEmpty();
    }
  }

  private static Database open(ContractCloud c, String client) {
    return c.open(c.config(client).indexExtractor(PEOPLE, BY_GROUP, GROUP));
  }

  private static Map<Long, String> scan(Database db) {
    Map<Long, String> out = new TreeMap<>();
    try (Transaction tx = db.begin();
        RecordCursor cur = tx.scan(PEOPLE)) {
      while (cur.hasNext()) {
        Record r = cur.next();
        out.put(r.key().decoder().nextLong(), string(r.payload()));
      }
    }
    return out;
  }

  /** Creates or updates person {@code k} in {@code group}. */
  private static void put(Database db, long k, long group, String text) {
    Key key = Key.of(k);
    byte[] payload = bytes(group + ":" + text + "-" + k);
    write(
        db,
        tx -> {
          if (tx.read(PEOPLE, key).isPresent()) {
            tx.update(PEOPLE, key, payload);
          } else {
            tx.create(PEOPLE, key, payload);
          }
        });
  }

  /** Commits one change, run again while it fails retryably (no faults here: a few tries). */
  private static void write(Database db, java.util.function.Consumer<Transaction> change) {
    for (int attempt = 1; ; attempt++) {
      try (Transaction tx = db.begin()) {
        change.accept(tx);
        tx.commit();
        return;
      } catch (StratusException e) {
        if (!e.isRetryable() || attempt == 5) {
          throw e;
        }
      }
    }
  }

  /** Runs what {@code body} gives once, just before the first call of {@code operation}. */
  private static final class OnceBefore implements CallInterceptor {
    private final Operation operation;
    private final Supplier<Runnable> body;
    private final AtomicBoolean done = new AtomicBoolean();

    OnceBefore(Operation operation, Supplier<Runnable> body) {
      this.operation = operation;
      this.body = body;
    }

    @Override
    public <T> CompletableFuture<T> intercept(
        Call<T> call, Supplier<CompletableFuture<T>> proceed) {
      if (call.operation() == operation && done.compareAndSet(false, true)) {
        body.get().run();
      }
      return proceed.get();
    }
  }
}
