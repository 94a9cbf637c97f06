package io.stratus.pagemanager;

import java.util.Objects;

/**
 * A committed page as the buffer pool holds it, with the storage version (S3's ETag) it was read
 * or written as: what a conditional put ({@code putIfVersionMatches}) needs to write the page back
 * only if nobody else has.
 */
public record CachedPage(Page page, String version) {
  public CachedPage {
    Objects.requireNonNull(page, "page");
    Objects.requireNonNull(version, "version");
  }
}
