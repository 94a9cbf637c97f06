package io.stratus.core;

import io.stratus.InvalidConfigurationException;

/**
 * How {@link DatabaseAdmin#verify} judges what it finds. Immutable; the builder checks each setting
 * as it is given. Defaults:
 *
 * <ul>
 *   <li>{@link #DEFAULT_BACKLOG_FACTOR}: a queue whose oldest message is older than the checkpoint
 *       interval times this factor is reported as a backlog (checkpoints do not keep up, or no
 *       client runs them);
 *   <li>{@link #DEFAULT_MAX_FINDINGS_PER_KIND} findings of one kind are listed, the rest counted
 *       (a damaged tree can produce one finding per page);
 *   <li>{@link #DEFAULT_PEEK_PER_QUEUE} messages peeked per queue and kept in the report.
 * </ul>
 */
public final class VerifyOptions {
  /** Default factor on the checkpoint interval beyond which a queue's oldest message is late. */
  public static final int DEFAULT_BACKLOG_FACTOR = 10;

  /** Default number of findings listed per kind. */
  public static final int DEFAULT_MAX_FINDINGS_PER_KIND = 100;

  /** Default number of messages peeked per queue. */
  public static final int DEFAULT_PEEK_PER_QUEUE = 0;

  /** Most messages peeked per queue: one inspection's worth. */
  public static final int MAX_PEEK_PER_QUEUE = 10;

  private static final VerifyOptions DEFAULTS = builder().build();

  private final int backlogFactor;
  private final int maxFindingsPerKind;
  private final int peekPerQueue;

  private VerifyOptions(Builder b) {
    this.backlogFactor = b.backlogFactor;
    this.maxFindingsPerKind = b.maxFindingsPerKind;
    this.peekPerQueue = b.peekPerQueue;
  }

  /** Every default. */
  public static VerifyOptions defaults() {
    return DEFAULTS;
  }

  public static Builder builder() {
    return new Builder();
  }

  /** The factor on the checkpoint interval beyond which a queue's oldest message is late. */
  public int backlogFactor() {
    return backlogFactor;
  }

  /** Findings listed per kind; more are counted in {@link VerificationReport#suppressed()}. */
  public int maxFindingsPerKind() {
    return maxFindingsPerKind;
  }

  /** Messages peeked per queue and kept in the report. */
  public int peekPerQueue() {
    return peekPerQueue;
  }

  /** Collects the options. */
  public static final class Builder {
    private int backlogFactor = DEFAULT_BACKLOG_FACTOR;
    private int maxFindingsPerKind = DEFAULT_MAX_FINDINGS_PER_KIND;
    private int peekPerQueue = DEFAULT_PEEK_PER_QUEUE;

    private Builder() {}

    /** At least 1. */
    public Builder backlogFactor(int factor) {
      if (factor < 1) {
        throw new InvalidConfigurationException(
            "the backlog factor must be at least 1, not " + factor);
      }
      this.backlogFactor = factor;
      return this;
    }

    /** At least 1. */
    public Builder maxFindingsPerKind(int max) {
      if (max < 1) {
        throw new InvalidConfigurationException(
            "at least one finding per kind must be listed," + " not " + max);
      }
      this.maxFindingsPerKind = max;
      return this;
    }

    /** 0 to {@link #MAX_PEEK_PER_QUEUE}. */
    public Builder peekPerQueue(int messages) {
      if (messages < 0 || messages > MAX_PEEK_PER_QUEUE) {
        throw new InvalidConfigurationException(
            "messages peeked per queue must be 0 to " + MAX_PEEK_PER_QUEUE + ", not " + messages);
      }
      this.peekPerQueue = messages;
      return this;
    }

    public VerifyOptions build() {
      return new VerifyOptions(this);
    }
  }
}
