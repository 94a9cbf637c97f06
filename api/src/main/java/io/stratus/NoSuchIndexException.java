package io.stratus;

/** The collection has no secondary index of that name in the catalog; create it first. */
public class NoSuchIndexException extends InvalidRequestException {
  private static final long serialVersionUID = 1L;

  public NoSuchIndexException(String collection, String index) {
    super("collection \"" + collection + "\" has no index named \"" + index + "\"");
  }
}
