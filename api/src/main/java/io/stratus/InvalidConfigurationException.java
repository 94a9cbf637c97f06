package io.stratus;

/**
 * A setting is invalid: out of range, inconsistent with another setting, malformed in a
 * properties source, or not applicable to the chosen commit protocol. Thrown when the setting is
 * made or, for rules between settings, when the configuration is built; for a setting that does
 * not fit the stored database (its encryption, its commit protocol), when the database is opened;
 * and for the commit protocol also by a handle opened before a switch of the database's protocol.
 * The message names the setting.
 */
public class InvalidConfigurationException extends InvalidRequestException {
  private static final long serialVersionUID = 1L;

  public InvalidConfigurationException(String message) {
    super(message);
  }
}
