package io.stratus.core.contract;

import io.stratus.core.Database;
import io.stratus.core.Key;
import io.stratus.core.Record;
import io.stratus.core.Transaction;
import io.stratus.core.query.Continuation;
import io.stratus.core.query.Query;
import io.stratus.core.query.QueryPage;
import io.stratus.protocols.ProtocolKind;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The fault soak's queries through a service-held index ({@link SoakSettings#serviceIndex}): the
 * sessions' read-only transactions between their workload's, judged as they run. Thread-safe
 * (request threads of every client run them at once).
 */
final class SoakQueries {
  private final ProtocolKind kind;
  private final Map<String, Integer> faults;

  /** What the queries returned that they must not. */
  private final List<String> wrongRows = new CopyOnWriteArrayList<>();

  /** Queries that returned every page. */
  private final AtomicInteger done = new AtomicInteger();

  /** Queries of a history of {@code kind}, tallying refusals into {@code faults} (concurrent). */
  SoakQueries(ProtocolKind kind, Map<String, Integer> faults) {
    this.kind = kind;
    this.faults = faults;
  }

  /**
   * A read-only transaction of a session, with a service-held index: pages through one search
   * key's records (small pages, so continuations are used) while the others commit, under the
   * faults. A refusal is counted; a row is wrong when its record does not have the search key
   * queried (a stale entry surfaced), when a row repeats, or, where the protocol reads one
   * snapshot or locked records, when the transaction's read of the key disagrees with the row.
   */
  void run(Database db, String name, Random r) {
    long searchKey = r.nextInt(SoakIndex.SEARCH_KEYS);
    boolean repeatable =
        kind.guarantees(io.stratus.protocols.Guarantee.SNAPSHOT_ISOLATION)
            || kind.guarantees(io.stratus.protocols.Guarantee.SERIALIZABLE);
    Query q =
        Query.onIndex(ContractCloud.COLLECTION, SoakSettings.INDEX)
            .equalTo(Key.of(searchKey))
            .limit(1 + r.nextInt(8));
    List<String> wrong = new ArrayList<>();
    try {
      FaultSoak.survive(
          () -> {
            try (Transaction tx = db.begin()) {
              Set<Key> seen = new HashSet<>();
              Optional<Continuation> next = Optional.empty();
              do {
                QueryPage<Record> page = tx.query(next.map(q::after).orElse(q));
                for (Record row : page.rows()) {
                  String v = ContractCloud.string(row.payload());
                  if (SoakIndex.searchKey(v) != searchKey) {
                    wrong.add(name + " queried " + searchKey + ", got " + show(row));
                  }
                  if (!seen.add(row.key())) {
                    wrong.add(name + " queried " + searchKey + ", got twice " + show(row));
                  }
                  if (repeatable) {
                    Optional<String> read =
                        tx.read(ContractCloud.COLLECTION, row.key()).map(ContractCloud::string);
                    if (!read.equals(Optional.of(v))) {
                      wrong.add(name + " queried " + show(row) + ", then read " + read);
                    }
                  }
                }
                next = page.continuation();
              } while (next.isPresent());
            }
          });
      done.incrementAndGet();
    } catch (io.stratus.StratusException e) {
      faults.merge(
          e.isRetryable() ? "query-refused" : "query-failed-" + e.getClass().getSimpleName(),
          1,
          Integer::sum);
    }
    wrongRows.addAll(wrong);
  }

  private static String show(Record row) {
    return row.key().decoder().nextLong() + "=" + ContractCloud.string(row.payload());
  }

  /** The sessions' queries ({@link #run}): each a transaction; their wrong rows, anomalies. */
  SoakResult.Judgement judged() {
    List<String> wrong = List.copyOf(wrongRows);
    return new SoakResult.Judgement(
        done.get(),
        wrong.isEmpty() ? Map.of() : Map.of("query-returns-wrong-row", wrong.size()),
        0,
        wrong.stream().map(w -> "query-returns-wrong-row: " + w).toList());
  }
}
