package io.stratus.core;

import io.stratus.pagemanager.Keys;
import io.stratus.pagemanager.Page;
import io.stratus.pagemanager.PageKind;
import java.util.Arrays;
import java.util.HashSet;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.jspecify.annotations.Nullable;

/**
 * Checks the B-link invariants of one tree, level by level from the root down, reading every page
 * once (see {@link io.stratus.btree.BLinkTree} for the invariants):
 *
 * <ul>
 *   <li>the root exists, has no low key, high key or right sibling;
 *   <li>every page has the kind and level its parent promises (inner pages above level 0, leaves
 *       at 0), its keys lie in [low, high), its low key lies below its high key, and an inner
 *       page's first key is its low key;
 *   <li>each level starts at minus infinity with the first child of the level above, and its
 *       right-sibling chain ends at plus infinity; a page's high key is its sibling's low key;
 *   <li>every child an inner page names is reached by its level's chain, and has the separator as
 *       its low key; a page the chain reaches that no parent names is a split whose separator was
 *       not posted yet (harmless: readers move right to it);
 *   <li>every leaf is handed to the {@link LeafVisitor}, in key order.
 * </ul>
 *
 * <p>A page that cannot be read breaks its level's chain: the walk resumes at the next page a
 * parent names, and pages that only the broken part would have reached are not reported again
 * as unreachable. Used by one scanning thread.
 */
final class TreeWalk {
  /** Most bytes of a key shown in a message. */
  private static final int SHOWN_KEY_BYTES = 24;

  /** Receives each leaf reached, in key order. */
  @FunctionalInterface
  interface LeafVisitor {
    void leaf(Page leaf);
  }

  private final StoredPages pages;
  private final VerifyFindings findings;
  private final String rootUri;
  private final Set<String> reached = new HashSet<>();

  TreeWalk(StoredPages pages, VerifyFindings findings, String rootUri) {
    this.pages = pages;
    this.findings = findings;
    this.rootUri = rootUri;
  }

  /** The URIs of every page of the tree reached (readable or not). */
  Set<String> reached() {
    return reached;
  }

  /** Walks the tree; false when the root is missing or unreadable (nothing else was checked). */
  boolean walk(LeafVisitor visitor) {
    StoredPages.Read root = pages.read(rootUri);
    reached.add(rootUri);
    if (root.state() == StoredPages.State.ABSENT) {
      findings.error(
          Finding.Kind.MISSING_ROOT,
          rootUri,
          "the catalog names this tree, but its"
              + " root page is not in storage: the collection or index cannot be read");
      return false;
    }
    if (!root.ok()) {
      return false;
    }
    Page r = root.page();
    if (r.lowKey().length != 0 || r.highKey().isPresent() || r.rightSibling().isPresent()) {
      findings.error(
          Finding.Kind.BAD_ROOT,
          rootUri,
          "a root must span all keys and have no"
              + " sibling; it has low key "
              + show(r.lowKey())
              + ", high key "
              + r.highKey().map(TreeWalk::show).orElse("none")
              + ", sibling "
              + r.rightSibling().orElse("none"));
    }
    Map<String, byte[]> named = new LinkedHashMap<>();
    named.put(rootUri, new byte[0]);
    Map<String, Page> preread = new LinkedHashMap<>();
    preread.put(rootUri, r);
    for (int level = r.level(); level >= 0 && !named.isEmpty(); level--) {
      named = walkLevel(level, named, preread, visitor);
      preread = Map.of();
    }
    return true;
  }

  /**
   * Walks one level along its sibling chain, starting at the first page named by the level above,
   * and returns the children the level's inner pages name (child URI to separator, in key order).
   */
  private Map<String, byte[]> walkLevel(
      int level, Map<String, byte[]> named, Map<String, Page> preread, LeafVisitor visitor) {
    Map<String, byte[]> children = new LinkedHashMap<>();
    Set<String> onLevel = new HashSet<>();
    boolean broken = false;
    boolean first = true;
    for (String start : named.keySet()) {
      if (onLevel.contains(start)) {
        continue;
      }
      if (!first && !broken) {
        findings.error(
            Finding.Kind.UNREACHABLE_NODE,
            start,
            "its parent names it, but the"
                + " sibling chain of level "
                + level
                + " does not reach it: range scans skip it");
      }
      broken = false;
      String uri = start;
      Page previous = null;
      Set<String> chain = new HashSet<>();
      while (uri != null) {
        if (!chain.add(uri)) {
          findings.error(
              Finding.Kind.SIBLING_MISMATCH,
              uri,
              "the sibling chain of level " + level + " returns to this page (a cycle)");
          break;
        }
        if (!onLevel.add(uri)) {
          break; // joins the part of the level an earlier chain walked
        }
        reached.add(uri);
        Page pre = preread.get(uri);
        StoredPages.Read read = pre != null ? StoredPages.Read.of(pre) : pages.read(uri);
        if (!read.ok()) {
          if (read.state() == StoredPages.State.ABSENT) {
            findings.error(
                Finding.Kind.MISSING_PAGE,
                uri,
                (previous == null ? "a parent" : "left sibling " + previous.uri())
                    + " refers to it, but it is not in storage");
          }
          broken = true;
          break;
        }
        Page p = read.page();
        checkPage(p, level, first && previous == null, named.get(uri), previous);
        if (p.level() == level && level > 0) {
          for (int i = 0; i < p.entryCount(); i++) {
            String child = p.valueText(i);
            if (children.putIfAbsent(child, p.key(i)) != null) {
              findings.error(
                  Finding.Kind.SEPARATOR_MISMATCH, p.uri(), "names child " + child + " twice");
            }
          }
        } else if (p.level() == 0 && level == 0) {
          visitor.leaf(p);
        }
        if (!named.containsKey(uri) && previous != null) {
          findings.info(
              Finding.Kind.UNPOSTED_SPLIT,
              uri,
              "reached from "
                  + previous.uri()
                  + " but no parent names it yet (a split whose separator was not posted; readers"
                  + " move right to it)");
        }
        previous = p;
        uri = p.rightSibling().orElse(null);
      }
      first = false;
    }
    return children;
  }

