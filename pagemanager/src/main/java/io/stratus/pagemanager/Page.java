package io.stratus.pagemanager;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Objects;
import java.util.Optional;
import java.util.function.Function;
import org.jspecify.annotations.Nullable;

/**
 * One page: the unit of transfer and buffering, stored as one storage item under its URI (paper 000,
 * section 3.1). A page holds sorted, unique (key, value) entries and a header with what the B-link
 * trees and the commit protocols need.
 *
 * <p><b>Immutable.</b> Every change returns a new page ({@link #withPut}, {@link #withRemoved},
 * {@link #toBuilder()}), so a page in the shared buffer pool can be read by any number of threads
 * without locks, and a transaction's modified copy never leaks into other transactions. Entries are
 * two parallel arrays, sorted by {@link Keys#ORDER}, so a point lookup is one binary search.
 *
 * <p>Header fields:
 *
 * <ul>
 *   <li>{@code kind} and {@code level} (0 for leaves);
 *   <li>{@code lowKey} (inclusive; empty = minus infinity) and {@code highKey} (exclusive; empty
 *       optional = plus infinity): the key range the B-link node is responsible for;
 *   <li>{@code rightSibling}: the URI of the next node on the same level, if any;
 *   <li>{@code protocolState}: what the commit protocol keeps in the page (its writers' counters,
 *       when the page and, on a root, its tree were last checkpointed, a snapshot id, …), opaque
 *       bytes to this layer and to the trees. It belongs to the page's URI: when a root splits the
 *       new root (which keeps the root's URI) keeps it, and what the new pages of a split get of it
 *       is the protocol's choice (the trees' {@code PieceState});
 *   <li>{@code versionStamp}: grows with every write of the page (the writer stores the stamp it
 *       read plus one), so a client can tell an older copy from a newer one whatever the storage
 *       versions look like (monotonic reads, paper 001 section 5.2); 0 = never stamped.
 * </ul>
 *
 * <p><b>Write stamps.</b> Each entry may carry the write stamp of the committed change that wrote
 * it ({@link #stamp(int)}; 0 = none). Checkpoints of the queue protocols apply a change only over an
 * entry with an older stamp (the Thomas write rule), so a record that reaches its page late — held
 * back behind a gap in its writer's chain, hidden by a receive, propagated late by a recovery —
 * cannot overwrite a later writer's value. Pages whose entries carry no stamps pay nothing for them.
 *
 * <p><b>Tombstones.</b> A leaf also keeps, apart from its entries, the keys removed by a stamped
 * delete with the delete's write stamp ({@link #tombstoneStamp(byte[])}): a record of the key that
 * arrives later with an older stamp finds the delete's stamp and is dropped, so a delete sticks. A
 * tombstone is no entry: lookups, scans, counts and sizes of entries never see it; it only takes
 * room in the page ({@link #encodedSizeBound()}). Tombstone keys are sorted, unique and never keys
 * of entries; only leaves have tombstones. Which tombstones a page keeps, and for how long, is the
 * business of the layers above.
 */
public final class Page {
  private static final byte[][] NO_BYTES = new byte[0][];
  private static final long[] NO_STAMPS = new long[0];

  /** Bytes a page's encoding costs besides its keys and values (header, framing), an upper bound. */
  static final int HEADER_OVERHEAD = 64;

  /** Bytes of framing each entry costs in the encoding, an upper bound. */
  static final int ENTRY_OVERHEAD = 10;

  /** Bytes a set version stamp costs (tag and a varint of up to ten bytes). */
  static final int VERSION_STAMP_OVERHEAD = 11;

  /** Bytes the write stamps of a page cost once, when any entry has one (tag and length). */
  static final int WRITE_STAMPS_OVERHEAD = 6;

  /** Bytes one entry's write stamp costs at most (a varint of up to ten bytes). */
  static final int WRITE_STAMP_BYTES = 10;

  /** Bytes an entry without a stamp costs on a page that carries stamps (a varint zero). */
  static final int NO_WRITE_STAMP_BYTES = 1;

  /** Bytes the tombstones of a page cost once, when it has any (tag and length of the stamps). */
  static final int TOMBSTONES_OVERHEAD = 8;

