package io.stratus;

/**
 * A write to a collection that has a secondary index whose key extractor this process has not
 * attached. Index extractors are code and are not stored in the catalog, so every process that
 * writes the collection must attach them (in its database configuration or with {@code
 * Database.attachIndex}); the write is refused rather than leaving the index silently stale.
 * Nothing was changed. Reads and index probes do not need the extractor.
 */
public class IndexNotAttachedException extends InvalidRequestException {
  private static final long serialVersionUID = 1L;

  public IndexNotAttachedException(String collection, String index) {
    super(
        "collection \""
            + collection
            + "\" has index \""
            + index
            + "\" but no key extractor is attached for it in this process; attach it with "
            + "DatabaseConfig.indexExtractor or Database.attachIndex before writing");
  }
}
