package io.stratus.protocols.isolation;

import io.stratus.CorruptLogMessageException;
import io.stratus.btree.TreeChange;
import io.stratus.cloudapi.AdvancedMessage;
import io.stratus.cloudapi.AdvancedQueueService;
import io.stratus.cloudapi.CloudException;
import io.stratus.cloudapi.CloudFutures;
import io.stratus.cloudapi.OutcomeUnknownException;
import io.stratus.protocols.DamageReports;
import io.stratus.protocols.StorageLayout;
import io.stratus.protocols.log.LogMessages;
import io.stratus.protocols.log.LogPayloads;
import io.stratus.protocols.log.LogRecord;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.NavigableMap;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The archive of committed log records of snapshot isolation (paper 000, section 5.4): one
 * advanced queue per tree ({@code <databaseUri>/si/log/<treeRoot>}), every message keyed by the
 * commit id of the transaction whose records it carries. It is the pending-update queue of the
 * tree (checkpoints apply it in commit-id order) and, unlike the other protocols' PU queues, its
 * records stay after they are applied, until no transaction can need them to roll a page back or
 * forward ({@link SnapshotCheckpointer} collects them).
 *
 * <p><b>Why one queue per tree.</b> Validation and snapshot reads must find every record of a
 * key, whatever happened to the page that held it (splits, deletes, re-creates): with one queue
 * per tree the key alone says where to look. Checkpoints of one tree then run one at a time; a
 * checkpoint applies all records up to the highest validated commit id at once, so the rate of
 * commits does not bound it.
 *
 * <p><b>Completeness.</b> A commit sends its records here before it validates its commit id, and
 * recovery sends a crashed commit's records before its commit id lapses into validity (the
 * timeout rule of {@link io.stratus.protocols.IsolationSettings}). So the archive holds every
 * record with a commit id up to the highest validated one: what {@link #versions} may cache.
 * Ranges above it may still be filling and are read with {@link #fetch}, never cached.
 *
 * <p>Thread-safe; the cache is per tree, filled under the tree's monitor.
 */
final class SnapshotArchive {
  /** Messages per receive; a full answer is split in two ranges and asked again. */
  static final int RECEIVE_MAX = 1000;

  /** Sends of one message while its outcome is unknown (a duplicate is harmless). */
  private static final int SENDS = 4;

  /** One archived record: what it did to its tree key, and how to undo it. */
  record Version(long commitId, TreeChange redo, TreeChange undo) {
    byte[] key() {
      return redo.key();
    }
  }

  private final AdvancedQueueService queues;
  private final String prefix;
  private final int maxMessageSize;
  private final int cacheLimit;
  private final Set<String> created = ConcurrentHashMap.newKeySet();
  private final Map<String, TreeCache> caches = new ConcurrentHashMap<>();
  private final DamageReports damaged;

  /**
   * @param cacheLimit the versions the cache keeps per tree at most (it forgets the oldest)
   * @param damaged where damaged archived messages are reported (they are skipped, not applied)
   */
  SnapshotArchive(
      AdvancedQueueService queues, String databaseUri, int cacheLimit, DamageReports damaged) {
    this.queues = queues;
    this.damaged = damaged;
    this.prefix = new StorageLayout(databaseUri).archivePrefix();
    this.maxMessageSize = queues.limits().maxAdvancedMessageSize();
    this.cacheLimit = cacheLimit;
  }

  /** The archive queue of the tree rooted at {@code rootUri}. */
  String queueOf(String rootUri) {
    return prefix + rootUri;
  }

  /** The root of the tree whose archive queue is {@code queue}. */
  String rootOf(String queue) {
    return queue.substring(prefix.length());
  }

  /** Every archive queue of the database. */
  List<String> queues() {
    return CloudFutures.await(queues.listQueues(prefix));
  }

  /**
   * Sends {@code records} (of any trees, one commit each, keyed by their commit ids) to their
   * trees' archive queues, all at once; sends again while an outcome is unknown.
   *
   * @throws CloudException when a message could not be sent (the caller leaves the rest to
   *     recovery, which sends all of them again)
   */
  void send(List<LogRecord> records) {
    Map<String, Map<Long, List<LogRecord>>> byQueue = new LinkedHashMap<>();
    for (LogRecord r : records) {
      byQueue
          .computeIfAbsent(queueOf(r.treeUri()), q -> new TreeMap<>())
          .computeIfAbsent(r.commitId(), c -> new ArrayList<>())
          .add(r);
    }
    List<String> qs = new ArrayList<>();
    List<Long> keys = new ArrayList<>();
    List<byte[]> messages = new ArrayList<>();
    for (Map.Entry<String, Map<Long, List<LogRecord>>> q : byQueue.entrySet()) {
      ensure(q.getKey());
      for (Map.Entry<Long, List<LogRecord>> c : q.getValue().entrySet()) {
        for (byte[] m : LogMessages.pack(c.getValue(), maxMessageSize)) {
          qs.add(q.getKey());
          keys.add(c.getKey());
          messages.add(m);
        }
      }
    }
    List<Integer> todo = new ArrayList<>();
    for (int i = 0; i < messages.size(); i++) {
      todo.add(i);
    }
    CloudException last = null;
    for (int attempt = 0; attempt < SENDS && !todo.isEmpty(); attempt++) {
      List<CompletableFuture<Long>> sends = new ArrayList<>();
      for (int i : todo) {
        sends.add(queues.send(qs.get(i), messages.get(i), keys.get(i)));
      }
      List<Integer> again = new ArrayList<>();
      for (int j = 0; j < sends.size(); j++) {
        try {
          CloudFutures.await(sends.get(j));
        } catch (CloudException e) {
          last = e;
          again.add(todo.get(j));
        }
      }
      todo = again;
      if (last != null && !last.isRetryable() && !(last instanceof OutcomeUnknownException)) {
        break;
      }
    }
    if (!todo.isEmpty()) {
      throw last;
    }
  }

  private void ensure(String queue) {
    if (!created.contains(queue)) {
      CloudFutures.await(queues.createQueue(queue));
      created.add(queue);
    }
  }

  /**
   * The archived versions of the tree with commit ids in (lo, hi], in commit-id order (records of
   * one commit in the order they were made), read from the queue now; never cached. For ranges
   * that may still be filling (above the highest validated commit id).
   */
  List<Version> fetch(String rootUri, long lo, long hi) {
    List<Version> out = new ArrayList<>();
    if (hi <= lo) {
      return out;
    }
    String queue = queueOf(rootUri);
    ensure(queue);
    collect(queue, lo, hi, out);
    out.sort(Comparator.comparingLong(Version::commitId)); // stable: keeps a commit's order
    return out;
  }

  /**
   * {@link #fetch} of (lo, hi] for several trees at once: the first receive of every tree goes
   * out before any answer is awaited (one round trip for all, unless a tree's answer is full).
   */
  Map<String, List<Version>> fetchAll(java.util.Collection<String> roots, long lo, long hi) {
    Map<String, List<Version>> out = new LinkedHashMap<>();
    if (hi <= lo) {
      roots.forEach(r -> out.put(r, new ArrayList<>()));
      return out;
    }
    Map<String, CompletableFuture<List<AdvancedMessage>>> first = new LinkedHashMap<>();
    for (String root : roots) {
      String queue = queueOf(root);
      ensure(queue);
      first.put(root, receive(queue, lo, hi));
    }
    for (Map.Entry<String, CompletableFuture<List<AdvancedMessage>>> e : first.entrySet()) {
      List<Version> vs = new ArrayList<>();
      collect(queueOf(e.getKey()), lo, hi, vs, CloudFutures.await(e.getValue()));
      vs.sort(Comparator.comparingLong(Version::commitId));
      out.put(e.getKey(), vs);
    }
    return out;
  }

  private CompletableFuture<List<AdvancedMessage>> receive(String queue, long lo, long hi) {
    long above = hi == Long.MAX_VALUE ? Long.MAX_VALUE : hi + 1;
    return queues.receiveByKey(queue, RECEIVE_MAX, lo, above);
  }

  /** Receives (lo, hi] completely: a full answer may have left some out, so halve and ask again. */
  private void collect(String queue, long lo, long hi, List<Version> out) {
    collect(queue, lo, hi, out, CloudFutures.await(receive(queue, lo, hi)));
  }

  private void collect(
      String queue, long lo, long hi, List<Version> out, List<AdvancedMessage> ms) {
    if (ms.size() >= RECEIVE_MAX && hi - lo > 1) {
      long mid = lo + (hi - lo) / 2;
      collect(queue, lo, mid, out);
      collect(queue, mid, hi, out);
      return;
    }
    ms = new ArrayList<>(ms);
    ms.sort(Comparator.comparingLong(AdvancedMessage::id));
    for (AdvancedMessage m : ms) {
      List<LogRecord> records;
      try {
        records = LogMessages.unpack(LogPayloads.of(m));
      } catch (CorruptLogMessageException e) {
        damaged.corruptMessage("archive " + queue, Long.toString(m.id()), e.getMessage());
        continue;
      }
      for (LogRecord r : records) {
        out.add(versionOf(r, m.key()));
      }
    }
  }

  /** The version a record describes, under the commit id its message was keyed by. */
  static Version versionOf(LogRecord r, long commitId) {
    boolean index = r.change().secondaryIndex();
    TreeChange redo = r.toTreeChange(index);
    TreeChange undo;
    if (index) {
      undo =
          redo.kind() == TreeChange.Kind.PUT
              ? TreeChange.delete(redo.key())
              : TreeChange.put(redo.key(), new byte[0]);
    } else {
      undo =
          r.change()
              .before()
              .map(b -> TreeChange.put(r.change().key(), b))
              .orElseGet(() -> TreeChange.delete(r.change().key()));
    }
    return new Version(commitId, redo, undo);
  }

  /**
   * The archived versions of the tree with commit ids in (lo, hi], in commit-id order, served from
   * the cache where it covers them. {@code hi} MUST be at most a validated commit id (the range
   * is complete, so it may be cached).
   */
  List<Version> versions(String rootUri, long lo, long hi) {
    if (hi <= lo) {
      return List.of();
    }
    return cache(rootUri).versions(rootUri, lo, hi);
  }

  /**
   * What brings the keys in [low, high) of the tree from commit id {@code from} to commit id
   * {@code to} (both at most a validated id): rolling forward ({@code from < to}), each key's
   * newest redo in (from, to]; rolling back, each key's oldest undo in (to, from]. In key order.
   */
  List<TreeChange> changesBetween(
      String rootUri, byte[] low, Optional<byte[]> high, long from, long to) {
    if (from == to) {
      return List.of();
    }
    return cache(rootUri).changes(rootUri, low, high, from, to);
  }

  private TreeCache cache(String rootUri) {
    return caches.computeIfAbsent(rootUri, r -> new TreeCache());
  }

  /**
   * One tree's cached versions, by commit id and by key: complete for the commit ids in
   * (coveredLo, coveredHi].
   */
  private final class TreeCache {
    private final TreeMap<Long, List<Version>> byCommit = new TreeMap<>();
    private final TreeMap<byte[], TreeMap<Long, Version>> byKey =
        new TreeMap<>(Arrays::compareUnsigned);
    private long coveredLo;
    private long coveredHi;
    private boolean empty = true;
    private int size;

    synchronized List<Version> versions(String rootUri, long lo, long hi) {
      cover(rootUri, lo, hi);
      List<Version> out = new ArrayList<>();
      for (List<Version> vs : byCommit.subMap(lo, false, hi, true).values()) {
        out.addAll(vs);
      }
      trim(lo);
      return out;
    }

    synchronized List<TreeChange> changes(
        String rootUri, byte[] low, Optional<byte[]> high, long from, long to) {
      long lo = Math.min(from, to);
      long hi = Math.max(from, to);
      cover(rootUri, lo, hi);
      NavigableMap<byte[], TreeMap<Long, Version>> keys =
          high.isPresent() ? byKey.subMap(low, true, high.get(), false) : byKey.tailMap(low, true);
      List<TreeChange> out = new ArrayList<>();
      for (TreeMap<Long, Version> versions : keys.values()) {
        if (from < to) {
          Map.Entry<Long, Version> newest = versions.floorEntry(to);
          if (newest != null && newest.getKey() > from) {
            out.add(newest.getValue().redo());
          }
        } else {
          Map.Entry<Long, Version> oldest = versions.higherEntry(to);
          if (oldest != null && oldest.getKey() <= from) {
            out.add(oldest.getValue().undo());
          }
        }
      }
      trim(lo);
      return out;
    }

    /**
     * Makes the cache complete for (lo, hi]. Every receive completes before anything changes: a
     * failed one leaves the cache as it was, never claiming a range whose versions it dropped.
     */
    private void cover(String rootUri, long lo, long hi) {
      if (empty || hi < coveredLo || lo > coveredHi) {
        List<Version> fresh = fetch(rootUri, lo, hi);
        byCommit.clear();
        byKey.clear();
        size = 0;
        add(fresh);
        coveredLo = lo;
        coveredHi = hi;
        empty = false;
        return;
      }
      if (hi > coveredHi) {
        add(fetch(rootUri, coveredHi, hi));
        coveredHi = hi;
      }
      if (lo < coveredLo) {
        add(fetch(rootUri, lo, coveredLo));
        coveredLo = lo;
      }
    }

    private void add(List<Version> vs) {
      for (Version v : vs) {
        byCommit.computeIfAbsent(v.commitId(), c -> new ArrayList<>()).add(v);
        byKey.computeIfAbsent(v.key(), k -> new TreeMap<>()).put(v.commitId(), v);
        size++;
      }
    }

    /** Forgets the oldest versions beyond the limit (never those above {@code keepFrom}). */
    private void trim(long keepFrom) {
      while (size > cacheLimit && !byCommit.isEmpty() && byCommit.firstKey() <= keepFrom) {
        Map.Entry<Long, List<Version>> first = byCommit.pollFirstEntry();
        size -= first.getValue().size();
        coveredLo = first.getKey();
        for (Version v : first.getValue()) {
          TreeMap<Long, Version> ofKey = byKey.get(v.key());
          if (ofKey != null) {
            ofKey.remove(v.commitId());
            if (ofKey.isEmpty()) {
              byKey.remove(v.key());
            }
          }
        }
      }
    }
  }
}
