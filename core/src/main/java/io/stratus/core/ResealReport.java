package io.stratus.core;

import java.time.Duration;
import java.time.Instant;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.SortedMap;
import java.util.SortedSet;
import java.util.TreeMap;
import java.util.TreeSet;
import org.jspecify.annotations.Nullable;

/**
 * What one {@link DatabaseAdmin#reseal} found and did: how many stored objects each key sealed when
 * they were read, which keys they use afterwards, what was rewritten, and how long queue messages
 * sealed with an old key may still be around. Immutable.
 *
 * <p>Objects are the catalog, the pages of every tree (reachable or not) and the dead letters.
 * Queue messages are not rewritten: they are consumed and deleted by checkpoints, re-sealed with
 * the active key where a client sends them again (propagation, a dead-letter replay), and gone at
 * the latest after the queues' retention ({@link #queueMessagesGoneBy()}).
 */
public final class ResealReport {

  /**
   * An object the run could not move to its active key.
   *
   * @param uri the object
   * @param message why, and what to do; names key ids, never key material
   */
  public record Problem(String uri, String message) {
    /** Checks the parts. */
    public Problem {
      Objects.requireNonNull(uri, "uri");
      Objects.requireNonNull(message, "message");
    }

    @Override
    public String toString() {
      return uri + ": " + message;
    }
  }

  private final String databaseUri;
  private final boolean dryRun;
  private final Instant startedAt;
  private final Duration took;
  private final long objects;
  private final SortedMap<String, Long> found;
  private final SortedMap<String, Long> sealed;
  private final long stale;
  private final long left;
  private final long rewritten;
  private final long conflicts;
  private final long vanished;
  private final List<Problem> problems;
  private final long problemCount;
  private final SortedSet<String> unusedKeyIds;
  private final @Nullable Duration queueRetention; // null: the protocol sends no messages

  ResealReport(
      String databaseUri,
      boolean dryRun,
      Instant startedAt,
      Duration took,
      long objects,
      Map<String, Long> found,
      Map<String, Long> sealed,
      long stale,
      long left,
      long rewritten,
      long conflicts,
      long vanished,
      List<Problem> problems,
      long problemCount,
      Set<String> keyringIds,
      @Nullable Duration queueRetention) {
    this.databaseUri = Objects.requireNonNull(databaseUri, "databaseUri");
    this.dryRun = dryRun;
    this.startedAt = Objects.requireNonNull(startedAt, "startedAt");
    this.took = Objects.requireNonNull(took, "took");
    this.objects = objects;
    this.found = Collections.unmodifiableSortedMap(new TreeMap<>(found));
    this.sealed = Collections.unmodifiableSortedMap(new TreeMap<>(sealed));
    this.stale = stale;
    this.left = left;
    this.rewritten = rewritten;
    this.conflicts = conflicts;
    this.vanished = vanished;
    this.problems = List.copyOf(problems);
    this.problemCount = problemCount;
    TreeSet<String> unused = new TreeSet<>(keyringIds);
    unused.removeAll(sealed.keySet());
    this.unusedKeyIds = Collections.unmodifiableSortedSet(unused);
    this.queueRetention = queueRetention;
  }

  /** The database re-sealed. */
  public String databaseUri() {
    return databaseUri;
  }

  /** Whether this was a dry run: nothing was written. */
  public boolean dryRun() {
    return dryRun;
  }

  /** When the run started (the database's clock). */
  public Instant startedAt() {
    return startedAt;
  }

  /** How long the run took. */
  public Duration took() {
    return took;
  }

  /** Stored objects looked at (those deleted before they could be read included). */
  public long objects() {
    return objects;
  }

  /** Per key id, the objects sealed with it when they were first read; in key-id order. */
  public SortedMap<String, Long> foundByKeyId() {
    return found;
  }

  /**
   * Per key id, the objects sealed with it when the run left them: the active key for those
   * rewritten; after a dry run, as found. A key id missing here is needed by no stored object.
   */
  public SortedMap<String, Long> sealedByKeyId() {
    return sealed;
  }

  /** Objects found sealed with another key than the one active for them now. */
  public long stale() {
    return stale;
  }

  /** Objects put back sealed with their active key (0 in a dry run). */
  public long rewritten() {
    return rewritten;
  }

  /**
   * Conditional puts that lost a race with another writer and were retried after a fresh read
   * (which usually found the object already sealed with the active key).
   */
  public long conflicts() {
    return conflicts;
  }

  /** Objects listed but gone when read (a dead letter replayed or discarded meanwhile). */
  public long vanished() {
    return vanished;
  }

  /** The problems listed: objects left as they were, with why. */
  public List<Problem> problems() {
    return problems;
  }

  /** How many problems there were, listed or not. */
  public long problemCount() {
    return problemCount;
  }

  /**
   * Objects still sealed with another key than their active one: after a dry run those a run
   * would rewrite, after a run those it could not (see {@link #problems()}).
   */
  public long remaining() {
    return left;
  }

  /**
   * Whether every stored object is sealed with the key active for it and nothing went wrong: an
   * old key absent from {@link #sealedByKeyId()} may be retired once the queue messages are gone.
   */
  public boolean isComplete() {
    return remaining() == 0 && problemCount == 0;
  }

  /**
   * The keys of this handle's keyring that no stored object was sealed with when the run left
   * it, in id order; meaningful when {@link #isComplete()}.
   */
  public SortedSet<String> unusedKeyIds() {
    return unusedKeyIds;
  }

  /**
   * The longest retention of the queues the database's protocol sends to; empty when it sends no
   * messages (the naive protocol).
   */
  public Optional<Duration> queueRetention() {
    return Optional.ofNullable(queueRetention);
  }

  /**
   * When the last queue message sealed with a key that was no longer active at {@link
   * #startedAt()} is gone at the latest: the start plus the queues' retention, provided every
   * client had the current keyring by then. Checkpoints delete applied messages much sooner.
   * Empty when the protocol sends no messages.
   */
  public Optional<Instant> queueMessagesGoneBy() {
    return queueRetention().map(startedAt::plus);
  }

  @Override
  public String toString() {
    return "ResealReport{"
        + databaseUri
        + (dryRun ? ", dry run" : "")
        + ", "
        + objects
        + " objects, found "
        + found
        + ", now "
        + sealed
        + ", "
        + stale
        + " stale, "
        + rewritten
        + " rewritten, "
        + conflicts
        + " conflicts, "
        + problemCount
        + " problems}";
  }
}
