package io.stratus.cloudapi;

import java.time.Instant;
import java.util.Objects;

/**
 * What a successful put reports: the version (S3's ETag) of the stored content and the time the
 * store gives as its last modification.
 *
 * @param version opaque; it MUST change whenever the payload changes, and MAY stay the same when a
 *     put stores an identical payload (S3's ETag is a digest of the payload)
 * @param lastModified the store's timestamp, at the store's own granularity
 */
public record ItemVersion(String version, Instant lastModified) {
  public ItemVersion {
    Objects.requireNonNull(version, "version");
    Objects.requireNonNull(lastModified, "lastModified");
  }
}
