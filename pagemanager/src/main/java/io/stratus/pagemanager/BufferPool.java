package io.stratus.pagemanager;

import io.stratus.BufferPoolStats;
import io.stratus.CorruptPageException;
import io.stratus.StalePageException;
import io.stratus.cloudapi.CloudFutures;
import io.stratus.cloudapi.ConditionalRead;
import io.stratus.cloudapi.StorageService;
import io.stratus.cloudapi.StoredItem;
import io.stratus.pagemanager.PoolSlot.Content;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.LongAdder;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Consumer;
import java.util.function.Supplier;
import org.jspecify.annotations.Nullable;

/**
 * The page manager's buffer pool (paper 000, section 3.3): the cache of clean, committed pages of
 * one database handle, shared by all its request threads, refreshed by a time-to-live protocol.
 *
 * <p><b>What it guarantees.</b> A fetch returns the page as storage held it at most {@link
 * BufferPoolConfig#ttl()} ago (measured from when the pool last read it, had it confirmed, or had
 * it installed by a commit of this client). After the TTL the pool asks storage with the exact
 * conditional get by version ({@link StorageService#getIfChanged}): "not modified" only restarts
 * the TTL, a new version replaces the page, "absent" drops it. A page that fails its integrity
 * check ({@link PageCodec#decode}) is reported with {@link io.stratus.CorruptPageException} and
 * nothing of it stays in the pool, so a later fetch reads storage again. Pages are immutable, so a
 * fetched page never changes under its reader; a transaction's changes stay in its {@link
 * PageTransaction} until it completes and {@link #install}s them.
 *
 * <p><b>Monotonic reads</b> (paper 001, section 5.2; {@link BufferPoolConfig#monotonicReads()}):
 * the pool remembers per URI the highest {@link Page#versionStamp()} it has seen
 * (loaded or installed; kept after eviction: one map entry per page URI the handle ever saw) and
 * never accepts an older one from storage, which an eventually consistent store may serve. A
 * refresh answered with an older version (or "absent") keeps serving the cached, newer copy as
 * if "not modified"; a load with no newer copy to fall back on re-reads at once, up to {@link
 * #MAX_REREADS} times, then fails with the retryable {@link StalePageException}.
 *
 * <p><b>Concurrency.</b> Thread-safe. A cache hit is a {@link ConcurrentHashMap} lookup, two
 * volatile reads, one clock read and a {@link LongAdder} increment: no lock, no allocation. Misses
 * and refreshes are single-flight: the first fetch of a URI registers a future in {@code inflight}
 * and makes the one cloud call; concurrent fetches of that URI wait for the same future. Every
 * change of a slot's page happens under the slot's monitor, and whoever changes it (a finishing
 * load, {@link #install}, {@link #invalidate}) checks or clears the URI's {@code inflight} entry
 * in the same critical section. So a load that was overtaken by an install or an invalidation
 * (its answer may predate them) never overwrites their effect: it finds itself no longer
 * registered and leaves the slot alone.
 *
 * <p><b>Size.</b> Bounded by {@link BufferPoolConfig#maxBytes()} in the sum of the cached pages'
 * {@link Page#encodedSizeBound()}. When a new page takes the pool above the bound, the inserting
 * thread evicts unpinned pages in least-recently-used order (by millisecond access stamps, see
 * {@link PoolSlot}) until the pool is back under a low-water mark of 15/16 of the bound, so the
 * O(n log n) scan runs once per 1/16 of the pool's capacity inserted, not on every insert. Only
 * one thread evicts at a time; others do not wait for it, so under concurrent inserts, and while
 * pinned pages alone exceed the bound, the pool may be above the bound for a while. Pinned pages
 * (pages some open {@link PageTransaction} has read) are never evicted.
 *
 * <p><b>Time</b> comes from the injected {@link Clock}; cloud callbacks (decoding included) run
 * on whichever thread completes the storage future.
 */
public final class BufferPool implements AutoCloseable {
  /**
   * How long after a put storage whose reads may lag ({@link #readsMayLag()}) is assumed to serve
   * the version it replaced at most: what the layers above wait out before they rely on every
   * client having read a change (S3 is read-after-write consistent; stores that are not serve
   * stale reads for seconds).
   */
  public static final Duration STALE_COPIES = Duration.ofMinutes(2);

