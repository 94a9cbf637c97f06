package io.stratus.cloudapi;

/**
 * The call names a container that does not exist (a queue that was never created or was deleted,
 * an unknown machine). Absent <em>items</em> in storage are not errors: reads return an empty
 * {@link java.util.Optional} instead.
 */
public class NotFoundException extends CloudException {
  private static final long serialVersionUID = 1L;

  public NotFoundException(String message) {
    super(message);
  }
}
