package io.stratus.zookeeper;

import java.time.Duration;
import java.time.Instant;

/**
 * The restart state of the lock or the counter service, kept in its {@code .../state} znode.
 *
 * <p>{@code generation} counts the service's restarts: for the counter service it is the epoch of
 * its values (paper 000, section 6.6); for the lock service it tells locks granted before the last
 * restart (lost by it) from later ones. {@code refuseUntil} ends the refusal period after the last
 * restart. Why in ZooKeeper: every client must refuse, not just the one that saw the restart, and
 * a client that connects later must refuse too.
 *
 * <p>Why every write of the service checks this node's version in the same multi-op: a request
 * that read the state before a restart and writes after it would otherwise grant a lock or issue a
 * value in the lost generation; with the check it fails and retries, and then sees the refusal.
 * So no request straddles a restart, as the in-process services' read-write lock ensures.
 *
 * <p>Immutable.
 */
record ServiceState(long generation, Instant refuseUntil) {
  static final ServiceState INITIAL = new ServiceState(0, Instant.MIN);

  /**
   * Whether the service has kept its state since it began: never restarted, and not a namespace
   * found dropped (which starts refusing at once).
   */
  boolean neverLost() {
    return generation == INITIAL.generation && refuseUntil.equals(INITIAL.refuseUntil);
  }

  /** Whether requests are refused at {@code now}. */
  boolean refusing(Instant now) {
    return now.isBefore(refuseUntil);
  }

  /** What is left of the refusal period at {@code now}. */
  Duration remaining(Instant now) {
    return Duration.between(now, refuseUntil);
  }

  byte[] encode() {
    return new Codec.Writer().writeLong(generation).writeInstant(refuseUntil).toBytes();
  }

  static ServiceState decode(byte[] data) {
    Codec.Reader r = new Codec.Reader(data, "service state");
    return new ServiceState(r.readLong(), r.readInstant());
  }
}