  /** Bytes set protocol state costs besides its own bytes (tag and a length of up to 5 bytes). */
  public static final int PROTOCOL_STATE_OVERHEAD = 6;

  private final String uri;
  private final PageKind kind;
  private final int level;
  private final byte[] lowKey;
  private final byte @Nullable [] highKey; // null = +infinity
  private final @Nullable String rightSibling; // null = none
  private final byte[] protocolState;

  /** The protocol state as last decoded ({@link #protocolState(Function)}); a cache. */
  private volatile @Nullable Decoded decoded;

  private final long versionStamp;
  private final byte[][] keys;
  private final byte[][] values;

  /** The entries' write stamps, parallel to the keys; null when no entry has one. */
  private final long @Nullable [] stamps;

  /** The tombstones' keys, sorted, and their delete stamps (parallel); empty when none. */
  private final byte[][] tombKeys;

  private final long[] tombStamps;

  private final long maxStamp;

  private final int encodedSizeBound;

  /** A decoding of the protocol state, and the decoder that made it. */
  private record Decoded(Function<byte[], ?> decoder, Object value) {}

  /** Values decoded as text on demand ({@link #valueText}); a cache, not part of the value. */
  private volatile String @Nullable [] valueTexts;

  /** The search over {@link #keys} ({@link #indexOf}), made on demand; a cache, not a value. */
  private volatile @Nullable KeySearch search;

  private Page(Builder b, byte[][] keys, byte[][] values, long @Nullable [] stamps) {
    this(b, keys, values, stamps, b.tombKeys, b.tombStamps);
  }

  private Page(
      Builder b,
      byte[][] keys,
      byte[][] values,
      long @Nullable [] stamps,
      byte[][] tombKeys,
      long[] tombStamps) {
    this.uri = Objects.requireNonNull(b.uri, "uri");
    this.kind = Objects.requireNonNull(b.kind, "kind");
    this.level = b.level;
    this.lowKey = b.lowKey;
    this.highKey = b.highKey;
    this.rightSibling = b.rightSibling;
    this.protocolState = b.protocolState;
    this.versionStamp = b.versionStamp;
    this.keys = keys;
    this.values = values;
    this.stamps = stamps;
    this.tombKeys = tombKeys;
    this.tombStamps = tombStamps;
    int size =
        HEADER_OVERHEAD
            + utf8Length(uri)
            + lowKey.length
            + (highKey == null ? 0 : highKey.length)
            + (rightSibling == null ? 0 : utf8Length(rightSibling))
            + VERSION_STAMP_OVERHEAD; // always: stamping a page on its way out must not grow it
    size += protocolState.length == 0 ? 0 : PROTOCOL_STATE_OVERHEAD + protocolState.length;
    for (int i = 0; i < keys.length; i++) {
      size += keys[i].length + values[i].length + ENTRY_OVERHEAD;
    }
    long max = 0;
    if (stamps != null) {
      size += WRITE_STAMPS_OVERHEAD;
      for (long x : stamps) {
        size += x == 0 ? NO_WRITE_STAMP_BYTES : WRITE_STAMP_BYTES;
        max = Math.max(max, x);
      }
    }
    if (tombKeys.length > 0) {
      size += TOMBSTONES_OVERHEAD;
      for (int i = 0; i < tombKeys.length; i++) {
        size += tombstoneBytes(tombKeys[i]);
        max = Math.max(max, tombStamps[i]);
      }
    }
    this.maxStamp = max;
    this.encodedSizeBound = size;
  }

  /** A new, empty page. */
  public static Builder builder(String uri, PageKind kind) {
    return new Builder(uri, kind);
  }

  public String uri() {
    return uri;
  }

  public PageKind kind() {
    return kind;
  }

  /** 0 for leaves; a parent's level is its children's plus one. */
  public int level() {
    return level;
  }

  /** The smallest key this node is responsible for (inclusive); empty means minus infinity. */
  public byte[] lowKey() {
    return lowKey.clone();
  }

  /** The key from which the right sibling is responsible (exclusive bound); empty = infinity. */
  public Optional<byte[]> highKey() {
    return highKey == null ? Optional.empty() : Optional.of(highKey.clone());
  }

