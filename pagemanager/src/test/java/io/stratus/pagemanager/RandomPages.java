package io.stratus.pagemanager;

import java.util.Random;
import java.util.TreeMap;

/** Random pages for property-style tests, from a seeded {@link Random}. */
final class RandomPages {
  private static final String ALPHABET = "abcdefghijklmnopqrstuvwxyz0123456789-/_.";
  private static final String[] EXOTIC = {"é", "ß", "中", "😀", "Ω"};

  private RandomPages() {}

  /** A page at {@code uri} with every header field and the entries drawn at random. */
  static Page page(Random r, String uri) {
    PageKind kind = PageKind.values()[r.nextInt(PageKind.values().length)];
    Page.Builder b = Page.builder(uri, kind);
    b.level(r.nextInt(4) == 0 ? r.nextInt(Integer.MAX_VALUE) : r.nextInt(5));
    if (r.nextBoolean()) {
      b.lowKey(bytes(r, r.nextInt(30)));
    }
    switch (r.nextInt(3)) {
      case 0:
        break; // plus infinity
      case 1:
        b.highKey(new byte[0]); // an empty, present high key
        break;
      default:
        b.highKey(bytes(r, 1 + r.nextInt(30)));
    }
    if (r.nextBoolean()) {
      b.rightSibling(text(r, r.nextInt(3) == 0 ? 0 : 1 + r.nextInt(80)));
    }
    b.protocolState(r.nextInt(4) == 0 ? new byte[0] : bytes(r, r.nextInt(300)));
    b.versionStamp(Math.abs(interestingLong(r) % Long.MAX_VALUE));
    int n = r.nextInt(5) == 0 ? 0 : r.nextInt(60);
    TreeMap<byte[], byte[]> entries = new TreeMap<>(Keys.ORDER);
    for (int i = 0; i < n; i++) {
      int valueLength = r.nextInt(20) == 0 ? r.nextInt(20_000) : r.nextInt(200);
      entries.put(bytes(r, r.nextInt(40)), bytes(r, valueLength));
    }
    byte[][] keys = entries.keySet().toArray(new byte[0][]);
    byte[][] values = entries.values().toArray(new byte[0][]);
    if (r.nextBoolean()) {
      b.entries(keys, values);
    } else {
      long[] stamps = new long[keys.length]; // some entries without a stamp
      for (int i = 0; i < stamps.length; i++) {
        stamps[i] = r.nextInt(3) == 0 ? 0 : Math.abs(interestingLong(r) % Long.MAX_VALUE);
      }
      b.entries(keys, values, stamps);
    }
    if (kind == PageKind.LEAF && r.nextBoolean()) {
      TreeMap<byte[], Long> tombstones = new TreeMap<>(Keys.ORDER);
      int t = r.nextInt(40);
      for (int i = 0; i < t; i++) {
        byte[] key = bytes(r, r.nextInt(40));
        if (!entries.containsKey(key)) {
          tombstones.put(key, 1 + Math.abs(interestingLong(r) % (Long.MAX_VALUE - 1)));
        }
      }
      long[] stamps = new long[tombstones.size()];
      int i = 0;
      for (long stamp : tombstones.values()) {
        stamps[i++] = stamp;
      }
      b.tombstones(tombstones.keySet().toArray(new byte[0][]), stamps);
    }
    return b.build();
  }

  /** A leaf at {@code uri} with {@code entries} entries of {@code valueLength}-byte values. */
  static Page leaf(String uri, int entries, int valueLength) {
    byte[][] keys = new byte[entries][];
    byte[][] values = new byte[entries][];
    for (int i = 0; i < entries; i++) {
      keys[i] = String.format("k%06d", i).getBytes(java.nio.charset.StandardCharsets.UTF_8);
      values[i] = new byte[valueLength];
      values[i][0] = (byte) i;
    }
    return Page.builder(uri, PageKind.LEAF).entries(keys, values).build();
  }

  static byte[] bytes(Random r, int length) {
    byte[] b = new byte[length];
    r.nextBytes(b);
    return b;
  }

  /** Mostly ASCII, sometimes multi-byte UTF-8 characters. */
  static String text(Random r, int length) {
    StringBuilder sb = new StringBuilder();
    while (sb.length() < length) {
      if (r.nextInt(8) == 0) {
        sb.append(EXOTIC[r.nextInt(EXOTIC.length)]);
      } else {
        sb.append(ALPHABET.charAt(r.nextInt(ALPHABET.length())));
      }
    }
    return sb.toString();
  }

  private static long interestingLong(Random r) {
    switch (r.nextInt(5)) {
      case 0:
        return 0;
      case 1:
        return Long.MIN_VALUE;
      case 2:
        return Long.MAX_VALUE;
      case 3:
        return -1 - r.nextInt(1000);
      default:
        return r.nextLong();
    }
  }
}
