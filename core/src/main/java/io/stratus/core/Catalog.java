package io.stratus.core;

import io.stratus.CorruptPageException;
import io.stratus.btree.BLinkTree;
import io.stratus.pagemanager.Page;
import io.stratus.pagemanager.PageKind;
import io.stratus.protocols.StorageLayout;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.Collections;
import java.util.Map;
import java.util.Optional;
import java.util.SortedMap;
import java.util.TreeMap;

/**
 * One immutable state of the catalog: which collections exist, the root URI of each one's primary
 * tree, and its secondary indexes with their root URIs (paper 000, section 3.4: "both URIs are
 * stored persistently as meta-data in the system's catalogue").
 *
 * <p><b>Stored form.</b> A {@link PageKind#META} page at {@code <dbUri>/catalog}, encoded with the
 * page codec like every other page, so it is checksummed and a damaged catalog is reported as
 * {@link CorruptPageException} rather than misread. One entry per collection: key = the name in
 * UTF-8 (names are ASCII), value = {@code [format 1][UTF rootUri][int n][n x (UTF index name, UTF
 * index root URI)]} in {@link DataOutputStream} encoding, or format 2, where each index also has
 * {@code [long owedSince]} ({@link IndexDef#owedSince}); a collection none of whose indexes is owed
 * a reconciliation is written in format 1, which older builds read. A tree's pages are named under the
 * directory of its root URI ({@link StorageLayout#tree}).
 *
 * <p><b>The protocol.</b> The name of the commit protocol the database runs ({@link #protocol()})
 * is kept in the page's protocol state: {@code [format 1][UTF name]}; empty for a catalog written
 * before databases recorded it (or by a build that did not), which the record manager records on
 * its next write.
 *
 * <p>Immutable, so a snapshot can be shared by every thread and transaction; changes return a new
 * catalog. The tree handles are built once per snapshot.
 */
final class Catalog {
  private static final int FORMAT = 1;
  private static final int FORMAT_OWED = 2;
  private static final int PROTOCOL_FORMAT = 1;
  static final Catalog EMPTY = new Catalog(new TreeMap<>(), Optional.empty());

  private final SortedMap<String, CollectionDef> collections;
  private final Optional<String> protocol;

  private Catalog(SortedMap<String, CollectionDef> collections, Optional<String> protocol) {
    this.collections = Collections.unmodifiableSortedMap(collections);
    this.protocol = protocol;
  }

  /**
   * A secondary index: its name, its tree, and since when (epoch milliseconds) it is owed a
   * reconciliation with its collection, 0 when it is not. An index is owed one from its creation
   * until a pass has added the entries of records written by handles that did not know it yet
   * ({@code IndexReconciler}).
   */
  record IndexDef(String name, BLinkTree tree, long owedSince) {
    boolean owed() {
      return owedSince != 0;
    }
  }

  /** A collection: its name, primary tree, and indexes by name. */
  static final class CollectionDef {
    final String name;
    final BLinkTree primary;
    final SortedMap<String, IndexDef> indexes;

    CollectionDef(String name, String rootUri, SortedMap<String, IndexDef> indexes) {
      this.name = name;
      this.primary = StorageLayout.tree(rootUri);
      this.indexes = Collections.unmodifiableSortedMap(new TreeMap<>(indexes));
    }

    /** This collection with index {@code index} at {@code rootUri}, owed since {@code since}. */
    CollectionDef withIndex(String index, String rootUri, long owedSince) {
      SortedMap<String, IndexDef> m = new TreeMap<>(indexes);
      m.put(index, new IndexDef(index, StorageLayout.tree(rootUri), owedSince));
      return new CollectionDef(name, primary.rootUri(), m);
    }

    boolean anyOwed() {
      return indexes.values().stream().anyMatch(IndexDef::owed);
    }
  }

  SortedMap<String, CollectionDef> collections() {
    return collections;
  }

  Optional<CollectionDef> collection(String name) {
    return Optional.ofNullable(collections.get(name));
  }

  Catalog with(CollectionDef def) {
    SortedMap<String, CollectionDef> m = new TreeMap<>(collections);
    m.put(def.name, def);
    return new Catalog(m, protocol);
  }

  /**
   * The name of the commit protocol the database runs (a {@code ProtocolKind} name; one this build
   * does not know stays a name), empty when none is recorded.
   */
  Optional<String> protocol() {
    return protocol;
  }

  /** This catalog recording that the database runs {@code protocolName}. */
  Catalog withProtocol(String protocolName) {
    return new Catalog(collections, Optional.of(protocolName));
  }

