package io.stratus.cloudapi;

import java.util.List;
import java.util.Optional;

/**
 * One page of a listing by prefix, in ascending order of URI (UTF-8 byte order).
 *
 * @param items at most the requested number of items
 * @param nextToken present when more items may follow; pass it to the next {@link
 *     StorageService#list} call to continue after the last item of this page
 */
public record ListPage(List<ItemSummary> items, Optional<String> nextToken) {
  public ListPage {
    items = List.copyOf(items);
    nextToken = nextToken == null ? Optional.empty() : nextToken;
  }
}