  /** Whether {@code key} is at or beyond this node's high key (a B-link reader then moves right). */
  public boolean isBeyondHighKey(byte[] key) {
    return highKey != null && Keys.compare(key, highKey) >= 0;
  }

  /** Whether {@code key} is below this node's low key. */
  public boolean isBelowLowKey(byte[] key) {
    return Keys.compare(key, lowKey) < 0;
  }

  public Optional<String> rightSibling() {
    return Optional.ofNullable(rightSibling);
  }

  /**
   * The page's version stamp: every write stores the stamp of the version the writer read plus
   * one, so it grows with each version of the page at one URI (monotonic reads compare it); 0 for
   * a page never stamped.
   */
  public long versionStamp() {
    return versionStamp;
  }

  /** This page stamped {@code stamp} (same header otherwise, same entries). */
  public Page withVersionStamp(long stamp) {
    return stamp == versionStamp ? this : toBuilder().versionStamp(stamp).build();
  }

  /** The protocol state (a copy; empty when none), opaque to this layer. */
  public byte[] protocolState() {
    return protocolState.clone();
  }

  /**
   * The protocol state as {@code decoder} reads it (empty bytes when none), decoded once per page
   * object for the same decoder: pages are immutable, so the protocol may read it on every access
   * without paying for a decoding each time. {@code decoder} must be a pure function of the bytes.
   */
  @SuppressWarnings("unchecked")
  public <T> T protocolState(Function<byte[], T> decoder) {
    Decoded d = decoded;
    if (d != null && d.decoder() == decoder) {
      return (T) d.value();
    }
    T value = decoder.apply(protocolState.clone());
    decoded = new Decoded(decoder, value);
    return value;
  }

  // ---- entries ----

  public int entryCount() {
    return keys.length;
  }

  /** The i-th smallest key (a copy). */
  public byte[] key(int i) {
    return keys[i].clone();
  }

  /** The value of the i-th smallest key (a copy). */
  public byte[] value(int i) {
    return values[i].clone();
  }

  /**
   * The value of the i-th smallest key as UTF-8 text, decoded once per page: an inner node's values
   * are its children's URIs, read on every descent, and decoding them again each time (a new string,
   * its hash computed afresh for the page lookup) was a large share of a cached read.
   */
  public String valueText(int i) {
    String[] texts = valueTexts;
    if (texts == null) {
      texts = new String[values.length];
      valueTexts = texts; // racing threads may both decode: the strings are equal
    }
    String t = texts[i];
    if (t == null) {
      t = new String(values[i], StandardCharsets.UTF_8);
      texts[i] = t;
    }
    return t;
  }

  /** Compares the i-th key with {@code key} without copying. */
  public int compareKeyAt(int i, byte[] key) {
    return Keys.compare(keys[i], key);
  }

  /**
   * The index of {@code key} if present; otherwise {@code -(insertionPoint + 1)}, as {@link
   * Arrays#binarySearch}.
   */
  public int indexOf(byte[] key) {
    return keys.length == 0 ? -1 : search().indexOf(key);
  }

  /** The value stored under {@code key} (a copy), or empty. */
  public Optional<byte[]> get(byte[] key) {
    byte[] value = keys.length == 0 ? null : search().exactValue(key);
    return value == null ? Optional.empty() : Optional.of(value.clone());
  }

  private KeySearch search() {
    KeySearch s = search;
    if (s == null) {
      s = new KeySearch(keys, values);
      search = s; // racing threads may both make one: they are equal
    }
    return s;
  }

  /**
   * The index of the greatest key ≤ {@code key}, or -1 if every key is greater: the child an inner
   * node routes {@code key} to.
   */
  public int floorIndex(byte[] key) {
    int i = indexOf(key);
    return i >= 0 ? i : -i - 2;
  }

  /** The write stamp of the i-th smallest key's entry; 0 when it has none. */
  public long stamp(int i) {
    if (i < 0 || i >= keys.length) {
      throw new IndexOutOfBoundsException(i);
    }
    return stamps == null ? 0 : stamps[i];
  }

