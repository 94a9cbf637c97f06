package io.stratus.btree;

import io.stratus.CorruptPageException;
import io.stratus.InvalidRequestException;
import io.stratus.StalePageException;
import io.stratus.pagemanager.Keys;
import io.stratus.pagemanager.Page;
import io.stratus.pagemanager.PageStore;
import java.util.Optional;
import org.jspecify.annotations.Nullable;

/**
 * Finding nodes in one B-link tree: root-to-leaf descents with Lehman-Yao "move right".
 *
 * <p><b>Why move right is enough.</b> Keys only ever move to the right (a split hands the upper
 * part of a node to a new right sibling; nothing merges), and a node's low key never changes. So
 * a pointer a reader followed, however stale the page that held it, leads to a node whose low key
 * is at most the key searched for; if the node has since been split, the key is at or beyond its
 * high key and the right-sibling chain leads to the node now responsible. Readers therefore need
 * no locks and tolerate cached (TTL) inner pages, concurrent splits by other clients, and half
 * finished splits whose separator has not reached the parent yet.
 *
 * <p>The point path is kept cheap: per level one high-key comparison, one binary search ({@link
 * Page#floorIndex}) and one child-URI decode; keys are never copied.
 *
 * <p>Stateless and thread-safe; every method works on the caller's {@link PageStore}.
 */
final class Navigator {
  private final String rootUri;

  Navigator(String rootUri) {
    this.rootUri = rootUri;
  }

  String rootUri() {
    return rootUri;
  }

  /**
   * The root page; a tree that was never created is a caller error, unless the store's reads may
   * lag behind writes: then the tree may have been created moments ago (retryable).
   *
   * @throws StalePageException when the root is missing from a store whose reads may lag
   */
  Page root(PageStore store) {
    Optional<Page> root = store.read(rootUri);
    if (root.isEmpty()) {
      if (store.readsMayLag()) {
        throw new StalePageException(rootUri);
      }
      throw new InvalidRequestException(
          "there is no B-link tree at " + rootUri + " (create it first)");
    }
    return root.get();
  }

  /** The leaf responsible for {@code key}. */
  Page findLeaf(PageStore store, byte[] key) {
    Page p = root(store);
    while (true) {
      p = moveRight(store, p, key);
      if (p.level() == 0) {
        return p;
      }
      int i = p.floorIndex(key);
      if (i < 0) {
        throw new CorruptPageException(p.uri(), "no child for a key below the node's first key");
      }
      p = child(store, p, i);
    }
  }

  /**
   * The node at {@code level} responsible for {@code key}, or null when the root (in this store's
   * view) is below that level.
   */
  @Nullable Page descendToLevel(PageStore store, byte[] key, int level) {
    Page p = root(store);
    if (p.level() < level) {
      return null;
    }
    while (true) {
      p = moveRight(store, p, key);
      if (p.level() == level) {
        return p;
      }
      int i = p.floorIndex(key);
      if (i < 0) {
        throw new CorruptPageException(p.uri(), "no child for a key below the node's first key");
      }
      p = child(store, p, i);
    }
  }

  /**
   * The leaf holding the keys just below {@code bound} (non-empty): the one whose low key is below
   * {@code bound} and whose high key is at or above it. Descending scans use it to step to the
   * previous leaf, since leaves link only to the right.
   */
  Page leafBefore(PageStore store, byte[] bound) {
    Page p = root(store);
    while (true) {
      while (highKeyBelow(p, bound)) {
        p = sibling(store, p);
      }
      if (p.level() == 0) {
        return p;
      }
      int i = p.indexOf(bound);
      i = i >= 0 ? i - 1 : -i - 2; // the last separator strictly below bound
      if (i < 0) {
        throw new CorruptPageException(p.uri(), "no child below a key above the node's low key");
      }
      p = child(store, p, i);
    }
  }

  /** The rightmost leaf. */
  Page lastLeaf(PageStore store) {
    Page p = root(store);
    while (true) {
      while (p.rightSibling().isPresent()) {
        p = sibling(store, p);
      }
      if (p.level() == 0) {
        return p;
      }
      if (p.entryCount() == 0) {
        throw new CorruptPageException(p.uri(), "inner node without children");
      }
      p = child(store, p, p.entryCount() - 1);
    }
  }

  /** Follows right links while {@code key} is at or beyond the node's high key. */
  Page moveRight(PageStore store, Page p, byte[] key) {
    while (p.isBeyondHighKey(key)) {
      p = sibling(store, p);
    }
    return p;
  }

  /** The right sibling of {@code p}, which must exist. */
  Page sibling(PageStore store, Page p) {
    Optional<String> next = p.rightSibling();
    if (next.isEmpty()) {
      throw new CorruptPageException(p.uri(), "a high key but no right sibling");
    }
    Page s = read(store, next.get(), p);
    if (s.level() != p.level()) {
      throw new CorruptPageException(
          s.uri(),
          "right sibling of " + p.uri() + " is on level " + s.level() + ", not " + p.level());
    }
    return s;
  }

  /** The i-th child of inner node {@code p}. */
  Page child(PageStore store, Page p, int i) {
    Page c = read(store, childUri(p, i), p);
    if (c.level() != p.level() - 1) {
      throw new CorruptPageException(
          c.uri(),
          "child of " + p.uri() + " is on level " + c.level() + ", not " + (p.level() - 1));
    }
    return c;
  }

  static String childUri(Page inner, int i) {
    return inner.valueText(i);
  }

  /**
   * A page another page refers to. Missing, it is a dangling reference (damage), unless the store's
   * reads may lag behind writes: then it is a new page not visible yet, and a later read finds it.
   *
   * @throws CorruptPageException when the page is missing from strongly consistent storage
   * @throws StalePageException when it is missing from a store whose reads may lag (retryable)
   */
  static Page read(PageStore store, String uri, Page referrer) {
    Optional<Page> p = store.read(uri);
    if (p.isEmpty()) {
      if (store.readsMayLag()) {
        throw new StalePageException(uri, referrer.uri());
      }
      throw new CorruptPageException(uri, "missing, but referenced by " + referrer.uri());
    }
    return p.get();
  }

  private static boolean highKeyBelow(Page p, byte[] bound) {
    Optional<byte[]> high = p.highKey();
    return high.isPresent() && Keys.compare(high.get(), bound) < 0;
  }
}
