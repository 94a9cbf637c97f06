package io.stratus.core;

import io.stratus.CorruptPageException;
import io.stratus.InvalidRequestException;
import io.stratus.cloudapi.CloudException;
import io.stratus.cloudapi.CloudFutures;
import io.stratus.cloudapi.CloudServices;
import io.stratus.cloudapi.ConflictException;
import io.stratus.cloudapi.ItemSummary;
import io.stratus.cloudapi.ItemVersion;
import io.stratus.cloudapi.OutcomeUnknownException;
import io.stratus.cloudapi.PreconditionFailedException;
import io.stratus.cloudapi.StorageService;
import io.stratus.cloudapi.StoredItem;
import io.stratus.cloudapi.SupportsConditionalPut;
import io.stratus.cloudapi.UnreadablePayloadException;
import io.stratus.cloudapi.crypto.SealedItem;
import io.stratus.cloudapi.crypto.SupportsSealInspection;
import io.stratus.pagemanager.BufferPool;
import io.stratus.pagemanager.Page;
import io.stratus.pagemanager.PageCodec;
import io.stratus.pagemanager.PageWriter;
import io.stratus.protocols.ProtocolKind;
import io.stratus.protocols.StorageLayout;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import org.jspecify.annotations.Nullable;

/**
 * One re-seal of a database (see {@link DatabaseAdmin#reseal}): lists every stored object the
 * database writes — the catalog, the pages of every tree under the collections' and the indexes'
 * prefixes (reachable or not), the sequences' objects, the dead letters — reads each once with its
 * storage version and the key id of its header ({@link SupportsSealInspection}), and puts back each
 * one sealed with another key than the one now active for it.
 *
 * <p><b>Why a rewrite is safe while other clients run.</b> The put names the version read
 * (If-Match), so it succeeds only if nobody wrote the object in between; a page keeps its content
 * and gets a version stamp one above the one read (through the {@link PageWriter}, which also
 * stays above every stamp this handle has seen), so to a client with monotonic reads the rewrite
 * is newer than the page it replaces, never older. When the put loses a race the object is read
 * again: usually another client rewrote it, sealed with the active key, and there is nothing left
 * to do. A concurrent writer that loses the race against the re-seal sees an ordinary conflict
 * and reads the page again, finding its content unchanged. Without conditional puts none of this
 * holds, so such storage is refused unless the operator declares the database quiescent.
 *
 * <p>A dead letter and any object that does not decode as a page are put back byte for byte as
 * they opened (a page of a newer format stays what it is); objects that cannot be opened (a key
 * this handle lacks, failed authentication) or carry no key id are reported, not touched. Queue
 * messages are not rewritten (see {@link ResealReport}).
 *
 * <p>Used by one thread for one run; sequential: one get and at most one put per object.
 */
final class Resealer {
  private final DatabaseConfig config;
  private final StorageLayout layout;
  private final SupportsSealInspection seals;
  private final @Nullable SupportsConditionalPut conditional; // null: storage has none
  private final PageWriter writer;
  private final ResealOptions options;
  private final TreeMap<String, Long> found = new TreeMap<>();
  private final TreeMap<String, Long> sealed = new TreeMap<>();
  private final List<ResealReport.Problem> problems = new ArrayList<>();
  private long objects;
  private long stale;
  private long left;
  private long rewritten;
  private long conflicts;
  private long vanished;
  private long problemCount;

  /**
   * A re-seal of {@code config}'s database that writes pages through {@code writer}.
   *
   * @throws InvalidRequestException when the database's storage is not encrypted by this client
   */
  Resealer(DatabaseConfig config, PageWriter writer, ResealOptions options) {
    this.config = config;
    this.layout = new StorageLayout(config.databaseUri());
    this.seals = sealsOf(config);
    this.conditional = SupportsConditionalPut.of(seals);
    this.writer = writer;
    this.options = options;
  }

  /** A run that writes through a pool of its own, closed at the end (no database handle). */
  static ResealReport withOwnPool(DatabaseConfig config, ResealOptions options) {
    StorageService storage = config.services().storage();
    BufferPool pool = new BufferPool(storage, config.bufferPoolConfig(), config.clock());
    try {
      return new Resealer(config, new PageWriter(storage, pool), options).run();
    } finally {
      pool.close();
    }
  }

  /** The storage of {@code config} as storage whose seals can be inspected. */
  static SupportsSealInspection sealsOf(DatabaseConfig config) {
    SupportsSealInspection s = SupportsSealInspection.of(config.services().storage());
    if (s == null) {
      throw new InvalidRequestException(
          "re-sealing "
              + config.databaseUri()
              + " needs client-side encryption: its configuration has no keyring"
              + " (DatabaseConfig.Builder.encryption)");
    }
    return s;
  }

  /**
   * Runs the re-seal.
   *
   * @throws InvalidRequestException when it would write to storage without conditional puts and
   *     the database is not declared quiescent
   */
  ResealReport run() {
    if (!options.dryRun() && conditional == null && !options.quiescent()) {
      throw new InvalidRequestException(
          "the storage of "
              + config.databaseUri()
              + " has no conditional puts, so a re-seal could put back a page over a change"
              + " another client writes meanwhile; stop every client that writes the database,"
              + " then re-seal declaring it quiescent (ResealOptions.quiescent, bin/stratus reseal"
              + " --quiescent), or count only with a dry run");
    }
    Instant started = config.clock().instant();
    long t0 = System.nanoTime();
    for (String uri : objects()) {
      objects++;
      reseal(uri);
    }
    return new ResealReport(
        layout.databaseUri(),
        options.dryRun(),
        started,
        Duration.ofNanos(System.nanoTime() - t0),
        objects,
        found,
        sealed,
        stale,
        left,
        rewritten,
        conflicts,
        vanished,
        problems,
        problemCount,
        config.encryption().map(Keyring::keyIds).orElse(Set.of()),
        queueRetention());
  }

