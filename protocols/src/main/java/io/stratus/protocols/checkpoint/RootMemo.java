package io.stratus.protocols.checkpoint;

import io.stratus.pagemanager.Page;
import io.stratus.protocols.log.PuQueues.Target;
import java.util.Optional;
import java.util.function.Function;
import org.jspecify.annotations.Nullable;

/**
 * The tree whose root a page is, remembered for the last root asked about: every descent starts
 * at a root, a hot tree's root is the same page object from one read to the next, and pages are
 * immutable, so a page's answer never changes. Only roots are remembered: a point read asks about
 * the root and then a leaf, and remembering the leaf would push the root out before the next
 * descent asks again. Thread-safe (a reader may replace what another just remembered; each answer
 * is still right).
 */
final class RootMemo {
  private final Function<Page, Optional<Target>> lookup;

  /** The last root looked up, shared by the handle's reader threads. */
  private volatile @Nullable Remembered last;

  /** A root page and its tree. */
  private record Remembered(Page page, Optional<Target> tree) {}

  /**
   * @param lookup the tree whose root a page is, or empty when it is no tree root
   */
  RootMemo(Function<Page, Optional<Target>> lookup) {
    this.lookup = lookup;
  }

  /** The tree whose root {@code page} is, or empty when it is no tree root. */
  Optional<Target> treeOf(Page page) {
    Remembered r = last;
    if (r != null && r.page() == page) {
      return r.tree();
    }
    Optional<Target> tree = lookup.apply(page);
    if (tree.isPresent()) {
      last = new Remembered(page, tree);
    }
    return tree;
  }
}
