package io.stratus.protocols.checkpoint;

import io.stratus.CorruptPageException;
import io.stratus.btree.PieceState;
import io.stratus.pagemanager.Page;
import java.util.Optional;

/**
 * When a page was last checkpointed, as the queue protocols keep it in the page's opaque protocol
 * state beside the chains ({@link ChainState}, {@code chain_state.proto}): what the checkpoint
 * strategy of paper 000 section 4.5 compares with the checkpoint interval ({@link
 * CheckpointScheduler}). Epoch milliseconds of the checkpointing client's clock; 0 = never.
 *
 * <p>A split's new pages keep the page's time ({@link #PIECES}): their queues are new, and they
 * hold what the page held when it was last checkpointed. The tree's time stays on the root.
 *
 * @param pageMillis when the page's data-page queue was last checkpointed
 * @param treeMillis on a tree's root only, when the tree's queue (its inserts and deletes) was
 *     last checkpointed; 0 on other pages
 */
public record CheckpointTimes(long pageMillis, long treeMillis) {
  /** Never checkpointed. */
  public static final CheckpointTimes NEVER = new CheckpointTimes(0, 0);

  /**
   * Bytes the times take in the stored state at most: two fields, each a tag and a varint of up to
   * ten bytes.
   */
  static final int MAX_BYTES = 2 * 11;

  /**
   * What the new pages of a split get of a queue-protocol page's state: its last checkpoint time,
   * and neither chains (keyed by the split page's URI) nor the tree's time (the root's).
   */
  public static final PieceState PIECES =
      state -> {
        ChainState.Stored stored = ChainState.DECODER.apply(state);
        return ChainState.EMPTY.encode(new CheckpointTimes(stored.times().pageMillis(), 0));
      };

  /**
   * The times of {@code page} (never, when its protocol state holds none).
   *
   * @throws CorruptPageException when the protocol state is not the queue protocols'
   */
  public static CheckpointTimes of(Page page) {
    return ChainState.stored(page).times();
  }

  /**
   * The times of {@code page} when its protocol state is the queue protocols'; empty for a page
   * of another protocol (a snapshot isolation page) or with damaged state. For tools that show
   * pages of any protocol.
   */
  public static Optional<CheckpointTimes> ofAnyProtocol(Page page) {
    try {
      return Optional.of(of(page));
    } catch (CorruptPageException e) {
      return Optional.empty();
    }
  }

  /**
   * The times of {@code page}, or never when its state is damaged: a reader deciding whether to
   * start a checkpoint must not fail on it (the checkpoint reports the damage).
   */
  static CheckpointTimes orNever(Page page) {
    try {
      return of(page);
    } catch (CorruptPageException e) {
      return NEVER;
    }
  }

  /** These times with the page's set to {@code millis}. */
  public CheckpointTimes withPage(long millis) {
    return new CheckpointTimes(millis, treeMillis);
  }

  /** These times with the tree's set to {@code millis}. */
  public CheckpointTimes withTree(long millis) {
    return new CheckpointTimes(pageMillis, millis);
  }

  /** {@code page} with these times, keeping its chains as stored. */
  public Page writeTo(Page page) {
    return page.toBuilder().protocolState(ChainState.stored(page).chains().encode(this)).build();
  }
}
