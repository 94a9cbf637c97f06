package io.stratus.cloudapi.inprocess;

import io.stratus.cloudapi.BadRequestException;
import io.stratus.cloudapi.CloudLimits;
import io.stratus.cloudapi.ConditionalRead;
import io.stratus.cloudapi.ItemMetadata;
import io.stratus.cloudapi.ItemSummary;
import io.stratus.cloudapi.ItemVersion;
import io.stratus.cloudapi.LimitExceededException;
import io.stratus.cloudapi.ListPage;
import io.stratus.cloudapi.PreconditionFailedException;
import io.stratus.cloudapi.StoredItem;
import io.stratus.cloudapi.SupportsConditionalPut;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Base64;
import java.util.Comparator;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.SplittableRandom;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentSkipListMap;
import java.util.function.Supplier;
import org.jspecify.annotations.Nullable;

/**
 * The in-process storage service: S3 as the protocols see it, held in this JVM.
 *
 * <p>Why it is built this way: reads are the hot path (every page read of every client), so they
 * take no lock. Items live in a {@link ConcurrentSkipListMap} sorted in UTF-8 byte order (the
 * order S3 lists in) and each map value is an immutable {@link Slot}; a read is one map lookup and
 * returns the {@link StoredItem} the slot holds, which is itself immutable and copies its payload
 * in and out. Writes are serialized by one lock, which makes every check-and-write (conditional
 * puts, the history of the eventual mode) trivially atomic; a write replaces the whole slot with
 * one map operation, so a concurrent reader sees either the old or the new item, never a mix.
 *
 * <p>Eventual consistency (the 2008 S3 that the papers' protocols were designed for): when the
 * {@link StorageConsistency} has a stale window w, each slot also keeps the states the URI had
 * before (older items, and "absent" for a URI that did not exist or was deleted), each with the
 * time it was superseded. A read at time t may, with the configured probability, answer from any
 * of the states superseded after t - w (chosen uniformly); once w has passed since a write, no
 * read can miss it. Each read draws independently, so two reads need not agree (no monotonic
 * reads, as on S3 then). Conditional puts always check the latest state, as S3 does. A delete
 * leaves a tombstone slot (current item null) while its history still matters.
 *
 * <p>Invariants: a slot's history is ordered oldest first and holds at most {@link #MAX_HISTORY}
 * states; a write prunes the entries superseded w or more ago, and a read that finds none within
 * the window settles the slot (drops the history, or the whole tombstone) with a conditional map
 * operation, which cannot undo a newer write. In strong mode histories are always empty and
 * deletes remove the map entry. {@code liveItems} counts slots whose current item is non-null and
 * changes only under the write lock.
 */
final class InProcessStorage implements SupportsConditionalPut {
  /** Ascending UTF-8 byte order, i.e. code point order (String.compareTo is UTF-16 order). */
  static final Comparator<String> UTF8_ORDER = InProcessStorage::compareUtf8;

  private static final Past[] NO_HISTORY = new Past[0];

  /**
   * Most superseded states kept per URI: enough to model a few lagging replicas, and it keeps a
   * write O(1) when one URI is overwritten many times within the window.
   */
  private static final int MAX_HISTORY = 8;

  private static final HexFormat HEX = HexFormat.of();
  private static final ThreadLocal<MessageDigest> MD5 =
      ThreadLocal.withInitial(
          () -> {
            try {
              return MessageDigest.getInstance("MD5");
            } catch (NoSuchAlgorithmException e) {
              throw new IllegalStateException("every JVM provides MD5", e);
            }
          });

  private final Clock clock;
  private final CloudLimits limits;
  private final StorageConsistency consistency;
  private final boolean strong;
  private final Duration window;
  private final SplittableRandom random;
  private final ConcurrentSkipListMap<String, Slot> items = new ConcurrentSkipListMap<>(UTF8_ORDER);
  private final Object writeLock = new Object();

  /** Tombstones in order of deletion, so they can be dropped when their window passed. */
  private final ArrayDeque<Tombstone> tombstones = new ArrayDeque<>();