  /**
   * The largest write stamp of the page's entries and tombstones; 0 when none has one (a reader
   * that saw the page stamps its own writes above it, a re-create of a deleted key included).
   */
  public long maxStamp() {
    return maxStamp;
  }

  /** Whether any entry carries a write stamp. */
  public boolean hasStamps() {
    return stamps != null;
  }

  /** The entries' write stamps in key order (a fresh array; zeros when none has one). */
  public long[] stamps() {
    return stamps == null ? new long[keys.length] : stamps.clone();
  }

  /** How many tombstones the page keeps (see the class comment). */
  public int tombstoneCount() {
    return tombKeys.length;
  }

  /** The i-th smallest tombstone key (a copy). */
  public byte[] tombstoneKey(int i) {
    return tombKeys[i].clone();
  }

  /** The delete stamp of the i-th smallest tombstone key. */
  public long tombstoneStamp(int i) {
    return tombStamps[i];
  }

  /** The delete stamp the page keeps for {@code key}; 0 when it keeps none. */
  public long tombstoneStamp(byte[] key) {
    int i = Arrays.binarySearch(tombKeys, key, Keys.ORDER);
    return i >= 0 ? tombStamps[i] : 0;
  }

  /** Bytes one tombstone of {@code key} adds to a page's size bound (framing and stamp). */
  public static int tombstoneBytes(byte[] key) {
    return key.length + ENTRY_OVERHEAD + WRITE_STAMP_BYTES;
  }

  /** A page with {@code key} set to {@code value} (inserted or replaced), without a write stamp. */
  public Page withPut(byte[] key, byte[] value) {
    return withPut(key, value, 0);
  }

  /**
   * A page with {@code key} set to {@code value} (inserted or replaced) and its entry's write stamp
   * set to {@code stamp} (0: none), and without a tombstone of the key. Unconditional: the caller
   * decides whether the stamp wins.
   */
  public Page withPut(byte[] key, byte[] value, long stamp) {
    int i = indexOf(key);
    byte[][] k;
    byte[][] v;
    long[] s = stamps;
    if (i >= 0) {
      k = keys;
      v = values.clone();
      v[i] = value.clone();
      if (s != null || stamp != 0) {
        s = s == null ? new long[keys.length] : s.clone();
        s[i] = stamp;
      }
    } else {
      int at = -i - 1;
      k = insert(keys, at, key.clone());
      v = insert(values, at, value.clone());
      if (s != null || stamp != 0) {
        long[] old = s == null ? new long[keys.length] : s;
        s = new long[old.length + 1];
        System.arraycopy(old, 0, s, 0, at);
        s[at] = stamp;
        System.arraycopy(old, at, s, at + 1, old.length - at);
      }
    }
    int t = Arrays.binarySearch(tombKeys, key, Keys.ORDER);
    if (t < 0) {
      return new Page(toBuilder(), k, v, normalized(s));
    }
    long[] ts = new long[tombStamps.length - 1];
    System.arraycopy(tombStamps, 0, ts, 0, t);
    System.arraycopy(tombStamps, t + 1, ts, t, ts.length - t);
    return new Page(toBuilder(), k, v, normalized(s), remove(tombKeys, t), ts);
  }

  /** A page without {@code key} (this page itself when the key is absent); tombstones stay. */
  public Page withRemoved(byte[] key) {
    int i = indexOf(key);
    if (i < 0) {
      return this;
    }
    long[] s = null;
    if (stamps != null) {
      s = new long[stamps.length - 1];
      System.arraycopy(stamps, 0, s, 0, i);
      System.arraycopy(stamps, i + 1, s, i, stamps.length - i - 1);
    }
    return new Page(toBuilder(), remove(keys, i), remove(values, i), normalized(s));
  }

  /** {@code s}, or null when it holds no stamp: pages without stamps carry no array. */
  private static long @Nullable [] normalized(long @Nullable [] s) {
    if (s == null) {
      return null;
    }
    for (long x : s) {
      if (x != 0) {
        return s;
      }
    }
    return null;
  }

  /**
   * An upper bound of the bytes {@link PageCodec} needs for this page: what page-size checks (splits,
   * oversized records) compare against the configured page size.
   */
  public int encodedSizeBound() {
    return encodedSizeBound;
  }

