package io.stratus.protocols.checkpoint;

import io.stratus.CorruptPageException;
import io.stratus.cloudapi.CloudException;
import io.stratus.cloudapi.CloudFutures;
import io.stratus.cloudapi.ConflictException;
import io.stratus.cloudapi.ItemVersion;
import io.stratus.cloudapi.PreconditionFailedException;
import io.stratus.cloudapi.StorageService;
import io.stratus.cloudapi.StoredItem;
import io.stratus.cloudapi.UnreadablePayloadException;
import io.stratus.pagemanager.Page;
import io.stratus.pagemanager.PageCodec;
import io.stratus.pagemanager.PageKind;
import io.stratus.pagemanager.PageStore;
import io.stratus.pagemanager.PageWriter;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import org.jspecify.annotations.Nullable;

/**
 * The page store of one checkpoint: every page is read fresh from storage (once per checkpoint,
 * with its version), writes are collected, and {@link #flush} puts them in the order the B-link
 * trees need — all new pages first, then the changed pages by ascending level, each level after
 * the one below completed (see {@code BLinkTree}), through the handle's {@link PageWriter}: every
 * page put gets a new version stamp (one above the stamp read and any this client saw), and a
 * read older than what this client saw abandons the checkpoint (monotonic reads). Not
 * thread-safe: one checkpoint.
 */
public final class DirectPageStore implements PageStore {
  /** A checkpoint must stop: its lease is (nearly) over, or a conditional put lost a race. */
  public static final class Abandoned extends RuntimeException {
    private final String why;

    /** Abandoned for the reason {@code why}. */
    public Abandoned(String why) {
      super(why, null, false, false);
      this.why = why;
    }

    /** Abandoned for the reason {@code why}, after {@code cause}. */
    public Abandoned(String why, Throwable cause) {
      super(why, cause, false, false);
      this.why = why;
    }

    /** The reason, as given. */
    @Override
    public String getMessage() {
      return why;
    }
  }

  /** Whether the lease still allows a put (checked before each group of puts). */
  public interface Lease {
    boolean allowsPut();
  }

  private final StorageService storage;
  private final PageWriter writer;
  private final boolean conditionalPuts;
  private final int pageSize;

  /** The pages this checkpoint read from storage, by URI; empty: read as absent. */
  private final Map<String, Optional<Page>> read = new HashMap<>();

  private final Map<String, String> versions = new HashMap<>(); // uri -> version read; absent: none
  private final Map<String, Page> writes = new LinkedHashMap<>();
  private final Set<String> created = new HashSet<>();

  /**
   * @param writer puts, stamps and installs the pages (its buffer pool also tells the highest
   *     version stamp this client has seen per URI: a storage answer older than that is stale,
   *     and the checkpoint gives up rather than apply records to an old page — monotonic reads;
   *     it matters with timing-only writes, where no conditional put would catch it)
   * @param conditionalPuts whether pages are put on the version read ({@link
   *     io.stratus.protocols.CheckpointWrites#CONDITIONAL}) or plainly
   */
  public DirectPageStore(
      StorageService storage, PageWriter writer, boolean conditionalPuts, int pageSize) {
    if (conditionalPuts && !writer.supportsConditions()) {
      throw new IllegalArgumentException(
          "conditional checkpoint puts need storage with" + " conditional puts");
    }
    this.storage = storage;
    this.writer = writer;
    this.conditionalPuts = conditionalPuts;
    this.pageSize = pageSize;
  }

  @Override
  public Optional<Page> read(String uri) {
    Page w = writes.get(uri);
    if (w != null) {
      return Optional.of(w);
    }
    Optional<Page> known = read.get(uri);
    if (known != null) {
      return known;
    }
    Optional<StoredItem> item;
    try {
      item = CloudFutures.await(storage.get(uri));
    } catch (UnreadablePayloadException e) {
      throw (CorruptPageException) PageCodec.readFailure(uri, e);
    }
    Optional<Page> p = item.map(i -> PageCodec.decode(uri, i.payload()));
    long seen = writer.seenStamp(uri);
    if (seen > 0 && (p.isEmpty() || p.get().versionStamp() < seen)) {
      throw new Abandoned(
          "storage served page "
              + uri
              + " older than this client has seen"
              + " (stamp "
              + p.map(page -> Long.toString(page.versionStamp())).orElse("absent")
              + " < "
              + seen
              + ")");
    }
    read.put(uri, p);
    item.ifPresent(i -> versions.put(uri, i.version()));
    return p;
  }

