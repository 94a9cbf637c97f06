package io.stratus.protocols.log;

/**
 * "Lane {@code lane} of the same writer incarnation must have applied its record with counter
 * {@code counter} in this queue before this record is applied."
 *
 * <p>Why: a database handle commits on several writer lanes at once (each lane a chain of its own,
 * one commit at a time), so that concurrent request threads do not queue behind one another's
 * round trips. Monotonic writes for the handle as a whole then need the order between lanes that
 * real time gave: a commit that began after another had completed carries, on its first record per
 * queue, the last completed counter of every other lane in that queue, and a checkpoint applies it
 * only once those are applied. Commits that overlapped in time carry no order, as two concurrent
 * requests have none.
 *
 * @param lane the other lane's index
 * @param counter that lane's counter in the same queue
 */
public record LaneDependency(int lane, long counter) {
  /** Checks the values. */
  public LaneDependency {
    if (lane < 0 || counter < 1) {
      throw new IllegalArgumentException(
          "invalid lane dependency: lane " + lane + ", counter " + counter);
    }
  }
}
