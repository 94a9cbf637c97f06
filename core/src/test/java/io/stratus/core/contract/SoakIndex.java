package io.stratus.core.contract;

import static io.stratus.core.contract.ContractCloud.COLLECTION;

import io.stratus.core.Database;
import io.stratus.core.Finding;
import io.stratus.core.IndexKeyExtractor;
import io.stratus.core.Key;
import io.stratus.core.Record;
import io.stratus.core.Transaction;
import io.stratus.core.VerificationReport;
import io.stratus.protocols.Guarantee;
import io.stratus.protocols.ProtocolKind;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.function.Predicate;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The soak's secondary index and the check that it agrees with its collection after quiescence.
 * Every workload value is indexed under a hash of its text, so every update moves the record's
 * entry (an index delete and an insert in the same commit) and entries of many records share a
 * search key.
 */
final class SoakIndex {
  /** Distinct search keys. */
  static final int SEARCH_KEYS = 7;

  /** Indexes a record under a hash of its payload, modulo {@link #SEARCH_KEYS}. */
  static final IndexKeyExtractor EXTRACTOR =
      (key, payload) -> Optional.of(Key.of(searchKey(ContractCloud.string(payload))).toBytes());

  private SoakIndex() {}

  static long searchKey(String value) {
    return Math.floorMod(value.hashCode(), SEARCH_KEYS);
  }

  /**
   * Who wrote one key and how their commits ended.
   *
   * @param allOk every transaction that wrote (or deleted) the key returned OK
   * @param handles the handles that wrote it, apart from writes settled before any other
   *     (the load)
   */
  record Writes(boolean allOk, Set<String> handles) {
    static final Writes NONE = new Writes(true, Set.of());

    Writes and(boolean ok, String handle) {
      Set<String> h = new TreeSet<>(handles);
      if (handle != null) {
        h.add(handle);
      }
      return new Writes(allOk && ok, h);
    }
  }

