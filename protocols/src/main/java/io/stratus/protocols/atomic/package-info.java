/**
 * The atomic protocol (paper 000, section 5.1): its assembly ({@link
 * io.stratus.protocols.atomic.AtomicProtocol}), its commit log through a per-client ATOMIC queue
 * ({@link io.stratus.protocols.atomic.AtomicQueueLog}) and the recovery passes over ATOMIC queues
 * ({@link io.stratus.protocols.atomic.AtomicQueueSweeper}).
 */
package io.stratus.protocols.atomic;