  /** A builder holding this page's header and entries. */
  public Builder toBuilder() {
    Builder b = new Builder(uri, kind);
    b.level = level;
    b.lowKey = lowKey;
    b.highKey = highKey;
    b.rightSibling = rightSibling;
    b.protocolState = protocolState;
    b.versionStamp = versionStamp;
    b.keys = keys;
    b.values = values;
    b.stamps = stamps;
    b.tombKeys = tombKeys;
    b.tombStamps = tombStamps;
    return b;
  }

  /** Same header and entries (storage versions are not part of a page). */
  @Override
  public boolean equals(Object o) {
    if (this == o) {
      return true;
    }
    if (!(o instanceof Page)) {
      return false;
    }
    Page p = (Page) o;
    return uri.equals(p.uri)
        && kind == p.kind
        && level == p.level
        && Arrays.equals(lowKey, p.lowKey)
        && Arrays.equals(highKey, p.highKey)
        && Objects.equals(rightSibling, p.rightSibling)
        && Arrays.equals(protocolState, p.protocolState)
        && versionStamp == p.versionStamp
        && Arrays.deepEquals(keys, p.keys)
        && Arrays.deepEquals(values, p.values)
        && Arrays.equals(stamps, p.stamps)
        && Arrays.deepEquals(tombKeys, p.tombKeys)
        && Arrays.equals(tombStamps, p.tombStamps);
  }

  @Override
  public int hashCode() {
    return Objects.hash(uri, kind, level, keys.length, Arrays.hashCode(lowKey));
  }

  @Override
  public String toString() {
    return "Page{"
        + uri
        + ", "
        + kind
        + " level "
        + level
        + ", "
        + keys.length
        + " entries"
        + (tombKeys.length == 0 ? "" : ", " + tombKeys.length + " tombstones")
        + (rightSibling == null ? "" : ", right=" + rightSibling)
        + '}';
  }

  /** An upper bound of the UTF-8 length of {@code s}: exact except that a surrogate pair counts 6. */
  private static int utf8Length(String s) {
    int n = s.length();
    int bytes = n;
    for (int i = 0; i < n; i++) {
      char c = s.charAt(i);
      if (c >= 0x800) {
        bytes += 2;
      } else if (c >= 0x80) {
        bytes += 1;
      }
    }
    return bytes;
  }

  private static byte[][] insert(byte[][] a, int at, byte[] x) {
    byte[][] r = new byte[a.length + 1][];
    System.arraycopy(a, 0, r, 0, at);
    r[at] = x;
    System.arraycopy(a, at, r, at + 1, a.length - at);
    return r;
  }

  private static byte[][] remove(byte[][] a, int at) {
    byte[][] r = new byte[a.length - 1][];
    System.arraycopy(a, 0, r, 0, at);
    System.arraycopy(a, at + 1, r, at, a.length - at - 1);
    return r;
  }

  /**
   * Builds a page. Entries given with {@link #entries} must be sorted by {@link Keys#ORDER} and
   * unique; {@link #build()} checks it.
   */
  public static final class Builder {
    private String uri;
    private final PageKind kind;
    private int level;
    private byte[] lowKey = new byte[0];
    private byte @Nullable [] highKey;
    private @Nullable String rightSibling;
    private byte[] protocolState = new byte[0];
    private long versionStamp;
    private byte[][] keys = NO_BYTES;
    private byte[][] values = NO_BYTES;
    private long @Nullable [] stamps;
    private byte[][] tombKeys = NO_BYTES;
    private long[] tombStamps = NO_STAMPS;

    private Builder(String uri, PageKind kind) {
      this.uri = Objects.requireNonNull(uri, "uri");
      this.kind = Objects.requireNonNull(kind, "kind");
    }

    /** Moves the page to another URI (a root split copies the root's contents to new pages). */
    public Builder uri(String uri) {
      this.uri = Objects.requireNonNull(uri, "uri");
      return this;
    }

    public Builder level(int level) {
      if (level < 0) {
        throw new IllegalArgumentException("level must not be negative: " + level);
      }
      this.level = level;
      return this;
    }

