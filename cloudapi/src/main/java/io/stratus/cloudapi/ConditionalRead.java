package io.stratus.cloudapi;

import java.util.Objects;
import java.util.Optional;
import org.jspecify.annotations.Nullable;

/**
 * The answer to a conditional get ({@link StorageService#getIfChanged} and {@link
 * StorageService#getIfModifiedSince}): the item has changed (and here it is), it has not changed
 * (HTTP 304, not an error), or it does not exist.
 */
public final class ConditionalRead {
  /** What a conditional get found. */
  public enum Status {
    /** The item differs from what the caller has; {@link #item()} holds it. */
    MODIFIED,
    /** The item is as the caller has it; nothing was transferred. */
    NOT_MODIFIED,
    /** There is no item at the URI. */
    ABSENT
  }

  private static final ConditionalRead NOT_MODIFIED =
      new ConditionalRead(Status.NOT_MODIFIED, null);
  private static final ConditionalRead ABSENT = new ConditionalRead(Status.ABSENT, null);

  private final Status status;
  private final @Nullable StoredItem item;

  private ConditionalRead(Status status, @Nullable StoredItem item) {
    this.status = status;
    this.item = item;
  }

  public static ConditionalRead modified(StoredItem item) {
    return new ConditionalRead(Status.MODIFIED, Objects.requireNonNull(item, "item"));
  }

  public static ConditionalRead notModified() {
    return NOT_MODIFIED;
  }

  public static ConditionalRead absent() {
    return ABSENT;
  }

  public Status status() {
    return status;
  }

  /** The new item when {@link #status()} is {@link Status#MODIFIED}, otherwise empty. */
  public Optional<StoredItem> item() {
    return Optional.ofNullable(item);
  }

  @Override
  public String toString() {
    return item == null ? status.toString() : status + "(" + item + ")";
  }
}