  // ---- stored form ----

  Page toPage(String uri) {
    byte[][] keys = new byte[collections.size()][];
    byte[][] values = new byte[collections.size()][];
    int i = 0;
    for (CollectionDef d : collections.values()) {
      keys[i] = d.name.getBytes(StandardCharsets.UTF_8);
      values[i] = encode(d);
      i++;
    }
    // Names are ASCII, so the sorted map's order is the pages' unsigned byte order.
    return Page.builder(uri, PageKind.META)
        .entries(keys, values)
        .protocolState(protocol.map(Catalog::encodeProtocol).orElse(new byte[0]))
        .build();
  }

  static Catalog fromPage(Page page) {
    if (page.kind() != PageKind.META) {
      throw new CorruptPageException(
          page.uri(), "a catalog must be a META page, not " + page.kind());
    }
    SortedMap<String, CollectionDef> m = new TreeMap<>();
    for (int i = 0; i < page.entryCount(); i++) {
      String name = new String(page.key(i), StandardCharsets.UTF_8);
      m.put(name, decode(page.uri(), name, page.value(i)));
    }
    return new Catalog(m, decodeProtocol(page.uri(), page.protocolState()));
  }

  private static byte[] encodeProtocol(String name) {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    try (DataOutputStream out = new DataOutputStream(bytes)) {
      out.writeByte(PROTOCOL_FORMAT);
      out.writeUTF(name);
    } catch (IOException e) {
      throw new UncheckedIOException(e); // a ByteArrayOutputStream does not fail
    }
    return bytes.toByteArray();
  }

  private static Optional<String> decodeProtocol(String uri, byte[] state) {
    if (state.length == 0) {
      return Optional.empty();
    }
    try (DataInputStream in = new DataInputStream(new ByteArrayInputStream(state))) {
      int format = in.readUnsignedByte();
      if (format != PROTOCOL_FORMAT) {
        throw new CorruptPageException(uri, "unknown format " + format + " of the protocol");
      }
      String name = in.readUTF();
      if (in.available() != 0 || name.isEmpty()) {
        throw new CorruptPageException(uri, "a malformed protocol name");
      }
      return Optional.of(name);
    } catch (IOException e) {
      throw new CorruptPageException(uri, "a truncated protocol name", e);
    }
  }

  private static byte[] encode(CollectionDef d) {
    boolean owed = d.anyOwed();
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    try (DataOutputStream out = new DataOutputStream(bytes)) {
      out.writeByte(owed ? FORMAT_OWED : FORMAT);
      out.writeUTF(d.primary.rootUri());
      out.writeInt(d.indexes.size());
      for (IndexDef x : d.indexes.values()) {
        out.writeUTF(x.name());
        out.writeUTF(x.tree().rootUri());
        if (owed) {
          out.writeLong(x.owedSince());
        }
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e); // a ByteArrayOutputStream does not fail
    }
    return bytes.toByteArray();
  }

  private static CollectionDef decode(String uri, String name, byte[] value) {
    try (DataInputStream in = new DataInputStream(new ByteArrayInputStream(value))) {
      int format = in.readUnsignedByte();
      if (format != FORMAT && format != FORMAT_OWED) {
        throw new CorruptPageException(
            uri, "collection " + name + ": unknown catalog format " + format);
      }
      String root = in.readUTF();
      int n = in.readInt();
      if (n < 0 || n > value.length) {
        throw new CorruptPageException(uri, "collection " + name + ": bad index count " + n);
      }
      SortedMap<String, IndexDef> indexes = new TreeMap<>();
      for (int i = 0; i < n; i++) {
        String index = in.readUTF();
        String indexRoot = in.readUTF();
        long owedSince = format == FORMAT_OWED ? in.readLong() : 0;
        indexes.put(index, new IndexDef(index, StorageLayout.tree(indexRoot), owedSince));
      }
      if (in.available() != 0) {
        throw new CorruptPageException(uri, "collection " + name + ": trailing bytes");
      }
      return new CollectionDef(name, root, indexes);
    } catch (IOException e) {
      throw new CorruptPageException(uri, "collection " + name + ": truncated definition", e);
    }
  }

  @Override
  public String toString() {
    StringBuilder s = new StringBuilder("Catalog{");
    protocol.ifPresent(p -> s.append("protocol=").append(p).append(' '));
    for (Map.Entry<String, CollectionDef> e : collections.entrySet()) {
      s.append(e.getKey()).append(e.getValue().indexes.keySet()).append(' ');
    }
    return s.append('}').toString();
  }
}