  /** The checks of one page on {@code level}; {@code separator} is null when no parent names it. */
  private void checkPage(
      Page p, int level, boolean leftmost, byte @Nullable [] separator, @Nullable Page previous) {
    String uri = p.uri();
    PageKind expected = level == 0 ? PageKind.LEAF : PageKind.INNER;
    if (p.level() != level || p.kind() != expected) {
      findings.error(
          Finding.Kind.LEVEL_MISMATCH,
          uri,
          "expected a "
              + expected
              + " at level "
              + level
              + ", found a "
              + p.kind()
              + " at level "
              + p.level()
              + "; its entries were not followed");
    }
    byte[] low = p.lowKey();
    Optional<byte[]> high = p.highKey();
    if (leftmost && low.length != 0) {
      findings.error(
          Finding.Kind.LEVEL_MISMATCH,
          uri,
          "the first page of level "
              + level
              + " must start at minus infinity, not at "
              + show(low));
    }
    if (high.isPresent() && Keys.compare(low, high.get()) >= 0) {
      findings.error(
          Finding.Kind.KEY_OUT_OF_RANGE,
          uri,
          "low key " + show(low) + " is not below high key " + show(high.get()));
    }
    int n = p.entryCount();
    if (n > 0) {
      if (p.compareKeyAt(0, low) < 0) {
        findings.error(
            Finding.Kind.KEY_OUT_OF_RANGE,
            uri,
            "key " + show(p.key(0)) + " lies below the page's low key " + show(low));
      }
      if (high.isPresent() && p.compareKeyAt(n - 1, high.get()) >= 0) {
        findings.error(
            Finding.Kind.KEY_OUT_OF_RANGE,
            uri,
            "key "
                + show(p.key(n - 1))
                + " lies at or above the page's high key "
                + show(high.get())
                + ": readers look for it in the right sibling");
      }
      if (p.kind() == PageKind.INNER && p.compareKeyAt(0, low) != 0) {
        findings.error(
            Finding.Kind.SEPARATOR_MISMATCH,
            uri,
            "an inner page's first key must be"
                + " its low key "
                + show(low)
                + ", not "
                + show(p.key(0)));
      }
    } else if (p.kind() == PageKind.INNER) {
      findings.error(Finding.Kind.SEPARATOR_MISMATCH, uri, "an inner page without children");
    }
    if (separator != null && !Arrays.equals(separator, low)) {
      findings.error(
          Finding.Kind.SEPARATOR_MISMATCH,
          uri,
          "its parent's separator is " + show(separator) + " but its low key is " + show(low));
    }
    if (previous != null) {
      Optional<byte[]> before = previous.highKey();
      if (before.isPresent() && !Arrays.equals(before.get(), low)) {
        findings.error(
            Finding.Kind.SIBLING_MISMATCH,
            uri,
            "left sibling "
                + previous.uri()
                + " ends at "
                + show(before.get())
                + " but this page starts at "
                + show(low));
      }
    }
    if (p.rightSibling().isPresent() && high.isEmpty()) {
      findings.error(
          Finding.Kind.SIBLING_MISMATCH,
          uri,
          "has right sibling " + p.rightSibling().get() + " but no high key");
    } else if (p.rightSibling().isEmpty() && high.isPresent()) {
      findings.error(
          Finding.Kind.SIBLING_MISMATCH,
          uri,
          "has high key "
              + show(high.get())
              + " but no right sibling: keys from there on cannot be reached on level "
              + level);
    }
  }

  /** A key for a message: hex, cut after {@value #SHOWN_KEY_BYTES} bytes. */
  static String show(byte[] key) {
    if (key.length == 0) {
      return "(empty)";
    }
    int n = Math.min(key.length, SHOWN_KEY_BYTES);
    String hex = HexFormat.of().formatHex(key, 0, n);
    return "0x" + hex + (n < key.length ? "... (" + key.length + " bytes)" : "");
  }
}
