/**
 * The queue-commit engine ({@link io.stratus.protocols.engine.QueueEngine}): one implementation
 * of the commit seam for every protocol that commits through pending-update queues, assembled
 * from three strategies with no-op variants — {@link io.stratus.protocols.engine.Sequencing} (none,
 * or {@link io.stratus.protocols.engine.WriterLanes}), {@link
 * io.stratus.protocols.engine.ReadYourWrites} (none, or the {@link
 * io.stratus.protocols.engine.OwnWrites} overlay) and {@link
 * io.stratus.protocols.engine.CommitLog} (the PU queues directly, {@link
 * io.stratus.protocols.engine.PuQueueLog}, or the atomic protocol's ATOMIC queue). Internal to the
 * protocols module.
 */
package io.stratus.protocols.engine;