  /**
   * Buffers {@code page} without the size check: only for a header that grew past the page size,
   * which the caller then makes the B-link tree split ({@link Checkpointer}).
   */
  public void stage(Page page) {
    writes.put(page.uri(), page);
  }

  /**
   * Buffers {@code page} for {@link #flush}.
   *
   * @throws IllegalArgumentException when the page is larger than the page size (the caller must
   *     split it first); nothing is buffered
   */
  @Override
  public void write(Page page) {
    if (page.encodedSizeBound() > pageSize) {
      throw new IllegalArgumentException(
          "page "
              + page.uri()
              + " needs up to "
              + page.encodedSizeBound()
              + " bytes, more than the page size of "
              + pageSize
              + "; split it before writing it");
    }
    writes.put(page.uri(), page);
  }

  @Override
  public String newPageUri(String prefix) {
    String uri = prefix + UUID.randomUUID();
    created.add(uri);
    return uri;
  }

  @Override
  public int pageSize() {
    return pageSize;
  }

  @Override
  public boolean readsMayLag() {
    return !storage.isStronglyConsistent();
  }

  /**
   * Puts {@code uri} back as read (with a new version stamp) unless the checkpoint writes it
   * anyway: the checkpoint decided on records by this page's contents without changing it (a
   * delete of a key it does not hold, a record older than the entry it would replace), and a
   * stale read of the page must fail the checkpoint at the conditional put, not drop the records
   * for good. With timing-only puts only the monotonic-reads guard of {@link #read} catches a
   * stale copy. No-op for a page not read, or read as absent.
   */
  public void confirm(String uri) {
    asRead(uri).ifPresent(p -> writes.putIfAbsent(uri, p));
  }

  /** Whether the copy of {@code uri} this checkpoint read was a leaf. */
  public boolean readAsLeaf(String uri) {
    return asRead(uri).map(p -> p.kind() == PageKind.LEAF).orElse(false);
  }

  /** The copy of {@code uri} this checkpoint read; empty when not read, or read as absent. */
  private Optional<Page> asRead(String uri) {
    return read.getOrDefault(uri, Optional.empty());
  }

  /** Whether this checkpoint created {@code uri} (a page new in a split). */
  public boolean isNew(String uri) {
    return created.contains(uri);
  }

  /** The pages written so far, by URI. */
  public Map<String, Page> writes() {
    return writes;
  }

  /**
   * Puts every written page (see the class comment); returns the new versions by URI. The page
   * {@code counterPage}, whose header records which log records the checkpoint applied, is put
   * alone after the other pages of its level: a counter may only advance once every page holding
   * the records it counts is stored. Put beside them, it could succeed while another page's
   * conditional put failed, and the next checkpoint would skip that page's record as applied.
   *
   * <p>On storage whose reads may lag, the counter page is first claimed: put back as read, on
   * the version read, before any other page. Which records count as applied was decided by that
   * page's counters; a stale copy (its counters behind another checkpoint's) would have this
   * checkpoint apply a record again, and a leaf read fresh would take it: a key deleted since
   * came back, and the final put of the counter page, failing, would not undo that. The claim
   * fails on a stale copy before anything is put. It costs one put, only where another existing
   * page is written with it, and only on eventually consistent storage with conditional puts.
   *
   * @throws Abandoned when the lease no longer allows a put, or a conditional put lost a race
   *     (pages put before stay: they are consistent B-link states, and the records are applied
   *     again by a later checkpoint)
   */
  public Map<String, String> flush(Lease lease, String counterPage) {
    long counterFloor = claim(lease, counterPage);
    // One new version stamp per page written: above what was read and what this client saw.
    for (Map.Entry<String, Page> e : writes.entrySet()) {
      long floor = asRead(e.getKey()).map(Page::versionStamp).orElse(0L);
      if (e.getKey().equals(counterPage)) {
        floor = Math.max(floor, counterFloor);
      }
      e.setValue(writer.stamp(e.getValue(), floor));
    }
    List<Page> fresh = new ArrayList<>();
    TreeMap<Integer, List<Page>> byLevel = new TreeMap<>();
    for (Page p : writes.values()) {
      if (created.contains(p.uri())) {
        fresh.add(p);
      } else {
        byLevel.computeIfAbsent(p.level(), l -> new ArrayList<>()).add(p);
      }
    }
    Map<String, String> out = new HashMap<>();
    putAll(fresh, lease, out);
    for (List<Page> level : byLevel.values()) {
      Page counters = null;
      for (int i = 0; i < level.size(); i++) {
        if (level.get(i).uri().equals(counterPage)) {
          counters = level.remove(i);
          break;
        }
      }
      putAll(level, lease, out);
      if (counters != null) {
        putAll(List.of(counters), lease, out);
      }
    }
    return out;
  }

