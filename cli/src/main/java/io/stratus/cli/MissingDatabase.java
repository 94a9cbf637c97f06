package io.stratus.cli;

import io.stratus.cloudapi.CloudException;
import io.stratus.cloudapi.CloudFutures;
import io.stratus.cloudapi.ItemSummary;
import io.stratus.cloudapi.StorageService;
import io.stratus.protocols.StorageLayout;
import java.util.Optional;
import java.util.TreeSet;

/**
 * The message for a database URI under which storage holds no catalog and no tree: usually a
 * misspelt {@code --db} or {@code --key-prefix}. Names the databases whose catalogs the first page
 * of a listing of the storage shows (one list call: a bucket of many pages may hide some).
 */
final class MissingDatabase {
  /** Items of the one listing read for other databases' catalogs. */
  static final int LISTED_ITEMS = 1000;

  private static final String CATALOG_SUFFIX = new StorageLayout("x").catalog().substring(1);

  private MissingDatabase() {}

  /** Whether storage holds nothing at all under {@code database} (one list call of one item). */
  static boolean holdsNothing(StorageService storage, String database) {
    return CloudFutures.await(storage.list(database + "/", Optional.empty(), 1)).items().isEmpty();
  }

  /** Says that {@code database} was not found, and which ones were. */
  static String message(StorageService storage, String database) {
    String found;
    try {
      TreeSet<String> names = new TreeSet<>();
      for (ItemSummary s :
          CloudFutures.await(storage.list("", Optional.empty(), LISTED_ITEMS)).items()) {
        if (s.uri().endsWith(CATALOG_SUFFIX)) {
          names.add(s.uri().substring(0, s.uri().length() - CATALOG_SUFFIX.length()));
        }
      }
      found =
          names.isEmpty()
              ? "no database catalog in the first " + LISTED_ITEMS + " stored items"
              : "databases found: " + String.join(", ", names);
    } catch (CloudException e) {
      found = "the storage could not be listed for others (" + e.getMessage() + ")";
    }
    return "database "
        + database
        + " not found: storage holds no catalog ("
        + new StorageLayout(database).catalog()
        + ") and no tree under it; check --db and --key-prefix ("
        + found
        + ")";
  }
}
