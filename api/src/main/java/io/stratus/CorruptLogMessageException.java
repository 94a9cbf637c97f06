package io.stratus;

/**
 * A queue message failed its integrity check (format, checksum, structure) and none of its log
 * records was applied. A checkpoint leaves such a message in its queue and reports it: it needs an
 * operator, because applying part of it, or dropping it, could lose committed changes.
 */
public class CorruptLogMessageException extends StratusException {
  private static final long serialVersionUID = 1L;

  public CorruptLogMessageException(String problem) {
    super("corrupt log message: " + problem);
  }

  public CorruptLogMessageException(String problem, Throwable cause) {
    super("corrupt log message: " + problem, cause);
  }
}