  private volatile int liveItems;

  InProcessStorage(Clock clock, CloudLimits limits, StorageConsistency consistency, long seed) {
    this.clock = Objects.requireNonNull(clock, "clock");
    this.limits = Objects.requireNonNull(limits, "limits");
    this.consistency = Objects.requireNonNull(consistency, "consistency");
    this.strong = consistency.isStrong();
    this.window = consistency.staleWindow();
    this.random = new SplittableRandom(seed);
  }

  /** The number of items stored now (tombstones of the eventual mode excluded). */
  int itemCount() {
    return liveItems;
  }

  // ---- writes ----

  @Override
  public CompletableFuture<ItemVersion> put(String uri, byte[] payload, Map<String, String> md) {
    return call(() -> write(uri, payload, md, Condition.NONE, null));
  }

  @Override
  public CompletableFuture<ItemVersion> putIfAbsent(
      String uri, byte[] payload, Map<String, String> metadata) {
    return call(() -> write(uri, payload, metadata, Condition.ABSENT, null));
  }

  @Override
  public CompletableFuture<ItemVersion> putIfVersionMatches(
      String uri, byte[] payload, Map<String, String> metadata, String expectedVersion) {
    return call(
        () -> {
          if (expectedVersion == null) {
            throw new BadRequestException("expectedVersion must not be null");
          }
          return write(uri, payload, metadata, Condition.VERSION, expectedVersion);
        });
  }

  @Override
  public CompletableFuture<Void> delete(String uri) {
    return call(
        () -> {
          limits.checkUri(uri);
          synchronized (writeLock) {
            Instant now = clock.instant();
            Slot old = items.get(uri);
            if (old == null || old.current == null) {
              return null; // deleting an absent item succeeds and changes nothing
            }
            liveItems--;
            if (strong) {
              items.remove(uri);
            } else {
              items.put(uri, new Slot(null, historyAfter(old, now)));
              tombstones.addLast(new Tombstone(uri, now));
              dropExpiredTombstones(now);
            }
            return null;
          }
        });
  }

  private enum Condition {
    NONE,
    ABSENT,
    VERSION
  }

  private ItemVersion write(
      String uri,
      byte[] payload,
      Map<String, String> md,
      Condition condition,
      @Nullable String expected) {
    limits.checkUri(uri);
    limits.checkObject(payload);
    limits.checkMetadata(md);
    // Digest outside the lock: it is the expensive part of a put and depends only on the payload.
    String version = md5Hex(payload);
    synchronized (writeLock) {
      Slot old = items.get(uri);
      StoredItem current = old == null ? null : old.current;
      if (condition == Condition.ABSENT && current != null) {
        throw new PreconditionFailedException("an item exists at " + uri);
      }
      if (condition == Condition.VERSION
          && (current == null || !current.version().equals(expected))) {
        throw new PreconditionFailedException(
            current == null
                ? "no item at " + uri
                : "the item at " + uri + " has version " + current.version() + ", not " + expected);
      }
      Instant now = clock.instant();
      // In-process granularity is one millisecond, which getIfModifiedSince relies on.
      StoredItem item =
          new StoredItem(uri, payload, md, version, now.truncatedTo(ChronoUnit.MILLIS));
      items.put(uri, new Slot(item, strong ? NO_HISTORY : historyAfter(old, now)));
      if (current == null) {
        liveItems++;
      }
      if (!strong) {
        dropExpiredTombstones(now);
      }
      return new ItemVersion(version, item.lastModified());
    }
  }

  /** The history of a slot whose current state is superseded now: old entries pruned. */
  private Past[] historyAfter(@Nullable Slot old, Instant now) {
    List<Past> kept = new ArrayList<>(MAX_HISTORY);
    if (old != null) {
      int from = Math.max(0, old.history.length - (MAX_HISTORY - 1));
      for (int i = from; i < old.history.length; i++) {
        if (withinWindow(old.history[i].supersededAt, now)) {
          kept.add(old.history[i]);
        }
      }
    }
    // A URI without a slot was absent until now: a stale read may still find it absent.
    kept.add(new Past(old == null ? null : old.current, now));
    return kept.toArray(NO_HISTORY);
  }

