package io.stratus.aws;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Arrays;
import java.util.Base64;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HexFormat;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.TreeMap;

/**
 * Maps queue URIs (any string of up to 1,024 UTF-8 bytes) to SQS queue names (at most 80
 * letters, digits, '-' and '_'), used for SQS queues and for the key folders of S3 queues.
 *
 * <p>A name is {@code <prefix><readable>-<hash>}:
 *
 * <ul>
 *   <li>{@code prefix}: the deployment's {@link AwsConfig#queueNamePrefix()} (SQS names are shared
 *       by everything in an account and region).
 *   <li>{@code readable}: the URI with every character outside {@code [A-Za-z0-9_-]} replaced by
 *       '_', one output character per UTF-16 character, cut to what fits; so an operator can tell
 *       which queue is which in the console.
 *   <li>{@code hash}: the first 20 hex digits (80 bits) of the SHA-256 of the URI's UTF-8 bytes.
 * </ul>
 *
 * <p>Why this form: the hash makes the mapping collision-free in practice (two URIs share a name
 * only if they share 80 bits of SHA-256: expect the first collision after about 2^40 queues), also
 * for URIs whose readable parts are equal ("a/b" and "a.b"). The readable part maps character by
 * character, so the names of all URIs that start with P start with {@link #namePrefixFor(String)
 * namePrefixFor(P)}: {@code listQueues(P)} is one ListQueues call with QueueNamePrefix, whose
 * candidates are then checked against their exact URI (different URIs can share readable parts).
 *
 * <p>Names are not reversible in general; {@link #uriIfReadable(String)} recovers the URI for free
 * when it is its own readable part (the common case: "db-shop-page-42"), and the adapters store the
 * URI with the queue for the rest (an SQS tag, an S3 marker object).
 */
final class QueueNames {
  /** SQS's longest queue name. */
  static final int MAX_NAME_LENGTH = 80;

  /** Hex digits of SHA-256 in a name: 80 bits. */
  static final int HASH_DIGITS = 20;

  /** Longest SQS tag value. */
  static final int TAG_CHUNK = 256;

  /** Tag keys that hold the URI: this + chunk number. */
  static final String URI_TAG = "stratus-uri-";

  /** Ascending UTF-8 byte order of URIs, the order in which queues are listed. */
  static final Comparator<String> UTF8_ORDER =
      (a, b) ->
          Arrays.compareUnsigned(
              a.getBytes(StandardCharsets.UTF_8), b.getBytes(StandardCharsets.UTF_8));

  private final String prefix;
  private final int readableLength;

  QueueNames(String prefix) {
    this.prefix = Objects.requireNonNull(prefix, "prefix");
    this.readableLength = MAX_NAME_LENGTH - prefix.length() - 1 - HASH_DIGITS;
    if (readableLength < 1 || !prefix.matches("[A-Za-z0-9_-]*")) {
      throw new IllegalArgumentException("queue name prefix unusable: " + prefix);
    }
  }

  /** The queue name of {@code uri}. */
  String nameFor(String uri) {
    return prefix + readable(uri) + '-' + hash(uri);
  }

  /** A prefix of the name of every URI that starts with {@code uriPrefix}. */
  String namePrefixFor(String uriPrefix) {
    return prefix + readable(uriPrefix);
  }

  /**
   * The URI of {@code name} when the URI is its own readable part (checked through the hash), or
   * empty when the name's URI must be looked up.
   */
  Optional<String> uriIfReadable(String name) {
    if (!name.startsWith(prefix) || name.length() < prefix.length() + 1 + HASH_DIGITS + 1) {
      return Optional.empty();
    }
    String candidate = name.substring(prefix.length(), name.length() - HASH_DIGITS - 1);
    return !candidate.isEmpty() && nameFor(candidate).equals(name)
        ? Optional.of(candidate)
        : Optional.empty();
  }

  /** Whether {@code name} has this mapping's form (prefix, and a hash at the end). */
  boolean isOurs(String name) {
    if (!name.startsWith(prefix) || name.length() < prefix.length() + 1 + HASH_DIGITS) {
      return false;
    }
    int dash = name.length() - HASH_DIGITS - 1;
    if (name.charAt(dash) != '-') {
      return false;
    }
    for (int i = dash + 1; i < name.length(); i++) {
      char c = name.charAt(i);
      if (!((c >= '0' && c <= '9') || (c >= 'a' && c <= 'f'))) {
        return false;
      }
    }
    return true;
  }

  private String readable(String uri) {
    int n = Math.min(uri.length(), readableLength);
    StringBuilder sb = new StringBuilder(n);
    for (int i = 0; i < n; i++) {
      char c = uri.charAt(i);
      boolean safe =
          (c >= 'a' && c <= 'z')
              || (c >= 'A' && c <= 'Z')
              || (c >= '0' && c <= '9')
              || c == '-'
              || c == '_';
      sb.append(safe ? c : '_');
    }
    return sb.toString();
  }

  /**
   * The URI as SQS tags: "stratus-uri-0", "stratus-uri-1", ... hold the Base64url of its UTF-8
   * bytes in chunks of 256 characters (the longest tag value; Base64url uses only characters tags
   * allow).
   */
  static Map<String, String> uriTags(String uri) {
    String encoded =
        Base64.getUrlEncoder()
            .withoutPadding()
            .encodeToString(uri.getBytes(StandardCharsets.UTF_8));
    Map<String, String> tags = new HashMap<>();
    for (int i = 0, chunk = 0; i < encoded.length(); i += TAG_CHUNK, chunk++) {
      tags.put(URI_TAG + chunk, encoded.substring(i, Math.min(encoded.length(), i + TAG_CHUNK)));
    }
    return tags;
  }

  /** The URI stored by {@link #uriTags}, or empty when the tags hold none. */
  static Optional<String> uriFromTags(Map<String, String> tags) {
    Map<Integer, String> chunks = new TreeMap<>();
    for (Map.Entry<String, String> e : tags.entrySet()) {
      if (e.getKey().startsWith(URI_TAG)) {
        try {
          chunks.put(Integer.parseInt(e.getKey().substring(URI_TAG.length())), e.getValue());
        } catch (NumberFormatException ex) {
          return Optional.empty();
        }
      }
    }
    if (chunks.isEmpty()) {
      return Optional.empty();
    }
    StringBuilder sb = new StringBuilder();
    chunks.values().forEach(sb::append);
    try {
      return Optional.of(
          new String(Base64.getUrlDecoder().decode(sb.toString()), StandardCharsets.UTF_8));
    } catch (IllegalArgumentException e) {
      return Optional.empty();
    }
  }

  static String hash(String uri) {
    try {
      byte[] d = MessageDigest.getInstance("SHA-256").digest(uri.getBytes(StandardCharsets.UTF_8));
      return HexFormat.of().formatHex(d).substring(0, HASH_DIGITS);
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("every Java runtime has SHA-256", e);
    }
  }
}