    public Builder lowKey(byte[] lowKey) {
      this.lowKey = lowKey.clone();
      return this;
    }

    /** The exclusive upper bound; null for plus infinity. */
    public Builder highKey(byte @Nullable [] highKey) {
      this.highKey = highKey == null ? null : highKey.clone();
      return this;
    }

    /** The right sibling's URI; null for none. */
    public Builder rightSibling(@Nullable String rightSibling) {
      this.rightSibling = rightSibling;
      return this;
    }

    /** The version stamp (see {@link Page#versionStamp}). */
    public Builder versionStamp(long stamp) {
      if (stamp < 0) {
        throw new IllegalArgumentException("a version stamp must not be negative: " + stamp);
      }
      this.versionStamp = stamp;
      return this;
    }

    /** Replaces the protocol state (copied; empty: none). */
    public Builder protocolState(byte[] state) {
      this.protocolState = Objects.requireNonNull(state, "state").clone();
      return this;
    }

    /** Replaces the entries; keys sorted by {@link Keys#ORDER}, unique, one value per key. */
    public Builder entries(byte[][] keys, byte[][] values) {
      if (keys.length != values.length) {
        throw new IllegalArgumentException("keys and values differ in number");
      }
      byte[][] k = new byte[keys.length][];
      byte[][] v = new byte[values.length][];
      for (int i = 0; i < keys.length; i++) {
        k[i] = keys[i].clone();
        v[i] = values[i].clone();
      }
      this.keys = k;
      this.values = v;
      this.stamps = null;
      return this;
    }

    /**
     * Replaces the entries, with their write stamps ({@link Page#stamp(int)}; zeros: none); keys
     * sorted by {@link Keys#ORDER}, unique, one value and one stamp per key.
     */
    public Builder entries(byte[][] keys, byte[][] values, long[] stamps) {
      if (stamps.length != keys.length) {
        throw new IllegalArgumentException("keys and write stamps differ in number");
      }
      entries(keys, values);
      this.stamps = normalized(stamps.clone());
      return this;
    }

    /**
     * Replaces the tombstones (see the class comment): keys sorted by {@link Keys#ORDER}, unique,
     * none a key of an entry, each with its delete stamp (positive). Entries set later keep them.
     */
    public Builder tombstones(byte[][] keys, long[] stamps) {
      if (stamps.length != keys.length) {
        throw new IllegalArgumentException("tombstone keys and stamps differ in number");
      }
      byte[][] k = new byte[keys.length][];
      for (int i = 0; i < keys.length; i++) {
        k[i] = keys[i].clone();
      }
      this.tombKeys = k;
      this.tombStamps = stamps.clone();
      return this;
    }

    public Page build() {
      for (int i = 1; i < keys.length; i++) {
        if (Keys.compare(keys[i - 1], keys[i]) >= 0) {
          throw new IllegalArgumentException("page entries must be sorted and unique");
        }
      }
      checkTombstones();
      if (stamps != null) {
        if (stamps.length != keys.length) {
          throw new IllegalArgumentException("keys and write stamps differ in number");
        }
        for (long x : stamps) {
          if (x < 0) {
            throw new IllegalArgumentException("a write stamp must not be negative: " + x);
          }
        }
      }
      return new Page(this, keys, values, stamps);
    }

    private void checkTombstones() {
      if (tombKeys.length == 0) {
        return;
      }
      if (kind != PageKind.LEAF) {
        throw new IllegalArgumentException("only leaves keep tombstones, not a " + kind + " page");
      }
      for (int i = 0; i < tombKeys.length; i++) {
        if (i > 0 && Keys.compare(tombKeys[i - 1], tombKeys[i]) >= 0) {
          throw new IllegalArgumentException("tombstones must be sorted and unique");
        }
        if (tombStamps[i] <= 0) {
          throw new IllegalArgumentException(
              "a tombstone's stamp must be positive: " + tombStamps[i]);
        }
        if (Arrays.binarySearch(keys, tombKeys[i], Keys.ORDER) >= 0) {
          throw new IllegalArgumentException("a key is both an entry and a tombstone");
        }
      }
    }
  }
}
