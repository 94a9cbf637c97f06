package io.stratus.pagemanager;

import java.util.Arrays;
import java.util.Comparator;

/**
 * The one order of keys everywhere in Stratus: unsigned lexicographic order of the bytes, the order
 * in which the order-preserving key encodings of the record manager are designed to sort.
 */
public final class Keys {
  /** Compares two keys as unsigned byte strings. */
  public static final Comparator<byte[]> ORDER = Arrays::compareUnsigned;

  private Keys() {}

  public static int compare(byte[] a, byte[] b) {
    return Arrays.compareUnsigned(a, b);
  }
}
