package io.stratus.cloudapi;

import java.time.Instant;
import java.util.Objects;

/** One entry of a {@link ListPage}: an item's URI, size, version and last-modified time. */
public record ItemSummary(String uri, long size, String version, Instant lastModified) {
  public ItemSummary {
    Objects.requireNonNull(uri, "uri");
    Objects.requireNonNull(version, "version");
    Objects.requireNonNull(lastModified, "lastModified");
  }
}