  /**
   * Claims the counter page where it must be (see {@link #flush}): puts it back as read, on the
   * version read, and makes the checkpoint's final put of it conditional on the claim. Returns the
   * claim's version stamp, or 0 when there was nothing to claim.
   */
  private long claim(Lease lease, String counterPage) {
    Optional<Page> asRead = asRead(counterPage);
    if (!conditionalPuts
        || !readsMayLag()
        || asRead.isEmpty()
        || !writes.containsKey(counterPage)
        || writes.keySet().stream()
            .noneMatch(u -> !u.equals(counterPage) && !created.contains(u))) {
      return 0;
    }
    Page claimed = writer.stamp(asRead.get(), asRead.get().versionStamp());
    Map<String, String> out = new HashMap<>();
    putAll(List.of(claimed), lease, out);
    versions.put(counterPage, out.get(counterPage));
    return claimed.versionStamp();
  }

  private void putAll(List<Page> pages, Lease lease, Map<String, String> out) {
    if (pages.isEmpty()) {
      return;
    }
    if (!lease.allowsPut()) {
      throw new Abandoned("the lease is too short for another put");
    }
    List<CompletableFuture<ItemVersion>> calls = new ArrayList<>();
    for (Page p : pages) {
      CompletableFuture<ItemVersion> f;
      try {
        f = writer.put(p, conditionFor(p.uri()));
      } catch (RuntimeException e) {
        f = CompletableFuture.failedFuture(e);
      }
      calls.add(f);
    }
    RuntimeException failure = null;
    for (int i = 0; i < calls.size(); i++) {
      try {
        out.put(pages.get(i).uri(), CloudFutures.await(calls.get(i)).version());
      } catch (PreconditionFailedException | ConflictException e) {
        failure =
            first(
                failure,
                new Abandoned(
                    "page " + pages.get(i).uri() + " changed since the checkpoint read it", e));
      } catch (CloudException e) {
        failure = first(failure, e);
      }
    }
    if (failure != null) {
      throw failure;
    }
  }

  private PageWriter.Condition conditionFor(String uri) {
    if (!conditionalPuts) {
      return PageWriter.Condition.none();
    }
    String version = versions.get(uri);
    return version == null ? PageWriter.Condition.absent() : PageWriter.Condition.version(version);
  }

  /**
   * Makes the pages {@link #flush} stored this handle's cached copies (the pool keeps a newer
   * copy it loaded meanwhile).
   */
  public void install(Map<String, String> versionsWritten) {
    for (Map.Entry<String, Page> w : writes.entrySet()) {
      String version = versionsWritten.get(w.getKey());
      if (version != null) {
        writer.install(w.getValue(), version);
      }
    }
  }

  private static RuntimeException first(@Nullable RuntimeException a, RuntimeException b) {
    if (a == null) {
      return b;
    }
    a.addSuppressed(b);
    return a;
  }
}
