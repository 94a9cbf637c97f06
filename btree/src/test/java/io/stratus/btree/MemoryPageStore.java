package io.stratus.btree;

import io.stratus.pagemanager.Page;
import io.stratus.pagemanager.PageStore;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The test double for a unit of work: pages in a map, a log of every write in order, a small
 * configurable page size to force splits on every level.
 */
final class MemoryPageStore implements PageStore {
  final Map<String, Page> pages;
  final List<Page> writeLog = new ArrayList<>();
  private final int pageSize;
  private long nextId;
  int reads;
  boolean readsMayLag;

  MemoryPageStore(int pageSize) {
    this(pageSize, new HashMap<>());
  }

  private MemoryPageStore(int pageSize, Map<String, Page> pages) {
    this.pageSize = pageSize;
    this.pages = pages;
  }

  /** An independent copy of the current pages (the write log starts empty). */
  MemoryPageStore copy() {
    MemoryPageStore c = new MemoryPageStore(pageSize, new HashMap<>(pages));
    c.nextId = nextId;
    return c;
  }

  int writes() {
    return writeLog.size();
  }

  @Override
  public Optional<Page> read(String uri) {
    reads++;
    return Optional.ofNullable(pages.get(uri));
  }

  @Override
  public void write(Page page) {
    pages.put(page.uri(), page);
    writeLog.add(page);
  }

  @Override
  public String newPageUri(String prefix) {
    return prefix + "p" + (nextId++);
  }

  @Override
  public int pageSize() {
    return pageSize;
  }

  @Override
  public boolean readsMayLag() {
    return readsMayLag;
  }
}
