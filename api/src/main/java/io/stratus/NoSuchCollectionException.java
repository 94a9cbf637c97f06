package io.stratus;

/** The named collection is not in the database's catalog; create it first. */
public class NoSuchCollectionException extends InvalidRequestException {
  private static final long serialVersionUID = 1L;
  private final String collection;

  public NoSuchCollectionException(String collection) {
    super("no collection named \"" + collection + "\"");
    this.collection = collection;
  }

  public String collection() {
    return collection;
  }
}
