/**
 * Redo log records of the queue-based protocols (paper 000, section 3.5) and where they travel:
 * {@link io.stratus.protocols.log.LogRecord} and {@link io.stratus.protocols.log.Changes} (what a
 * transaction's changes amount to), their packing into queue messages ({@link
 * io.stratus.protocols.log.LogMessages}, {@link io.stratus.protocols.log.AtomicMessages}; protobuf,
 * {@code log.proto}, a CRC32C per message), writer ids ({@link
 * io.stratus.protocols.log.WriterIds}), the names of the pending-update queues ({@link
 * io.stratus.protocols.log.PuQueues}) and the batching sender ({@link
 * io.stratus.protocols.log.QueueSender}). Internal to the protocols module.
 */
package io.stratus.protocols.log;
