package io.stratus.protocols.isolation;

import io.stratus.btree.BLinkTree;
import io.stratus.btree.SecondaryKeys;
import io.stratus.pagemanager.PageStore;
import io.stratus.protocols.LogicalChange;
import io.stratus.protocols.StorageLayout;
import io.stratus.protocols.WriteSet;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Write sets as the archive records them: one change per tree key, with its before image.
 */
final class ChangeSets {
  private ChangeSets() {}

  /**
   * {@code ws} collapsed to its last change per tree key (a secondary index entry is keyed by its
   * composite key), each with its before image as {@code before} shows the tree; changes that
   * leave a key as it was are dropped. A primary change's kind says what it does to the key
   * there: INSERT of an absent key, UPDATE of a present one, DELETE.
   */
  static List<LogicalChange> collapse(WriteSet ws, PageStore before) {
    Map<String, LogicalChange> last = new LinkedHashMap<>();
    for (LogicalChange c : ws.changes()) {
      byte[] treeKey = treeKey(c);
      last.put(c.treeUri() + '\u0000' + HexFormat.of().formatHex(treeKey), c);
    }
    List<LogicalChange> out = new ArrayList<>();
    for (LogicalChange c : last.values()) {
      BLinkTree tree = StorageLayout.tree(c.treeUri());
      boolean after = c.kind() != LogicalChange.Kind.DELETE;
      if (c.secondaryIndex()) {
        boolean present = tree.get(before, treeKey(c)).isPresent();
        if (present != after) {
          out.add(c.withBefore(present ? Optional.of(new byte[0]) : Optional.empty()));
        }
        continue;
      }
      Optional<byte[]> was = tree.get(before, c.key());
      if ((!after && was.isEmpty())
          || (after && was.isPresent() && Arrays.equals(was.get(), c.value()))) {
        continue; // no change to the value it had
      }
      LogicalChange.Kind k =
          !after
              ? LogicalChange.Kind.DELETE
              : was.isEmpty() ? LogicalChange.Kind.INSERT : LogicalChange.Kind.UPDATE;
      out.add(
          new LogicalChange(k, c.treeUri(), c.key(), c.value(), Optional.empty(), false)
              .withBefore(was));
    }
    return out;
  }

  /** The key a change has in its tree: the record key, or an index entry's composite key. */
  static byte[] treeKey(LogicalChange c) {
    return c.secondaryIndex() ? SecondaryKeys.compose(c.key(), c.value()) : c.key();
  }
}