  /** Immediate re-reads of a page storage served older than seen before giving up. */
  static final int MAX_REREADS = 8;

  private final StorageService storage;
  private final BufferPoolConfig config;
  private final Clock clock;
  private final long ttlMillis;
  private final long lowWaterBytes;
  private final ConcurrentHashMap<String, PoolSlot> slots = new ConcurrentHashMap<>();

  /** The one storage read in flight per URI; futures complete with the content or null (absent). */
  private final ConcurrentHashMap<String, CompletableFuture<Content>> inflight =
      new ConcurrentHashMap<>();

  private final ReentrantLock evictionLock = new ReentrantLock();
  private final AtomicLong bytesCached = new AtomicLong();
  private final AtomicLong pagesCached = new AtomicLong();
  private final LongAdder hits = new LongAdder();
  private final LongAdder misses = new LongAdder();
  private final LongAdder refreshes = new LongAdder();
  private final LongAdder notModified = new LongAdder();
  private final LongAdder coalesced = new LongAdder();
  private final LongAdder evictions = new LongAdder();
  private final LongAdder staleInstallsRefused = new LongAdder();
  private final LongAdder staleRefused = new LongAdder();

  /** Monotonic reads: per URI the highest version stamp this pool has seen; null when off. */
  private final @Nullable ConcurrentHashMap<String, Long> stamps;

  private volatile boolean evictionRequested;
  private volatile boolean closed;

  /**
   * A pool reading from {@code storage}. The pool does not own the storage: closing the pool does
   * not close it.
   */
  public BufferPool(StorageService storage, BufferPoolConfig config, Clock clock) {
    this.stamps = config.monotonicReads() ? new ConcurrentHashMap<>() : null;
    this.storage = Objects.requireNonNull(storage, "storage");
    this.config = Objects.requireNonNull(config, "config");
    this.clock = Objects.requireNonNull(clock, "clock");
    long ttl;
    try {
      ttl = config.ttl().toMillis();
    } catch (ArithmeticException e) {
      ttl = Long.MAX_VALUE;
    }
    // Capped so that now + ttl cannot overflow for any realistic clock.
    this.ttlMillis = Math.min(ttl, Long.MAX_VALUE / 4);
    this.lowWaterBytes = config.maxBytes() - config.maxBytes() / 16;
  }

  /** Whether a read may miss a page that was written: the storage is eventually consistent. */
  public boolean readsMayLag() {
    return !storage.isStronglyConsistent();
  }

  /** The settings this pool was built with. */
  public BufferPoolConfig config() {
    return config;
  }

  /**
   * Starts a transaction: a private view of the pages for one unit of work, used by one thread.
   * Close it (or {@link PageTransaction#complete complete} or {@link PageTransaction#abort abort}
   * it) to release the pages it pinned.
   */
  public PageTransaction begin() {
    checkOpen();
    return new PageTransaction(this);
  }

  /**
   * The committed page at {@code uri}, or empty when storage has none.
   *
   * @throws io.stratus.CorruptPageException when the stored page fails its integrity check
   * @throws io.stratus.cloudapi.CloudException when the storage read fails
   * @throws IllegalStateException when the pool is closed
   */
  public Optional<Page> fetch(String uri) {
    Content c = fetchContent(uri);
    return c == null ? Optional.empty() : c.optionalPage;
  }

  /** {@link #fetch} with the page's storage version, which conditional puts need. */
  public Optional<CachedPage> fetchVersioned(String uri) {
    Content c = fetchContent(uri);
    return c == null ? Optional.empty() : c.optionalCached;
  }

  /**
   * {@link #fetch} without blocking; the future fails with what {@link #fetch} throws. A cache hit
   * returns a completed future.
   */
  public CompletableFuture<Optional<Page>> fetchAsync(String uri) {
    Content c = hit(uri);
    if (c != null) {
      return CompletableFuture.completedFuture(c.optionalPage);
    }
    CompletableFuture<Content> loading;
    try {
      loading = load(uri);
    } catch (RuntimeException e) {
      return CompletableFuture.failedFuture(e);
    }
    return loading.thenApply(l -> l == null ? Optional.<Page>empty() : l.optionalPage);
  }

