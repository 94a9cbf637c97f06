package io.stratus.pagemanager;

import java.util.Objects;
import java.util.Optional;

/**
 * A page store that changes what reads return and passes everything else to the store beneath
 * (writes, new page URIs, the page size): the shape of every view a commit protocol lays over a
 * transaction's pages (its own pending writes, a snapshot, the latest commits of locked keys).
 * Subclasses implement {@link #read}, reading through {@link #beneath}.
 */
public abstract class ReadInterposer implements PageStore {
  /** The store the view is laid over. */
  protected final PageStore beneath;

  protected ReadInterposer(PageStore beneath) {
    this.beneath = Objects.requireNonNull(beneath, "beneath");
  }

  @Override
  public abstract Optional<Page> read(String uri);

  @Override
  public final void write(Page page) {
    beneath.write(page);
  }

  @Override
  public final String newPageUri(String prefix) {
    return beneath.newPageUri(prefix);
  }

  @Override
  public final int pageSize() {
    return beneath.pageSize();
  }

  @Override
  public final boolean readsMayLag() {
    return beneath.readsMayLag();
  }
}
