package io.stratus.cloudapi;

import java.time.Instant;
import java.util.Map;
import java.util.Objects;

/**
 * An item's description without its payload: what {@link StorageService#getMetadata} returns.
 *
 * @param uri the item's URI
 * @param metadata the user metadata given at the last put (unmodifiable)
 * @param version see {@link ItemVersion#version()}
 * @param lastModified see {@link ItemVersion#lastModified()}
 * @param size the payload's length in bytes
 */
public record ItemMetadata(
    String uri, Map<String, String> metadata, String version, Instant lastModified, long size) {
  public ItemMetadata {
    Objects.requireNonNull(uri, "uri");
    metadata = Map.copyOf(metadata);
    Objects.requireNonNull(version, "version");
    Objects.requireNonNull(lastModified, "lastModified");
  }
}