  /**
   * Puts {@code page}, just committed to storage as {@code version}, into the pool as clean and
   * fresh (its TTL starts now), replacing what the pool held for its URI — unless the pool holds a
   * newer version (a higher version stamp): a writer that installs after its put, while another
   * client's newer write of the page was loaded here meanwhile, must not take this pool back in
   * time (a read seeing a key, the next not). A storage read of the URI in flight (which may
   * predate the commit) no longer updates the pool. Does nothing when the pool is closed: the
   * commit itself has happened.
   */
  public void install(Page page, String version) {
    Objects.requireNonNull(page, "page");
    Objects.requireNonNull(version, "version");
    if (closed) {
      return;
    }
    long now = clock.millis();
    Content c = new Content(page, version, expiry(now));
    noteStamp(page);
    withSlot(
        page.uri(),
        s -> {
          Content held = s.content;
          if (held != null && held.page.versionStamp() > page.versionStamp()) {
            staleInstallsRefused.increment();
            return; // the cached copy is newer than what was written here
          }
          inflight.remove(s.uri);
          setContent(s, c);
          s.lastAccess = now;
        });
    maybeEvict();
  }

  /**
   * The storage version of the copy of {@code uri} the pool holds now, expired or not, without
   * asking storage; empty when it holds none. What a writer of this handle compares with the
   * version its change is based on, to notice another commit of the same handle in between.
   */
  public Optional<String> cachedVersion(String uri) {
    PoolSlot s = slots.get(uri);
    Content c = s == null ? null : s.content;
    return c == null ? Optional.empty() : Optional.of(c.version);
  }

  /**
   * Installs the pool refused because it held a newer version of the page ({@link #install}).
   */
  public long staleInstallsRefused() {
    return staleInstallsRefused.sum();
  }

  /**
   * Drops the page at {@code uri} from the pool (e.g. after a conditional put showed it stale),
   * so that the next fetch reads it from storage; a storage read in flight no longer updates the
   * pool. Transactions that read the page keep the version they read.
   */
  public void invalidate(String uri) {
    Objects.requireNonNull(uri, "uri");
    withSlot(
        uri,
        s -> {
          inflight.remove(s.uri);
          setContent(s, null);
          retireIfEmpty(s);
        });
  }

  /** The pool's counters now. */
  public BufferPoolStats stats() {
    return new BufferPoolStats(
        hits.sum(),
        misses.sum(),
        refreshes.sum(),
        notModified.sum(),
        coalesced.sum(),
        evictions.sum(),
        bytesCached.get(),
        pagesCached.get());
  }

  /**
   * Empties the pool and refuses further fetches and transactions. Does not close the storage.
   * Open transactions fail on their next read; their pages are no longer pinned.
   */
  @Override
  public void close() {
    closed = true;
    for (PoolSlot s : slots.values()) {
      synchronized (s) {
        setContent(s, null);
        s.pins.set(PoolSlot.RETIRED);
        slots.remove(s.uri, s);
      }
    }
    inflight.clear();
  }

  /**
   * The highest {@link Page#versionStamp()} this pool has seen for {@code uri} (loaded or
   * installed), 0 when none or when monotonic reads are off. A writer stamps its new version above
   * it.
   */
  public long highestStamp(String uri) {
    return stamps == null ? 0 : stamps.getOrDefault(uri, 0L);
  }

  /**
   * How many storage answers the pool refused because they were older than a version it had seen
   * (monotonic reads); each cost a re-read or was answered from the newer cached copy.
   */
  public long staleReadsRefused() {
    return staleRefused.sum();
  }

  // ---- package-private: for PageTransaction and tests ----

  /** The cached or loaded content of {@code uri}; null when storage has no page there. */
  Content fetchContent(String uri) {
    Content c = hit(uri);
    return c != null ? c : CloudFutures.await(load(uri));
  }

  /**
   * Pins the slot of {@code uri}, making an empty one if the pool has none, so that the page a
   * following fetch puts there cannot be evicted before the caller {@link #unpin}s it (pinning
   * after the fetch would leave a window in which the page just read is the first evicted).
   */
  PoolSlot pinSlot(String uri) {
    checkOpen();
    for (; ; ) {
      PoolSlot s = slots.get(uri);
      if (s == null) {
        s = slots.computeIfAbsent(uri, PoolSlot::new);
      }
      if (s.tryPin()) {
        return s;
      }
      // Retired between the look-up and the pin: the map no longer holds it; look again.
    }
  }

