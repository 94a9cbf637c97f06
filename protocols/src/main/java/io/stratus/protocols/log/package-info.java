/**
 * Redo log records of the queue-based protocols (paper 000, section 3.5) and their packing into
 * queue messages: {@link io.stratus.protocols.log.LogRecord}, {@link
 * io.stratus.protocols.log.LogMessages}. The wire format is protobuf ({@code log.proto}), with a
 * CRC32C per message.
 */
package io.stratus.protocols.log;
