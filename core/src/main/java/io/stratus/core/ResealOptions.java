package io.stratus.core;

import io.stratus.InvalidConfigurationException;

/**
 * How {@link DatabaseAdmin#reseal} works. Immutable; the builder checks each setting as it is
 * given. Defaults:
 *
 * <ul>
 *   <li>not a dry run: objects sealed with another key than the one active for them are rewritten;
 *   <li>not quiescent: on storage without conditional puts the re-seal is refused, since a plain
 *       put could overwrite a concurrent writer's page with the content read before it;
 *   <li>{@link #DEFAULT_MAX_ATTEMPTS} reads and conditional puts per object before it is left
 *       for a later run;
 *   <li>{@link #DEFAULT_MAX_PROBLEMS} problems listed, the rest counted.
 * </ul>
 */
public final class ResealOptions {
  /** Default attempts per object: a conditional put that loses a race is retried after a read. */
  public static final int DEFAULT_MAX_ATTEMPTS = 8;

  /** Default number of problems listed in the report. */
  public static final int DEFAULT_MAX_PROBLEMS = 100;

  private static final ResealOptions DEFAULTS = builder().build();

  private final boolean dryRun;
  private final boolean quiescent;
  private final int maxAttempts;
  private final int maxProblems;

  private ResealOptions(Builder b) {
    this.dryRun = b.dryRun;
    this.quiescent = b.quiescent;
    this.maxAttempts = b.maxAttempts;
    this.maxProblems = b.maxProblems;
  }

  /** Every default: rewrite, refuse storage without conditional puts. */
  public static ResealOptions defaults() {
    return DEFAULTS;
  }

  /** Only count: read every object's key id, write nothing. */
  public static ResealOptions dryRunOnly() {
    return builder().dryRun(true).build();
  }

  public static Builder builder() {
    return new Builder();
  }

  /** Whether nothing is written: the report says what a run would rewrite. */
  public boolean dryRun() {
    return dryRun;
  }

  /**
   * Whether the operator has declared that no client writes the database during the run, which
   * allows plain puts on storage without conditional puts.
   */
  public boolean quiescent() {
    return quiescent;
  }

  /** Reads and puts per object before it is reported as busy and left for a later run. */
  public int maxAttempts() {
    return maxAttempts;
  }

  /** Problems listed in the report; more are counted only. */
  public int maxProblems() {
    return maxProblems;
  }

  @Override
  public String toString() {
    return "ResealOptions{dryRun="
        + dryRun
        + ", quiescent="
        + quiescent
        + ", maxAttempts="
        + maxAttempts
        + ", maxProblems="
        + maxProblems
        + '}';
  }

  /** Collects the options. Not thread-safe. */
  public static final class Builder {
    private boolean dryRun;
    private boolean quiescent;
    private int maxAttempts = DEFAULT_MAX_ATTEMPTS;
    private int maxProblems = DEFAULT_MAX_PROBLEMS;

    private Builder() {}

    /** Only count, write nothing (allowed on any storage). */
    public Builder dryRun(boolean dryRun) {
      this.dryRun = dryRun;
      return this;
    }

    /**
     * Declares that no client writes the database while the re-seal runs: needed, and only then
     * safe, on storage without conditional puts. With conditional puts it changes nothing.
     */
    public Builder quiescent(boolean quiescent) {
      this.quiescent = quiescent;
      return this;
    }

    /** At least 1. */
    public Builder maxAttempts(int attempts) {
      if (attempts < 1) {
        throw new InvalidConfigurationException(
            "a re-seal needs at least one attempt per object, not " + attempts);
      }
      this.maxAttempts = attempts;
      return this;
    }

    /** At least 1. */
    public Builder maxProblems(int max) {
      if (max < 1) {
        throw new InvalidConfigurationException("at least one problem must be listed, not " + max);
      }
      this.maxProblems = max;
      return this;
    }

    public ResealOptions build() {
      return new ResealOptions(this);
    }
  }
}
