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
 * {@code [long owedSince]} ({@link IndexDef#owedSince}), or format 3, where each index also has
 * {@code [byte placement]} (0: a client-side tree, 1: the index service followed by {@code [UTF
 * domain]}); a collection is written in the oldest format that holds it (format 1 when no index is
 * owed a reconciliation and none is in the index service), which older builds read. A tree's pages
 * are named under the directory of its root URI ({@link StorageLayout#tree}); an index in the
 * index service keeps its root URI as its identity (locks, read reports) and has no pages.
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
  private static final int FORMAT_PLACED = 3;
  private static final int TREE = 0;
  private static final int SERVICE = 1;
  private static final int PROTOCOL_FORMAT = 1;
  static final Catalog EMPTY = new Catalog(new TreeMap<>(), Optional.empty());

  private final SortedMap<String, CollectionDef> collections;
  private final Optional<String> protocol;

  private Catalog(SortedMap<String, CollectionDef> collections, Optional<String> protocol) {
    this.collections = Collections.unmodifiableSortedMap(collections);
    this.protocol = protocol;
  }

  /**
   * A secondary index: its name, its tree, since when (epoch milliseconds) it is owed a
   * reconciliation with its collection (0 when it is not), and the index-service domain that holds
   * its entries when it is not a client-side tree. An index is owed a reconciliation from its
   * creation until a pass has added the entries of records written by handles that did not know
   * it yet ({@code IndexReconciler}). An index in the service has a tree too, never written: its
   * root URI names the index to the protocols.
   */
  record IndexDef(String name, BLinkTree tree, long owedSince, Optional<String> domain) {
    boolean owed() {
      return owedSince != 0;
    }

    IndexPlacement placement() {
      return domain.isPresent() ? IndexPlacement.INDEX_SERVICE : IndexPlacement.CLIENT_TREE;
    }

    IndexDef settled() {
      return new IndexDef(name, tree, 0, domain);
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

    /** This collection with index {@code def} (replacing one of its name). */
    CollectionDef withIndex(IndexDef def) {
      SortedMap<String, IndexDef> m = new TreeMap<>(indexes);
      m.put(def.name(), def);
      return new CollectionDef(name, primary.rootUri(), m);
    }

    /**
     * The index {@code index} of this collection, for callers that took the name from {@link
     * #indexes} of this same definition.
     *
     * @throws IllegalStateException when this collection has no such index (a caller's bug)
     */
    IndexDef index(String index) {
      IndexDef d = indexes.get(index);
      if (d == null) {
        throw new IllegalStateException("collection " + name + " has no index " + index);
      }
      return d;
    }

    boolean anyOwed() {
      return indexes.values().stream().anyMatch(IndexDef::owed);
    }

    boolean anyInService() {
      return indexes.values().stream().anyMatch(x -> x.domain().isPresent());
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
    int format = d.anyInService() ? FORMAT_PLACED : d.anyOwed() ? FORMAT_OWED : FORMAT;
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    try (DataOutputStream out = new DataOutputStream(bytes)) {
      out.writeByte(format);
      out.writeUTF(d.primary.rootUri());
      out.writeInt(d.indexes.size());
      for (IndexDef x : d.indexes.values()) {
        out.writeUTF(x.name());
        out.writeUTF(x.tree().rootUri());
        if (format >= FORMAT_OWED) {
          out.writeLong(x.owedSince());
        }
        if (format == FORMAT_PLACED) {
          out.writeByte(x.domain().isPresent() ? SERVICE : TREE);
          if (x.domain().isPresent()) {
            out.writeUTF(x.domain().get());
          }
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
      if (format != FORMAT && format != FORMAT_OWED && format != FORMAT_PLACED) {
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
        long owedSince = format >= FORMAT_OWED ? in.readLong() : 0;
        Optional<String> domain = Optional.empty();
        if (format == FORMAT_PLACED) {
          int placement = in.readUnsignedByte();
          if (placement == SERVICE) {
            domain = Optional.of(in.readUTF());
          } else if (placement != TREE) {
            throw new CorruptPageException(
                uri, "collection " + name + ": index " + index + " has placement " + placement);
          }
        }
        indexes.put(index, new IndexDef(index, StorageLayout.tree(indexRoot), owedSince, domain));
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
