package io.stratus;

/**
 * A create named a key that already exists in the collection as the transaction sees it (its own
 * writes, else the committed pages in the client's buffer pool). Nothing was changed. Under the
 * weak protocols a concurrent client may create the same key unseen; keys that must be unique
 * across clients should be generated uniquely (e.g. UUIDs, paper 000 section 3.2).
 */
public class DuplicateKeyException extends InvalidRequestException {
  private static final long serialVersionUID = 1L;

  public DuplicateKeyException(String collection, String keyHex) {
    super("collection \"" + collection + "\" already has a record with key " + keyHex);
  }
}