  /** Drops tombstone slots whose window has passed (caller holds the write lock). */
  private void dropExpiredTombstones(Instant now) {
    while (!tombstones.isEmpty() && !withinWindow(tombstones.peekFirst().deletedAt, now)) {
      Tombstone t = tombstones.removeFirst();
      Slot s = items.get(t.uri);
      if (s != null && s.current == null && !hasVisibleHistory(s, now)) {
        items.remove(t.uri, s);
      }
    }
  }

  // ---- reads ----

  @Override
  public CompletableFuture<Optional<StoredItem>> get(String uri) {
    return call(
        () -> {
          limits.checkUri(uri);
          return Optional.ofNullable(visible(uri, items.get(uri)));
        });
  }

  @Override
  public CompletableFuture<Optional<ItemMetadata>> getMetadata(String uri) {
    return call(
        () -> {
          limits.checkUri(uri);
          StoredItem item = visible(uri, items.get(uri));
          return item == null ? Optional.empty() : Optional.of(item.describe());
        });
  }

  @Override
  public CompletableFuture<ConditionalRead> getIfChanged(String uri, String knownVersion) {
    return call(
        () -> {
          limits.checkUri(uri);
          if (knownVersion == null) {
            throw new BadRequestException("knownVersion must not be null");
          }
          StoredItem item = visible(uri, items.get(uri));
          if (item == null) {
            return ConditionalRead.absent();
          }
          return item.version().equals(knownVersion)
              ? ConditionalRead.notModified()
              : ConditionalRead.modified(item);
        });
  }

  @Override
  public CompletableFuture<ConditionalRead> getIfModifiedSince(String uri, Instant since) {
    return call(
        () -> {
          limits.checkUri(uri);
          if (since == null) {
            throw new BadRequestException("since must not be null");
          }
          StoredItem item = visible(uri, items.get(uri));
          if (item == null) {
            return ConditionalRead.absent();
          }
          return item.lastModified().isAfter(since)
              ? ConditionalRead.modified(item)
              : ConditionalRead.notModified();
        });
  }

  @Override
  public CompletableFuture<ListPage> list(String prefix, Optional<String> token, int maxItems) {
    return call(
        () -> {
          limits.checkPrefix(prefix);
          if (token == null) {
            throw new BadRequestException("the continuation token must not be null (use empty)");
          }
          if (maxItems < 1) {
            throw new BadRequestException("maxItems must be at least 1, got " + maxItems);
          }
          if (maxItems > limits.maxListPageSize()) {
            throw new LimitExceededException("list page size", maxItems, limits.maxListPageSize());
          }
          Map<String, Slot> range;
          if (token.isPresent()) {
            String after = decodeToken(token.get(), prefix);
            range = items.tailMap(after, false);
          } else {
            range = items.tailMap(prefix, true);
          }
          List<ItemSummary> page = new ArrayList<>(Math.min(maxItems, 64));
          for (Map.Entry<String, Slot> e : range.entrySet()) {
            String uri = e.getKey();
            if (!uri.startsWith(prefix)) {
              break; // keys with the prefix are contiguous in UTF-8 order
            }
            if (page.size() == maxItems) {
              // Another key follows: more items may follow (it may turn out to be a tombstone).
              return new ListPage(page, Optional.of(encodeToken(page.get(page.size() - 1).uri())));
            }
            StoredItem item = visible(uri, e.getValue());
            if (item != null) {
              page.add(new ItemSummary(uri, item.size(), item.version(), item.lastModified()));
            }
          }
          return new ListPage(page, Optional.empty());
        });
  }