  void unpin(PoolSlot s) {
    if (s.pins.decrementAndGet() == 0) {
      if (s.content == null) {
        synchronized (s) {
          retireIfEmpty(s);
        }
      } else if (bytesCached.get() > config.maxBytes()) {
        maybeEvict(); // pinned pages may have held the pool above its bound
      }
    }
  }

  /** How many pins the pool's slot for {@code uri} holds (0 when there is none). */
  int pinCount(String uri) {
    PoolSlot s = slots.get(uri);
    return s == null ? 0 : Math.max(0, s.pins.get());
  }

  /** The sum of the cached pages' sizes, counted afresh (for tests; exact when idle). */
  long recountBytes() {
    long sum = 0;
    for (PoolSlot s : slots.values()) {
      Content c = s.content;
      sum += c == null ? 0 : c.bytes;
    }
    return sum;
  }

  /** The number of cached pages, counted afresh (for tests; exact when idle). */
  long recountPages() {
    long n = 0;
    for (PoolSlot s : slots.values()) {
      n += s.content == null ? 0 : 1;
    }
    return n;
  }

  /** Whether the pool holds a page for {@code uri}, fresh or not. */
  boolean isCached(String uri) {
    PoolSlot s = slots.get(uri);
    return s != null && s.content != null;
  }

  // ---- fetching ----

  /** The cached content if it is within its TTL (counting a hit), else null (counting nothing). */
  private @Nullable Content hit(String uri) {
    PoolSlot s = slots.get(uri);
    if (s == null) {
      return null;
    }
    Content c = s.content;
    if (c == null) {
      return null;
    }
    long now = clock.millis();
    if (now >= c.expiresAt) {
      return null;
    }
    if (s.lastAccess != now) {
      s.lastAccess = now;
    }
    hits.increment();
    return c;
  }

  /**
   * Loads {@code uri} from storage unless another thread already is (single flight). Completes
   * with the content, or null when storage has no page.
   */
  private CompletableFuture<Content> load(String uri) {
    Objects.requireNonNull(uri, "uri");
    checkOpen();
    CompletableFuture<Content> mine = new CompletableFuture<>();
    CompletableFuture<Content> running = inflight.putIfAbsent(uri, mine);
    if (running != null) {
      coalesced.increment();
      return running.copy();
    }
    // A load that finished between our cache look-up and our registration may have made the page
    // fresh: look again now that no other load of this URI can start.
    Content fresh = hit(uri);
    if (fresh != null) {
      inflight.remove(uri, mine);
      mine.complete(fresh);
      return mine.copy();
    }
    PoolSlot slot = slots.get(uri);
    Content base = slot == null ? null : slot.content;
    long now = clock.millis();
    if (base == null) {
      misses.increment();
      call(() -> storage.get(uri))
          .whenComplete((item, failure) -> finishGet(uri, mine, now, item, failure));
    } else {
      refreshes.increment();
      call(() -> storage.getIfChanged(uri, base.version))
          .whenComplete((read, failure) -> finishRefresh(uri, mine, now, base, read, failure));
    }
    return mine.copy();
  }

  private void finishGet(
      String uri,
      CompletableFuture<Content> mine,
      long started,
      Optional<StoredItem> item,
      Throwable failure) {
    if (failure != null) {
      failRead(uri, mine, failure);
      return;
    }
    accept(uri, mine, started, item, 1);
  }

  /** Settles a storage answer, or re-reads (attempt {@code attempt}) one older than seen. */
  private void accept(
      String uri,
      CompletableFuture<Content> mine,
      long started,
      Optional<StoredItem> item,
      int attempt) {
    try {
      Content c = item.isEmpty() ? null : decode(uri, item.get(), started);
      if (stale(uri, c)) {
        reread(uri, mine, started, attempt, c);
        return;
      }
      settle(uri, mine, c);
    } catch (RuntimeException | Error e) {
      fail(uri, mine, e, true);
    }
  }

