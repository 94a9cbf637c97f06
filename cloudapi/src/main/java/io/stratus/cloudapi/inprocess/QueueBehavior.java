package io.stratus.cloudapi.inprocess;

/**
 * How faithfully the in-process simple queues behave. The default ({@link #reliable()}) delivers in
 * order of sending, fills every receive as far as messages are visible, and delivers each message
 * once per visibility period. The weak knobs reproduce what SQS is allowed to do and what the
 * protocols must survive (paper 000, section 2.3.3):
 *
 * @param reorder receives return visible messages in a random order instead of sending order
 * @param shortReceiveProbability the chance that a receive returns fewer messages than it could
 *     (a random number from 0 up to what it could), even none
 * @param duplicateProbability the chance that a delivered message is delivered once more later,
 *     even if it is deleted in between (SQS's at-least-once delivery)
 */
public record QueueBehavior(
    boolean reorder, double shortReceiveProbability, double duplicateProbability) {
  private static final QueueBehavior RELIABLE = new QueueBehavior(false, 0, 0);

  public QueueBehavior {
    checkProbability("shortReceiveProbability", shortReceiveProbability);
    checkProbability("duplicateProbability", duplicateProbability);
  }

  /** In order, complete receives, no duplicates (the default). */
  public static QueueBehavior reliable() {
    return RELIABLE;
  }

  /** Everything SQS may do at once: reordering, short receives (30%), duplicates (10%). */
  public static QueueBehavior weak() {
    return new QueueBehavior(true, 0.3, 0.1);
  }

  public boolean isReliable() {
    return !reorder && shortReceiveProbability == 0 && duplicateProbability == 0;
  }

  private static void checkProbability(String name, double p) {
    if (!(p >= 0 && p <= 1)) {
      throw new IllegalArgumentException(name + " must be in [0, 1], got " + p);
    }
  }
}
