package io.stratus;

/**
 * A record codec ({@code io.stratus.core.Codec}) could not encode a value or decode a payload:
 * the value is not representable, or the stored bytes are not what the codec expects (written by
 * another codec or another version of the type). Not retryable: the same value or payload fails
 * again.
 */
public class CodecException extends StratusException {
  private static final long serialVersionUID = 1L;

  public CodecException(String message, Throwable cause) {
    super(message, cause);
  }
}