  /**
   * Monotonic reads: whether storage's answer ({@code c}; null: absent) is older than a version of
   * {@code uri} this pool has seen. Pages are never deleted, so "absent" after a page is stale too.
   */
  private boolean stale(String uri, @Nullable Content c) {
    if (stamps == null) {
      return false;
    }
    Long seen = stamps.get(uri);
    // Stamp 0 = a page nobody stamped (written outside the protocols): outside the guard.
    return seen != null && seen > 0 && (c == null || c.page.versionStamp() < seen);
  }

  private void noteStamp(Page page) {
    if (stamps != null) {
      stamps.merge(page.uri(), page.versionStamp(), Math::max);
    }
  }

  /**
   * Storage served an older version than this client has seen and the pool has no newer copy to
   * serve instead: read again at once (an eventually consistent store answers from another
   * replica), up to {@link #MAX_REREADS} times, then fail with the retryable {@link
   * StalePageException}. No waiting: nothing here depends on time passing.
   */
  private void reread(
      String uri,
      CompletableFuture<Content> mine,
      long started,
      int attempt,
      @Nullable Content served) {
    staleRefused.increment();
    if (attempt > MAX_REREADS) {
      fail(
          uri,
          mine,
          new StalePageException(
              uri, highestStamp(uri), served == null ? -1 : served.page.versionStamp()),
          false);
      return;
    }
    call(() -> storage.get(uri))
        .whenComplete(
            (item, failure) -> {
              if (failure != null) {
                failRead(uri, mine, failure);
                return;
              }
              accept(uri, mine, started, item, attempt + 1);
            });
  }

  /** Storage answered a refresh with an older version (or none): keep the newer copy or re-read. */
  private void refreshedStale(
      String uri,
      CompletableFuture<Content> mine,
      long started,
      Content base,
      @Nullable Content served) {
    if (base.page.versionStamp() >= highestStamp(uri)) {
      staleRefused.increment();
      settle(uri, mine, base.withExpiry(expiry(started))); // as "not modified": still the newest
    } else {
      reread(uri, mine, started, 1, served);
    }
  }

  private void finishRefresh(
      String uri,
      CompletableFuture<Content> mine,
      long started,
      Content base,
      ConditionalRead read,
      Throwable failure) {
    if (failure != null) {
      // The old version stays, expired: the next fetch asks storage again.
      failRead(uri, mine, failure);
      return;
    }
    try {
      switch (read.status()) {
        case NOT_MODIFIED:
          notModified.increment();
          settle(uri, mine, base.withExpiry(expiry(started)));
          break;
        case MODIFIED:
          Content c = decode(uri, read.item().orElseThrow(), started);
          if (stale(uri, c)) {
            refreshedStale(uri, mine, started, base, c);
          } else {
            settle(uri, mine, c);
          }
          break;
        case ABSENT:
          if (stale(uri, null)) {
            refreshedStale(uri, mine, started, base, null);
          } else {
            settle(uri, mine, null);
          }
          break;
        default:
          throw new IllegalStateException("unknown conditional read status " + read.status());
      }
    } catch (RuntimeException | Error e) {
      fail(uri, mine, e, true);
    }
  }

  private Content decode(String uri, StoredItem item, long started) {
    return new Content(PageCodec.decode(uri, item.payload()), item.version(), expiry(started));
  }

  /**
   * Ends a load: puts {@code c} (null: no page) into the slot unless the load was overtaken, then
   * answers everyone waiting for it.
   */
  private void settle(String uri, CompletableFuture<Content> mine, @Nullable Content c) {
    if (c != null) {
      noteStamp(c.page);
      long now = clock.millis();
      withSlot(
          uri,
          s -> {
            if (inflight.get(uri) == mine && !closed) {
              setContent(s, c);
              s.lastAccess = now;
            } else {
              retireIfEmpty(s); // overtaken; the slot may be the empty one withSlot just made
            }
          });
      maybeEvict();
    } else {
      dropIfStillLoading(uri, mine);
    }
    inflight.remove(uri, mine);
    mine.complete(c);
  }

  /** Ends a failed load; a corrupt page ({@code drop}) is removed from the pool. */
  /**
   * Ends a load whose storage read failed. An item storage could not open is a corrupt page and
   * is dropped as one that failed decoding; any other failure leaves the slot as it was.
   */
  private void failRead(String uri, CompletableFuture<Content> mine, Throwable failure) {
    Throwable f = PageCodec.readFailure(uri, failure);
    fail(uri, mine, f, f instanceof CorruptPageException);
  }