  /**
   * Judges {@code reader}'s final state, from two sides. Through probes (what an application
   * sees): every record of the collection is returned by a probe of its search key with its
   * value, and no probe returns a record under a search key its value does not give, or with a
   * value the collection does not hold. Through the verifier (what is stored; the queues are
   * empty after quiescence, so a disagreement is an error): no record missing from the index, no
   * entry without its record or under a search key its record does not give; any other error
   * finding (a malformed tree) as well.
   *
   * <p>What is judged follows {@code kind}'s guarantees and what the writers of each key were
   * told ({@code writes}). An update moves its record's entry: it deletes the entry of the value
   * the writer read and inserts the new one. A record missing from its index is an acknowledged
   * write lost where {@link Guarantee#DURABLE} is promised, for keys whose writes all returned OK
   * (or all of any outcome, where {@link Guarantee#ATOMIC} keeps a transaction's record and
   * entries together). Without isolation that needs deletes that stick ({@link
   * SoakSettings#deletesMustStick}) where a key had writers that apply in no common order (other
   * handles, or any two writes without {@link Guarantee#MONOTONIC_WRITES}): an entry's delete
   * that reaches the index after a later re-insert of the same entry (search keys repeat) removes
   * it, as a late create undoes a record's delete. An entry left behind (stale, or without its
   * record) is an anomaly where writes are applied once and in order, for keys whose writes all
   * returned OK and, without snapshot isolation, came from one handle: a writer that read an older
   * value than another handle's latest (the protocols without isolation allow it) deletes the
   * entry of that older value and leaves the other's behind, and a transaction that failed midway
   * may have sent its entries only. Probes skip such entries, so applications never see them. The
   * naive protocol's last-writer-wins pages promise neither, only well-formed trees.
   *
   * <p>An index held by the index service ({@link SoakSettings#serviceIndex}) is judged by the
   * rule its design gives every protocol alike (docs/protocols.md): a commit puts its entries in
   * the service before anything of it is sent, and entries are never deleted, so every record of
   * the collection, whoever wrote it and however its commit ended, must be findable through the
   * index, under every protocol. Its stale entries (records deleted or moved) stay in the service
   * by design; the verifier counts them and they are not judged, but a probe that returned one
   * (a record without the search key probed) is, as for a tree.
   */
  static SoakResult.Judgement check(
      Database reader, ProtocolKind kind, SoakSettings settings, Map<Long, Writes> writes) {
    boolean indexed = settings.index();
    boolean service = settings.serviceIndex();
    Map<String, Integer> kinds = new TreeMap<>();
    List<String> descriptions = new ArrayList<>();
    Map<Long, String> records = ContractCloud.scan(reader);
    boolean ordered = indexed && kind.guarantees(Guarantee.MONOTONIC_WRITES);
    boolean durable = indexed && kind.guarantees(Guarantee.DURABLE);
    boolean atomic = kind.guarantees(Guarantee.ATOMIC);
    boolean isolated = kind.guarantees(Guarantee.SNAPSHOT_ISOLATION);
    boolean deletesStick = SoakSettings.deletesMustStick();
    Predicate<Long> judgedMissing =
        k -> {
          Writes w = writes.getOrDefault(k, Writes.NONE);
          return service
              || durable
                  && (atomic || w.allOk())
                  && (isolated || deletesStick || (ordered && w.handles().size() <= 1));
        };
    Predicate<Long> judgedLeftBehind =
        k -> {
          Writes w = writes.getOrDefault(k, Writes.NONE);
          return ordered && w.allOk() && (isolated || w.handles().size() <= 1);
        };
    if (indexed) {
      Map<Long, String> probed = new HashMap<>();
      try (Transaction tx = reader.begin()) {
        for (long s = 0; s < SEARCH_KEYS; s++) {
          for (Record r : tx.probe(COLLECTION, SoakSettings.INDEX, Key.of(s))) {
            long k = r.key().decoder().nextLong();
            String v = ContractCloud.string(r.payload());
            if (searchKey(v) != s || !v.equals(records.get(k))) {
              note(
                  kinds,
                  descriptions,
                  "probe-returns-wrong-record",
                  "a probe of "
                      + s
                      + " returns "
                      + k
                      + "="
                      + v
                      + ", the collection holds "
                      + records.get(k));
            }
            probed.put(k, v);
          }
        }
      }
      records.forEach(
          (k, v) -> {
            if (!probed.containsKey(k) && judgedMissing.test(k)) {
              note(kinds, descriptions, "record-missing-from-index", k + "=" + v);
            }
          });
    }
    VerificationReport report = reader.admin().verify();
    for (Finding f : report.findings(Finding.Severity.ERROR)) {
      boolean judged =
          switch (f.kind()) {
            case RECORD_MISSING_FROM_INDEX -> judgedMissing.test(recordKey(f));
            case STALE_INDEX_ENTRY, INDEX_ENTRY_WITHOUT_RECORD ->
                judgedLeftBehind.test(recordKey(f));
            default -> true;
          };
      if (judged) {
        note(kinds, descriptions, "verifier-" + f.kind(), f.message());
      }
    }
    int lost = kinds.getOrDefault("record-missing-from-index", 0);
    return new SoakResult.Judgement(0, kinds, lost, descriptions);
  }

  /** The record key a verifier finding about an index names ("... record 0x8000... ..."). */
  private static long recordKey(Finding f) {
    Matcher m = RECORD.matcher(f.message());
    if (!m.find()) {
      throw new IllegalStateException("no record key in " + f);
    }
    return Key.ofBytes(HexFormat.of().parseHex(m.group(1))).decoder().nextLong();
  }

  private static final Pattern RECORD = Pattern.compile("record 0x([0-9a-f]+)");

  private static void note(
      Map<String, Integer> kinds, List<String> descriptions, String kind, String what) {
    kinds.merge(kind, 1, Integer::sum);
    descriptions.add(kind + ": " + what);
  }
}
