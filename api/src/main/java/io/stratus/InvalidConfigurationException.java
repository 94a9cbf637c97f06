package io.stratus;

/**
 * A setting is invalid: out of range, inconsistent with another setting, malformed in a
 * properties source, or not applicable to the chosen commit protocol. Thrown when the setting is
 * made or, for rules between settings, when the configuration is built, or — for a setting
 * that does not fit the stored database, such as its encryption — when the database is opened;
 * never later by a running database. The message names the setting.
 */
public class InvalidConfigurationException extends InvalidRequestException {
  private static final long serialVersionUID = 1L;

  public InvalidConfigurationException(String message) {
    super(message);
  }
}
