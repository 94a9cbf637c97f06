package io.stratus.cloudapi;

import java.time.Instant;
import java.util.Arrays;
import java.util.Map;
import java.util.Objects;

/**
 * An item read from storage: payload, user metadata, version and last-modified time.
 *
 * <p>Immutable: the payload is copied on the way in and on the way out ({@link #payload()}), so no
 * caller can change what another caller sees. Use {@link #size()} to avoid a copy when only the
 * length is needed.
 */
public final class StoredItem {
  private final String uri;
  private final byte[] payload;
  private final Map<String, String> metadata;
  private final String version;
  private final Instant lastModified;

  public StoredItem(
      String uri,
      byte[] payload,
      Map<String, String> metadata,
      String version,
      Instant lastModified) {
    this.uri = Objects.requireNonNull(uri, "uri");
    this.payload = payload.clone();
    this.metadata = Map.copyOf(metadata);
    this.version = Objects.requireNonNull(version, "version");
    this.lastModified = Objects.requireNonNull(lastModified, "lastModified");
  }

  public String uri() {
    return uri;
  }

  /** A fresh copy of the payload. */
  public byte[] payload() {
    return payload.clone();
  }

  public long size() {
    return payload.length;
  }

  public Map<String, String> metadata() {
    return metadata;
  }

  public String version() {
    return version;
  }

  public Instant lastModified() {
    return lastModified;
  }

  /** The item's description without the payload. */
  public ItemMetadata describe() {
    return new ItemMetadata(uri, metadata, version, lastModified, payload.length);
  }

  @Override
  public boolean equals(Object o) {
    if (this == o) {
      return true;
    }
    if (!(o instanceof StoredItem)) {
      return false;
    }
    StoredItem other = (StoredItem) o;
    return uri.equals(other.uri)
        && Arrays.equals(payload, other.payload)
        && metadata.equals(other.metadata)
        && version.equals(other.version)
        && lastModified.equals(other.lastModified);
  }

  @Override
  public int hashCode() {
    return Objects.hash(uri, version, lastModified) * 31 + Arrays.hashCode(payload);
  }

  @Override
  public String toString() {
    return "StoredItem{"
        + uri
        + ", "
        + payload.length
        + " bytes, version="
        + version
        + ", lastModified="
        + lastModified
        + '}';
  }
}
