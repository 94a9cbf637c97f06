package io.stratus.pagemanager;

import java.util.Map;

/**
 * The maps a transaction looks pages up in on every read (its reads, its protocol's views of
 * them) are keyed by URI strings, and one page is named by several string objects: its parent's
 * entry, its left sibling's link, its own {@link Page#uri()}. A lookup with an equal string of
 * another object than the one the map holds compares the two strings, and the held copy is rarely
 * in the processor's cache: a cached point read paid more for that than for its hash look-ups.
 * So these maps keep each entry under the string object that last found it, and the reads that
 * follow, which name the page the same way, end at the identity check.
 */
public final class UriKeyed {
  private UriKeyed() {}

  /**
   * Keeps {@code value} in {@code map} under {@code uri} itself, replacing the entry held under an
   * equal string of another object, and returns it. Callers use it when the value they found
   * records the string object it is held under, and that object is not {@code uri}.
   */
  public static <V> V keepUnder(Map<String, V> map, String uri, V value) {
    map.remove(uri); // a put alone would keep the held key object
    map.put(uri, value);
    return value;
  }
}
