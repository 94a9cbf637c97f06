package io.stratus.cloudapi;

import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;
import org.jspecify.annotations.Nullable;

/**
 * One item of an {@link IndexService} domain: a name unique within the domain and its attributes,
 * each a single string value. For a secondary index, one item per index entry: the name is the
 * record's primary key and an attribute holds the index key, both in a sortable encoding ({@link
 * IndexKeys}).
 *
 * <p>Values are compared in UTF-8 byte order (code point order), as DynamoDB and SimpleDB compare
 * strings, so an encoding whose string order matches the order of what it encodes (such as {@link
 * IndexKeys#encode(byte[])}) makes range queries work on the encoded values. The attribute map is
 * copied and iterates in name order.
 *
 * @param name the item name, unique within its domain
 * @param attributes attribute name to value; may be empty
 */
public record IndexItem(String name, Map<String, String> attributes) {
  public IndexItem {
    Objects.requireNonNull(name, "name");
    Objects.requireNonNull(attributes, "attributes");
    TreeMap<String, String> copy = new TreeMap<>();
    for (Map.Entry<String, String> e : attributes.entrySet()) {
      copy.put(
          Objects.requireNonNull(e.getKey(), "attribute name"),
          Objects.requireNonNull(e.getValue(), "attribute value"));
    }
    attributes = java.util.Collections.unmodifiableMap(copy);
  }

  /** An item with one attribute, the usual shape of a secondary-index entry. */
  public static IndexItem of(String name, String attribute, String value) {
    return new IndexItem(name, Map.of(attribute, value));
  }

  /** The value of {@code attribute}, or null when the item has none. */
  public @Nullable String get(String attribute) {
    return attributes.get(attribute);
  }
}
