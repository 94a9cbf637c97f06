package io.stratus.pagemanager;

import io.stratus.cloudapi.CloudFutures;
import io.stratus.cloudapi.ItemVersion;
import io.stratus.cloudapi.StorageService;
import io.stratus.cloudapi.SupportsConditionalPut;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import org.jspecify.annotations.Nullable;

/**
 * The one way a page reaches storage: stamp it, encode it, put it (plainly or on a condition),
 * and install what was written into the handle's buffer pool.
 *
 * <p>Why one place: every writer of pages — checkpoints, naive commits, the catalog, new and
 * bulk-loaded trees — must do the same four steps in the same way, and each step has a rule that
 * is easy to get subtly wrong when repeated. The stamp must exceed both the version the writer
 * read and every version this handle has seen (monotonic reads: a reader never goes back); a
 * conditional put must name exactly the version read (or require absence); and an install must
 * go through the pool, which refuses to replace a newer cached copy with an older one.
 *
 * <p>Thread-safe; holds no state besides the services it was given.
 */
public final class PageWriter {
  /** What a put requires of the item stored at the page's URI. */
  public static final class Condition {
    private static final Condition NONE = new Condition(null, false);
    private static final Condition ABSENT = new Condition(null, true);

    private final @Nullable String version;
    private final boolean absent;

    private Condition(@Nullable String version, boolean absent) {
      this.version = version;
      this.absent = absent;
    }

    /** Nothing: a plain put, which overwrites whatever is there. */
    public static Condition none() {
      return NONE;
    }

    /** No item may be stored at the URI yet. */
    public static Condition absent() {
      return ABSENT;
    }

    /** The stored item must still be at {@code version} (the one the writer read). */
    public static Condition version(String version) {
      return new Condition(Objects.requireNonNull(version, "version"), false);
    }

    /** Whether this condition needs storage with conditional puts. */
    public boolean isConditional() {
      return absent || version != null;
    }

    @Override
    public String toString() {
      return absent ? "if-absent" : version != null ? "if-version " + version : "unconditional";
    }
  }

  private final StorageService storage;
  private final @Nullable SupportsConditionalPut conditional;
  private final BufferPool pool;

  /** A writer to {@code storage} that stamps against and installs into {@code pool}. */
  public PageWriter(StorageService storage, BufferPool pool) {
    this.storage = Objects.requireNonNull(storage, "storage");
    this.pool = Objects.requireNonNull(pool, "pool");
    this.conditional = SupportsConditionalPut.of(storage);
  }

  /** Whether the storage offers conditional puts. */
  public boolean supportsConditions() {
    return conditional != null;
  }

  /** The highest version stamp this handle has seen for {@code uri} (0 for none). */
  public long seenStamp(String uri) {
    return pool.highestStamp(uri);
  }

  /**
   * {@code page} with a version stamp one above its own, {@code readStamp} (the stamp of the
   * version the writer based it on, 0 for none) and every stamp this handle has seen for its URI.
   */
  public Page stamp(Page page, long readStamp) {
    long highest =
        Math.max(page.versionStamp(), Math.max(readStamp, pool.highestStamp(page.uri())));
    return page.withVersionStamp(highest + 1);
  }

  /**
   * Puts {@code page} as it is (already stamped), asynchronously. A lost race completes the future
   * with {@link io.stratus.cloudapi.PreconditionFailedException} or {@link
   * io.stratus.cloudapi.ConflictException}.
   *
   * @throws IllegalStateException when {@code condition} is conditional and the storage has no
   *     conditional puts
   */
  public CompletableFuture<ItemVersion> put(Page page, Condition condition) {
    byte[] bytes = PageCodec.encode(page);
    if (!condition.isConditional()) {
      return storage.put(page.uri(), bytes, Map.of());
    }
    if (conditional == null) {
      throw new IllegalStateException(
          "a "
              + condition
              + " put of "
              + page.uri()
              + " needs storage with conditional puts, and "
              + storage
              + " has none");
    }
    // A conditional condition without a version is "absent".
    String version = condition.version;
    return version == null
        ? conditional.putIfAbsent(page.uri(), bytes, Map.of())
        : conditional.putIfVersionMatches(page.uri(), bytes, Map.of(), version);
  }

  /**
   * Makes a written page this handle's cached copy; the pool keeps a newer copy it already has
   * (another writer's, loaded meanwhile) rather than go back in time.
   */
  public void install(Page page, String version) {
    pool.install(page, version);
  }

  /**
   * Stamps, puts and installs {@code page}, waiting for the put.
   *
   * @return the page as written (stamped) and its storage version
   */
  public Written write(Page page, long readStamp, Condition condition) {
    Page stamped = stamp(page, readStamp);
    ItemVersion v = CloudFutures.await(put(stamped, condition));
    install(stamped, v.version());
    return new Written(stamped, v.version());
  }

  /** A page as written and the version storage gave it. */
  public record Written(Page page, String version) {}
}
