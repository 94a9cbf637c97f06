package io.stratus.core;

import io.stratus.StratusException;
import io.stratus.testkit.ListAppendHistory;
import io.stratus.testkit.ListAppendHistory.Status;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;

/**
 * Elle's list-append workload on a collection of records {@code 0 .. keys-1}, each a list of
 * unique elements joined by spaces: a transaction reads two lists and appends to one or two keys
 * (some of them read, some not), and every attempt — aborted, committed or of unknown outcome — is
 * recorded in a {@link ListAppendHistory}. Used by the isolation tests and the protocol contract.
 */
public final class ListAppendWorkload {
  private final String collection;
  private final int keys;

  public ListAppendWorkload(String collection, int keys) {
    this.collection = collection;
    this.keys = keys;
  }

  /** Creates the collection with every list empty. */
  public void load(Database db) {
    db.createCollection(collection);
    db.run(
        tx -> {
          for (int k = 0; k < keys; k++) {
            tx.create(collection, Key.of(k), new byte[0]);
          }
          return null;
        });
  }

  /**
   * One transaction named {@code id}, run with {@code retries}; every attempt recorded.
   *
   * @return how it ended
   */
  public Status transact(
      Database db, RetryPolicy retries, ListAppendHistory history, SplittableRandom r, String id) {
    int[] read = {r.nextInt(keys), r.nextInt(keys)};
    int[] append =
        r.nextBoolean()
            ? new int[] {r.nextInt(keys)}
            : new int[] {r.nextInt(keys), r.nextInt(keys)};
    List<ListAppendHistory.Transaction> attempts = new ArrayList<>();
    Status outcome = Status.COMMITTED;
    try {
      db.run(
          retries,
          tx -> {
            String attempt = id + "." + attempts.size();
            Map<String, List<String>> reads = new LinkedHashMap<>();
            Map<String, String> appends = new LinkedHashMap<>();
            for (int k : read) {
              reads.putIfAbsent("k" + k, list(tx, k));
            }
            for (int k : append) {
              if (appends.containsKey("k" + k)) {
                continue;
              }
              List<String> now = list(tx, k);
              reads.putIfAbsent("k" + k, now);
              String element = attempt + "k" + k;
              List<String> next = new ArrayList<>(now);
              next.add(element);
              tx.update(
                  collection, Key.of(k), String.join(" ", next).getBytes(StandardCharsets.UTF_8));
              appends.put("k" + k, element);
            }
            attempts.add(
                new ListAppendHistory.Transaction(attempt, reads, appends, Status.ABORTED));
            return null;
          });
    } catch (StratusException e) {
      outcome = e.isOutcomeUnknown() ? Status.UNKNOWN : Status.ABORTED;
    }
    for (int i = 0; i < attempts.size(); i++) {
      ListAppendHistory.Transaction a = attempts.get(i);
      Status s = i == attempts.size() - 1 ? outcome : Status.ABORTED;
      history.add(new ListAppendHistory.Transaction(a.id(), a.reads(), a.appends(), s));
    }
    return outcome;
  }

  /** Every list as a read-only transaction of {@code db} sees it, by key name ("k0", ...). */
  public Map<String, List<String>> lists(Database db) {
    Map<String, List<String>> out = new LinkedHashMap<>();
    db.read(
        tx -> {
          for (int k = 0; k < keys; k++) {
            out.put("k" + k, list(tx, k));
          }
          return null;
        });
    return out;
  }

  private List<String> list(Transaction tx, int key) {
    String s =
        tx.read(collection, Key.of(key)).map(b -> new String(b, StandardCharsets.UTF_8)).orElse("");
    return s.isEmpty() ? List.of() : Arrays.asList(s.split(" "));
  }
}
