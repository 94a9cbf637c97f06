package io.stratus.core;

import io.stratus.pagemanager.Page;
import io.stratus.pagemanager.PageStore;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;

/**
 * A page store that only collects the pages of a tree being built from nothing (a bulk-loaded
 * index): reads see only what was written here, so the loader finds the tree absent even when a
 * crashed earlier attempt left a root in storage, which the build then replaces. The caller writes
 * {@link #pages()} to storage. Not thread-safe (one builder).
 */
final class StagingPageStore implements PageStore {
  private final int pageSize;
  private final Map<String, Page> pages = new LinkedHashMap<>();

  StagingPageStore(int pageSize) {
    this.pageSize = pageSize;
  }

  @Override
  public Optional<Page> read(String uri) {
    return Optional.ofNullable(pages.get(uri));
  }

  @Override
  public void write(Page page) {
    if (page.encodedSizeBound() > pageSize) {
      throw new IllegalArgumentException("page " + page.uri() + " exceeds the page size");
    }
    pages.put(page.uri(), page);
  }

  @Override
  public String newPageUri(String prefix) {
    return prefix + UUID.randomUUID();
  }

  @Override
  public int pageSize() {
    return pageSize;
  }

  /** The pages written, in the order of their first write. */
  List<Page> pages() {
    return new ArrayList<>(pages.values());
  }
}
