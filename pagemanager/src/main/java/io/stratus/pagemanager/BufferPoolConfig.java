package io.stratus.pagemanager;

import java.time.Duration;
import java.util.Objects;

/**
 * The settings of a {@link BufferPool}: how long a cached page is trusted without asking storage,
 * how many bytes of pages the pool holds, and how large a page may be.
 *
 * <p>Immutable; validated once, by {@link Builder#build()}, so a pool never sees a bad value.
 */
public final class BufferPoolConfig {
  /**
   * 100 KiB: the papers used pages of about 100 KB (paper 000, section 7.1 reports 109 KB pages),
   * large enough to amortise the per-request cost of storage, small enough to transfer quickly.
   */
  public static final int DEFAULT_PAGE_SIZE = 100 * 1024;

  /** 100 seconds: the buffer pool TTL of the paper's experiments (paper 000, section 7.1). */
  public static final Duration DEFAULT_TTL = Duration.ofSeconds(100);

  /** 256 MiB of cached pages (about 2,600 pages of the default size). */
  public static final long DEFAULT_MAX_BYTES = 256L * 1024 * 1024;

  /** The smallest page size accepted: below it a page holds hardly more than its header. */
  public static final int MIN_PAGE_SIZE = 256;

  private static final BufferPoolConfig DEFAULTS = builder().build();

  private final Duration ttl;
  private final long maxBytes;
  private final int pageSize;
  private final boolean monotonicReads;

  private BufferPoolConfig(Builder b) {
    this.ttl = b.ttl;
    this.monotonicReads = b.monotonicReads;
    this.maxBytes = b.maxBytes;
    this.pageSize = b.pageSize;
  }

  /** Every setting at its default. */
  public static BufferPoolConfig defaults() {
    return DEFAULTS;
  }

  public static Builder builder() {
    return new Builder();
  }

  /** A builder holding this configuration's settings. */
  public Builder toBuilder() {
    return new Builder()
        .ttl(ttl)
        .maxBytes(maxBytes)
        .pageSize(pageSize)
        .monotonicReads(monotonicReads);
  }

  /**
   * How long after it was read from (or confirmed by, or written to) storage a cached page is used
   * without asking storage again. Zero means every fetch asks storage (with a conditional get).
   */
  public Duration ttl() {
    return ttl;
  }

  /**
   * The bound of the pool's size, in the sum of the cached pages' {@link Page#encodedSizeBound()}.
   * Pinned pages are never evicted, so the pool can exceed it while they are pinned.
   */
  public long maxBytes() {
    return maxBytes;
  }

  /**
   * Whether the pool refuses a page older (by {@link Page#versionStamp()}) than one it has seen at
   * the same URI: monotonic reads under eventually consistent storage (paper 001, section 5.2).
   * Off by default; the database turns it on for the protocols that promise monotonic reads.
   */
  public boolean monotonicReads() {
    return monotonicReads;
  }

  /** The largest page ({@link Page#encodedSizeBound()}) the layers above may write. */
  public int pageSize() {
    return pageSize;
  }

  @Override
  public boolean equals(Object o) {
    if (!(o instanceof BufferPoolConfig)) {
      return false;
    }
    BufferPoolConfig c = (BufferPoolConfig) o;
    return ttl.equals(c.ttl)
        && maxBytes == c.maxBytes
        && pageSize == c.pageSize
        && monotonicReads == c.monotonicReads;
  }

  @Override
  public int hashCode() {
    return Objects.hash(ttl, maxBytes, pageSize, monotonicReads);
  }

  @Override
  public String toString() {
    return "BufferPoolConfig{ttl="
        + ttl
        + ", maxBytes="
        + maxBytes
        + ", pageSize="
        + pageSize
        + '}';
  }

  /** Collects settings; {@link #build()} validates them. */
  public static final class Builder {
    private Duration ttl = DEFAULT_TTL;
    private long maxBytes = DEFAULT_MAX_BYTES;
    private int pageSize = DEFAULT_PAGE_SIZE;
    private boolean monotonicReads;

    private Builder() {}

    /** Zero or positive; see {@link BufferPoolConfig#ttl()}. */
    public Builder ttl(Duration ttl) {
      this.ttl = Objects.requireNonNull(ttl, "ttl");
      return this;
    }

    /** Positive; see {@link BufferPoolConfig#maxBytes()}. */
    public Builder maxBytes(long maxBytes) {
      this.maxBytes = maxBytes;
      return this;
    }

    /** See {@link BufferPoolConfig#monotonicReads()}; default false. */
    public Builder monotonicReads(boolean on) {
      this.monotonicReads = on;
      return this;
    }

    /** At least {@link #MIN_PAGE_SIZE}; see {@link BufferPoolConfig#pageSize()}. */
    public Builder pageSize(int pageSize) {
      this.pageSize = pageSize;
      return this;
    }

    /**
     * The configuration.
     *
     * @throws IllegalArgumentException when a setting is out of range
     */
    public BufferPoolConfig build() {
      if (ttl.isNegative()) {
        throw new IllegalArgumentException("ttl must not be negative, got " + ttl);
      }
      if (maxBytes <= 0) {
        throw new IllegalArgumentException("maxBytes must be positive, got " + maxBytes);
      }
      if (pageSize < MIN_PAGE_SIZE) {
        throw new IllegalArgumentException(
            "pageSize must be at least " + MIN_PAGE_SIZE + " bytes, got " + pageSize);
      }
      return new BufferPoolConfig(this);
    }
  }
}
