package io.stratus.protocols.log;

import io.stratus.CorruptLogMessageException;
import io.stratus.cloudapi.AdvancedMessage;
import io.stratus.cloudapi.QueueMessage;
import io.stratus.cloudapi.UnreadablePayloadException;

/**
 * The payload of a received queue message for the log decoders. A message the services could not
 * open (client-side encryption: it failed authentication, or its key is unknown) is reported as
 * {@link CorruptLogMessageException}, so every consumer counts, warns about and leaves it exactly
 * like a message whose own checksum failed. Stateless.
 */
public final class LogPayloads {
  private LogPayloads() {}

  /** {@code m}'s payload; {@link CorruptLogMessageException} when it could not be opened. */
  public static byte[] of(QueueMessage m) {
    try {
      return m.payload();
    } catch (UnreadablePayloadException e) {
      throw new CorruptLogMessageException(
          "unreadable payload at " + e.uri() + ": " + e.problem(), e);
    }
  }

  /** {@code m}'s payload; {@link CorruptLogMessageException} when it could not be opened. */
  public static byte[] of(AdvancedMessage m) {
    try {
      return m.payload();
    } catch (UnreadablePayloadException e) {
      throw new CorruptLogMessageException(
          "unreadable payload at " + e.uri() + ": " + e.problem(), e);
    }
  }
}