  private void fail(String uri, CompletableFuture<Content> mine, Throwable failure, boolean drop) {
    try {
      if (drop) {
        dropIfStillLoading(uri, mine);
      }
    } finally {
      inflight.remove(uri, mine);
      mine.completeExceptionally(CloudFutures.unwrap(failure));
    }
  }

  private void dropIfStillLoading(String uri, CompletableFuture<Content> mine) {
    PoolSlot s = slots.get(uri);
    if (s != null) {
      synchronized (s) {
        if (!s.isRetired() && inflight.get(uri) == mine) {
          setContent(s, null);
          retireIfEmpty(s);
        }
      }
    }
  }

  private static <T> CompletableFuture<T> call(Supplier<CompletableFuture<T>> c) {
    try {
      return c.get();
    } catch (RuntimeException e) {
      return CompletableFuture.failedFuture(e);
    }
  }

  // ---- slots ----

  /**
   * Runs {@code action} on the live slot of {@code uri} (made if missing), holding its monitor.
   * Retries when the slot is retired between the look-up and the lock.
   */
  private void withSlot(String uri, Consumer<PoolSlot> action) {
    for (; ; ) {
      PoolSlot s = slots.computeIfAbsent(uri, PoolSlot::new);
      synchronized (s) {
        if (!s.isRetired()) {
          action.accept(s);
          return;
        }
      }
    }
  }

  /** Replaces the slot's page, keeping the byte and page counts; caller holds the monitor. */
  private void setContent(PoolSlot s, @Nullable Content c) {

    Content old = s.content;
    s.content = c;
    long delta = (c == null ? 0L : c.bytes) - (old == null ? 0L : old.bytes);
    if (delta != 0) {
      bytesCached.addAndGet(delta);
    }
    int pages = (c == null ? 0 : 1) - (old == null ? 0 : 1);
    if (pages != 0) {
      pagesCached.addAndGet(pages);
    }
  }

  /** Removes an empty, unpinned slot from the map; caller holds the monitor. */
  private void retireIfEmpty(PoolSlot s) {
    if (s.content == null && s.pins.compareAndSet(0, PoolSlot.RETIRED)) {
      slots.remove(s.uri, s);
    }
  }

  /**
   * Evicts if the pool is above its bound. Only one thread evicts; a thread that finds the lock
   * taken leaves a request instead of waiting, and the evicting thread runs another pass when it
   * sees one (the requester may have unpinned pages the running pass found pinned), so that once
   * threads stop the pool is within its bound unless pinned pages alone exceed it.
   */
  private void maybeEvict() {
    while (bytesCached.get() > config.maxBytes()) {
      evictionRequested = true;
      if (!evictionLock.tryLock()) {
        return; // the evicting thread will see the request
      }
      int evicted;
      try {
        evictionRequested = false;
        evicted = evictToLowWater();
      } finally {
        evictionLock.unlock();
      }
      if (evicted == 0 && !evictionRequested) {
        return; // everything left is pinned: the next unpin or insert tries again
      }
    }
  }

  /** Evicts unpinned pages, least recently used first, down to the low-water mark. */
  private int evictToLowWater() {
    List<Candidate> candidates = new ArrayList<>();
    for (PoolSlot s : slots.values()) {
      if (s.content != null && s.pins.get() == 0) {
        candidates.add(new Candidate(s, s.lastAccess));
      }
    }
    candidates.sort(Comparator.comparingLong(Candidate::stamp));
    int evicted = 0;
    for (Candidate c : candidates) {
      if (bytesCached.get() <= lowWaterBytes) {
        break;
      }
      PoolSlot s = c.slot();
      synchronized (s) {
        if (s.content != null && s.pins.compareAndSet(0, PoolSlot.RETIRED)) {
          slots.remove(s.uri, s);
          setContent(s, null);
          evictions.increment();
          evicted++;
        }
      }
    }
    return evicted;
  }

  /** An eviction candidate with its access stamp as seen when the scan began. */
  private record Candidate(PoolSlot slot, long stamp) {}

  private long expiry(long now) {
    return now + ttlMillis;
  }

  private void checkOpen() {
    if (closed) {
      throw new IllegalStateException("the buffer pool is closed");
    }
  }
}
