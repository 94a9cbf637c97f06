package io.stratus.cloudapi;

import java.util.List;
import java.util.Optional;

/**
 * One page of an {@link IndexService#query}, in the query's order.
 *
 * @param items at most the query's limit
 * @param nextToken present when more items may follow; pass it to {@link IndexQuery#after} to
 *     continue after the last item of this page. Absent only when no item of the range follows.
 */
public record IndexPage(List<IndexItem> items, Optional<String> nextToken) {
  public IndexPage {
    items = List.copyOf(items);
    nextToken = nextToken == null ? Optional.empty() : nextToken;
  }
}
