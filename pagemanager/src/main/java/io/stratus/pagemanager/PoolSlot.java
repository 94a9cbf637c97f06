package io.stratus.pagemanager;

import java.util.Optional;
import java.util.concurrent.atomic.AtomicInteger;
import org.jspecify.annotations.Nullable;

/**
 * The buffer pool's place for one URI: the cached page (if any), its pin count and its last access.
 *
 * <p>Why a slot separate from the page: the page of a URI is replaced (a refresh finds a newer
 * version, a commit installs one) while transactions keep it pinned; the pin count belongs to the
 * URI, so it lives in the slot, which stays in the pool's map as long as it is pinned.
 *
 * <p>Concurrency:
 *
 * <ul>
 *   <li>{@link #content} is an immutable {@link Content}, published through a volatile field, so a
 *       cache hit is two volatile reads and no lock. It is changed only while holding the slot's
 *       monitor (see {@link BufferPool}), which is also what makes "check then replace" atomic.
 *   <li>{@link #pins} is changed without the monitor (pinning is on the transactions' read path):
 *       a CAS loop that refuses negative counts. Removing a slot from the map ("retiring" it) is a
 *       CAS from 0 to {@link #RETIRED}, under the monitor, so a slot is never removed while pinned
 *       and never pinned once removed. A retired slot is never reused.
 *   <li>{@link #lastAccess} is the clock's millisecond of the last hit, written only when it
 *       changes: a hot page is written at most once per millisecond, not once per read, so many
 *       threads reading the same page do not fight over its cache line. It orders eviction
 *       (approximate LRU at millisecond granularity).
 * </ul>
 */
final class PoolSlot {
  /** A pin count so negative that stray decrements after retirement keep it negative. */
  static final int RETIRED = Integer.MIN_VALUE / 2;

  final String uri;

  /** The cached page; null when there is none (a pinned slot may outlive its page). */
  volatile @Nullable Content content;

  volatile long lastAccess;
  final AtomicInteger pins = new AtomicInteger();

  PoolSlot(String uri) {
    this.uri = uri;
  }

  /** Adds a pin unless the slot has been retired (removed from the pool). */
  boolean tryPin() {
    for (; ; ) {
      int p = pins.get();
      if (p < 0) {
        return false;
      }
      if (pins.compareAndSet(p, p + 1)) {
        return true;
      }
    }
  }

  boolean isRetired() {
    return pins.get() < 0;
  }

  /**
   * One cached version of a page: immutable, with the objects a hit returns built once up front,
   * so that a hit allocates nothing.
   */
  static final class Content {
    final Page page;
    final String version;
    final int bytes;

    /** Clock millis from which the page must be revalidated with storage. */
    final long expiresAt;

    final Optional<Page> optionalPage;
    final Optional<CachedPage> optionalCached;

    Content(Page page, String version, long expiresAt) {
      this(page, version, expiresAt, Optional.of(page), Optional.of(new CachedPage(page, version)));
    }

    private Content(
        Page page,
        String version,
        long expiresAt,
        Optional<Page> optionalPage,
        Optional<CachedPage> optionalCached) {
      this.page = page;
      this.version = version;
      this.bytes = page.encodedSizeBound();
      this.expiresAt = expiresAt;
      this.optionalPage = optionalPage;
      this.optionalCached = optionalCached;
    }

    /** The same page and version, trusted until {@code newExpiresAt}. */
    Content withExpiry(long newExpiresAt) {
      return new Content(page, version, newExpiresAt, optionalPage, optionalCached);
    }
  }
}
