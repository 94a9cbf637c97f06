package io.stratus.cli;

/**
 * A command line that parses but does not say enough to run (a real cloud without a bucket): the
 * command exits with {@link StratusCli#EXIT_USAGE} and points at its help, like a flag that does
 * not parse.
 */
final class UsageException extends IllegalArgumentException {
  private static final long serialVersionUID = 1L;

  UsageException(String message) {
    super(message);
  }
}
