package io.stratus.protocols.log;

import io.stratus.btree.SecondaryKeys;
import io.stratus.protocols.LogicalChange;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * What a transaction's logical changes amount to per key, before they become log records or page
 * writes: insert + update = insert of the last payload; update + update = the last; insert +
 * delete = nothing; delete + insert = update (a put). Every protocol commits the collapsed changes.
 */
public final class Changes {
  private Changes() {}

  /** The changes with those of one key collapsed, in the order of each key's first change. */
  public static List<LogicalChange> collapse(List<LogicalChange> changes) {
    Map<String, LogicalChange.Kind> first = new LinkedHashMap<>();
    Map<String, LogicalChange> last = new LinkedHashMap<>();
    HexFormat hex = HexFormat.of();
    for (LogicalChange c : changes) {
      byte[] k = c.secondaryIndex() ? SecondaryKeys.compose(c.key(), c.value()) : c.key();
      String id = (c.secondaryIndex() ? "i " : "t ") + c.treeUri() + ' ' + hex.formatHex(k);
      first.putIfAbsent(id, c.kind());
      last.put(id, c);
    }
    List<LogicalChange> out = new ArrayList<>(last.size());
    for (Map.Entry<String, LogicalChange> e : last.entrySet()) {
      LogicalChange c = e.getValue();
      LogicalChange.Kind f = first.get(e.getKey());
      LogicalChange.Kind kind;
      if (c.kind() == LogicalChange.Kind.DELETE) {
        if (f == LogicalChange.Kind.INSERT) {
          continue; // created and deleted within the transaction
        }
        kind = LogicalChange.Kind.DELETE;
      } else if (f == LogicalChange.Kind.INSERT) {
        kind = LogicalChange.Kind.INSERT;
      } else if (f == LogicalChange.Kind.DELETE) {
        kind = c.secondaryIndex() ? LogicalChange.Kind.INSERT : LogicalChange.Kind.UPDATE;
      } else {
        kind = c.kind();
      }
      out.add(
          kind == c.kind()
              ? c
              : new LogicalChange(
                  kind, c.treeUri(), c.key(), c.value(), c.dataPageUri(), c.secondaryIndex()));
    }
    return out;
  }
}