  /** Every object of the database in storage now: catalog, tree pages, sequences, dead letters. */
  private List<String> objects() {
    List<String> uris = new ArrayList<>();
    for (ItemSummary s : CloudFutures.await(seals.listAll(layout.catalog()))) {
      if (s.uri().equals(layout.catalog())) {
        uris.add(s.uri());
      }
    }
    for (String prefix :
        List.of(
            layout.collectionsPrefix(),
            layout.indexesPrefix(),
            layout.sequencesPrefix(),
            layout.deadLetterPrefix())) {
      for (ItemSummary s : CloudFutures.await(seals.listAll(prefix))) {
        uris.add(s.uri());
      }
    }
    return uris;
  }

  private void reseal(String uri) {
    boolean first = true;
    for (int attempt = 1; ; attempt++) {
      Optional<SealedItem> got = CloudFutures.await(seals.getSealed(uri));
      if (got.isEmpty()) {
        vanished++;
        return;
      }
      SealedItem item = got.get();
      if (item.keyId().isEmpty()) {
        problem(
            uri,
            "its bytes carry no encryption header: written without encryption, or damaged (verify"
                + " reports it); it cannot be re-sealed");
        return;
      }
      String keyId = item.keyId().get();
      String active = seals.activeKeyId(uri);
      if (first) {
        found.merge(keyId, 1L, Long::sum);
      }
      if (keyId.equals(active)) {
        count(active);
        return;
      }
      if (first) {
        stale++;
        first = false;
      }
      if (options.dryRun()) {
        keep(keyId);
        return;
      }
      StoredItem plain;
      try {
        plain = item.open();
      } catch (UnreadablePayloadException e) {
        keep(keyId);
        problem(uri, e.problem());
        return;
      }
      try {
        put(uri, item, plain);
        rewritten++;
        count(active);
        return;
      } catch (PreconditionFailedException | ConflictException e) {
        conflicts++; // someone wrote it since it was read: read it again
        if (attempt >= options.maxAttempts()) {
          keep(keyId);
          problem(
              uri,
              "still sealed with key "
                  + Names.quote(keyId)
                  + ": other clients wrote it during all "
                  + attempt
                  + " attempts; run the re-seal again");
          return;
        }
      } catch (CloudException e) {
        // A lost reply may hide a put that took effect; a fresh read tells, so retry like a race.
        if (!(e instanceof OutcomeUnknownException || e.isRetryable())
            || attempt >= options.maxAttempts()) {
          throw e;
        }
      }
    }
  }

  /**
   * Puts {@code plain} back at {@code uri}, sealed with the active key, on the condition that the
   * item is still at the version read (a plain put on quiescent storage without conditions).
   */
  private void put(String uri, SealedItem item, StoredItem plain) {
    PageWriter.Condition condition =
        conditional != null
            ? PageWriter.Condition.version(item.version())
            : PageWriter.Condition.none();
    if (isPage(uri)) {
      Page page = decodeOrNull(uri, plain.payload());
      if (page != null) {
        Page stamped = writer.stamp(page, page.versionStamp());
        ItemVersion v = CloudFutures.await(writer.put(stamped, condition));
        writer.install(stamped, v.version());
        return;
      }
    }
    if (conditional != null) {
      CloudFutures.await(
          conditional.putIfVersionMatches(uri, plain.payload(), plain.metadata(), item.version()));
    } else {
      CloudFutures.await(seals.put(uri, plain.payload(), plain.metadata()));
    }
  }

  private boolean isPage(String uri) {
    return uri.equals(layout.catalog())
        || uri.startsWith(layout.collectionsPrefix())
        || uri.startsWith(layout.indexesPrefix());
  }

  /** The page, or null when the bytes are no page this code decodes (they are kept as they are). */
  private static @Nullable Page decodeOrNull(String uri, byte[] bytes) {
    try {
      return PageCodec.decode(uri, bytes);
    } catch (CorruptPageException e) {
      return null;
    }
  }

  private @Nullable Duration queueRetention() {
    if (config.protocol() == ProtocolKind.NAIVE) {
      return null;
    }
    CloudServices s = config.services();
    Duration longest = null;
    if (s.hasSimpleQueues()) {
      longest = s.simpleQueues().limits().messageRetention();
    }
    if (s.hasAdvancedQueues()) {
      Duration a = s.advancedQueues().limits().messageRetention();
      longest = longest == null || a.compareTo(longest) > 0 ? a : longest;
    }
    return longest;
  }

  private void count(String keyId) {
    sealed.merge(keyId, 1L, Long::sum);
  }

  /** An object left sealed with {@code keyId}, which is not the one active for it. */
  private void keep(String keyId) {
    count(keyId);
    left++;
  }

  private void problem(String uri, String message) {
    problemCount++;
    if (problems.size() < options.maxProblems()) {
      problems.add(new ResealReport.Problem(uri, message));
    }
  }
}