  /**
   * What a read sees of a slot now: the current item, or in eventual mode, with the configured
   * chance, one of the states superseded within the window (null means absent).
   */
  private @Nullable StoredItem visible(String uri, @Nullable Slot slot) {
    if (slot == null) {
      return null;
    }
    if (slot.history.length == 0) {
      return slot.current;
    }
    Instant now = clock.instant();
    Past[] h = slot.history;
    int first = h.length;
    while (first > 0 && withinWindow(h[first - 1].supersededAt, now)) {
      first--;
    }
    int eligible = h.length - first;
    if (eligible == 0) {
      // The past is out of reach: settle the slot so later reads skip this work. Conditional
      // map operations leave a slot that a writer replaced meanwhile alone.
      if (slot.current == null) {
        items.remove(uri, slot);
      } else {
        items.replace(uri, slot, new Slot(slot.current, NO_HISTORY));
      }
      return slot.current;
    }
    // Draw only when a stale answer is possible, so reads of settled items never contend here.
    synchronized (random) {
      if (random.nextDouble() < consistency.staleReadProbability()) {
        return h[first + random.nextInt(eligible)].item;
      }
    }
    return slot.current;
  }

  private boolean hasVisibleHistory(Slot s, Instant now) {
    return s.history.length > 0 && withinWindow(s.history[s.history.length - 1].supersededAt, now);
  }

  /** Whether a state superseded at {@code supersededAt} may still be read at {@code now}. */
  private boolean withinWindow(Instant supersededAt, Instant now) {
    return now.isBefore(supersededAt.plus(window));
  }

  // ---- the rest ----

  @Override
  public boolean isStronglyConsistent() {
    return consistency.isStrong();
  }

  @Override
  public CloudLimits limits() {
    return limits;
  }

  @Override
  public String toString() {
    return "InProcessStorage{" + liveItems + " items, " + consistency + '}';
  }

  /** Runs a call on the caller's thread and turns its failure into a failed future. */
  private static <T> CompletableFuture<T> call(Supplier<T> body) {
    try {
      return CompletableFuture.completedFuture(body.get());
    } catch (RuntimeException e) {
      // CloudExceptions (and any bug) reach the caller through the future, never as a throw.
      return CompletableFuture.failedFuture(e);
    }
  }

  private static String encodeToken(String lastUri) {
    return Base64.getUrlEncoder()
        .withoutPadding()
        .encodeToString(lastUri.getBytes(StandardCharsets.UTF_8));
  }

  private static String decodeToken(String token, String prefix) {
    String after;
    try {
      after = new String(Base64.getUrlDecoder().decode(token), StandardCharsets.UTF_8);
    } catch (IllegalArgumentException e) {
      throw new BadRequestException("not a continuation token: " + token, e);
    }
    if (!after.startsWith(prefix)) {
      throw new BadRequestException("the continuation token belongs to another prefix");
    }
    return after;
  }

  static String md5Hex(byte[] payload) {
    MessageDigest md5 = MD5.get();
    md5.reset();
    return HEX.formatHex(md5.digest(payload));
  }

  /**
   * Compares in Unicode code point order, which is UTF-8 byte order. At the first differing UTF-16
   * unit, surrogates (supplementary characters) must sort above U+E000..U+FFFF; the shift below
   * moves them there without decoding whole code points.
   */
  static int compareUtf8(String a, String b) {
    int n = Math.min(a.length(), b.length());
    for (int i = 0; i < n; i++) {
      char x = a.charAt(i);
      char y = b.charAt(i);
      if (x != y) {
        return fixup(x) - fixup(y);
      }
    }
    return a.length() - b.length();
  }

  private static int fixup(char c) {
    if (c >= 0xE000) {
      return c - 0x800;
    }
    if (c >= 0xD800) {
      return c + 0x2000;
    }
    return c;
  }

  /** The state of one URI: its current item (null when deleted) and its recent past states. */
  private static final class Slot {
    final @Nullable StoredItem current;
    final Past[] history;

    Slot(@Nullable StoredItem current, Past[] history) {
      this.current = current;
      this.history = history;
    }
  }

  /** A superseded state (item null: the URI was absent) and when it stopped being current. */
  private record Past(@Nullable StoredItem item, Instant supersededAt) {}

  private record Tombstone(String uri, Instant deletedAt) {}
}
