package io.stratus.zookeeper;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;

/**
 * The znode layout of one namespace, and the mapping of Cloud API URIs to znode names.
 *
 * <pre>
 * /{ns}.initialized                 sibling marker: the namespace was set up once (it survives
 *                                   a drop of /{ns}); absent with /{ns}/meta: never used
 * /{ns}/meta                        marker; absent at connect: a new (or lost) namespace
 * /{ns}/locks/state                 generation and refuse-until instant of the lock service
 * /{ns}/locks/timeouts              lock timeouts per URI prefix, longest ever
 * /{ns}/locks/held/{uri}            the holders of one URI's lock
 * /{ns}/counters/state              epoch and refuse-until instant of the counter service
 * /{ns}/counters/timeouts           validation timeouts per URI prefix, longest ever
 * /{ns}/counters/values/{uri}       one counter: epoch, last issued, watermark, values in flight
 * /{ns}/queues/{uri}                one advanced queue
 * /{ns}/queues/{uri}/{key}_{t}_{seq} one message: key, enqueue millis (base 36), sequence
 * </pre>
 *
 * <p>Why URIs are escaped rather than used as paths: a URI's slashes would make intermediate nodes
 * (and "a" and "a/b" would then be parent and child), and ZooKeeper forbids some characters and
 * the names "." and "..". A URI becomes one znode name by percent-encoding its UTF-8 bytes except
 * ASCII letters, digits and {@code - . _ ~}; '%' itself is encoded, so the mapping is injective
 * and {@link #decode} inverts it. The names "." and ".." encode their dots.
 *
 * <p>Stateless and thread-safe.
 */
final class ZkPaths {
  private static final char[] HEX = "0123456789ABCDEF".toCharArray();

  private final String root;

  ZkPaths(String namespace) {
    this.root = "/" + namespace;
  }

  String root() {
    return root;
  }

  /**
   * Beside the namespace rather than in it, so that it outlives a drop of the namespace: a
   * namespace found empty with this marker present was used and lost its state.
   */
  String initialized() {
    return root + ".initialized";
  }

  String meta() {
    return root + "/meta";
  }

  String locksDir() {
    return root + "/locks";
  }

  String countersDir() {
    return root + "/counters";
  }

  String queuesDir() {
    return root + "/queues";
  }

  /** {@code service} is {@link #locksDir()} or {@link #countersDir()}. */
  static String state(String service) {
    return service + "/state";
  }

  static String timeouts(String service) {
    return service + "/timeouts";
  }

  String heldDir() {
    return locksDir() + "/held";
  }

  String lock(String uri) {
    return heldDir() + "/" + encode(uri);
  }

  String valuesDir() {
    return countersDir() + "/values";
  }

  String counter(String uri) {
    return valuesDir() + "/" + encode(uri);
  }

  String queue(String uri) {
    return queuesDir() + "/" + encode(uri);
  }

  /** The prefix of a new message's sequential node; ZooKeeper appends the sequence. */
  static String messagePrefix(String queuePath, long key, long enqueuedMillis) {
    return queuePath + "/" + key + "_" + Long.toString(enqueuedMillis, 36) + "_";
  }

  /** The URI a znode name was made from. */
  static String decode(String name) {
    ByteArrayOutputStream out = new ByteArrayOutputStream(name.length());
    for (int i = 0; i < name.length(); i++) {
      char c = name.charAt(i);
      if (c == '%') {
        if (i + 2 >= name.length()) {
          throw new IllegalArgumentException("not an encoded URI: " + name);
        }
        out.write(Integer.parseInt(name.substring(i + 1, i + 3), 16));
        i += 2;
      } else {
        out.write(c);
      }
    }
    return out.toString(StandardCharsets.UTF_8);
  }

  /** The znode name of a URI (see the class comment). */
  static String encode(String uri) {
    StringBuilder sb = new StringBuilder(uri.length() + 16);
    for (byte b : uri.getBytes(StandardCharsets.UTF_8)) {
      int c = b & 0xff;
      if (unreserved(c)) {
        sb.append((char) c);
      } else {
        sb.append('%').append(HEX[c >> 4]).append(HEX[c & 0xf]);
      }
    }
    String name = sb.toString();
    if (name.equals(".") || name.equals("..")) {
      return name.replace(".", "%2E");
    }
    return name;
  }

  private static boolean unreserved(int c) {
    return (c >= 'a' && c <= 'z')
        || (c >= 'A' && c <= 'Z')
        || (c >= '0' && c <= '9')
        || c == '-'
        || c == '.'
        || c == '_'
        || c == '~';
  }
}
