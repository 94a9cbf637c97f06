package io.stratus.aws;

import io.stratus.cloudapi.LimitExceededException;
import java.io.ByteArrayOutputStream;
import java.nio.charset.Charset;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.HashMap;
import java.util.HexFormat;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Encodes user metadata so that any map the Cloud API accepts survives S3 unchanged.
 *
 * <p>Why: S3 carries user metadata in HTTP headers ({@code x-amz-meta-<key>: <value>}). It lower-
 * cases keys and allows only header-token characters in them; values lose surrounding spaces, and
 * S3 decodes values in RFC 2047 form ({@code =?UTF-8?B?...?=}) before storing them and answers
 * non-ASCII values in that form. The in-process storage keeps any string, so without an encoding
 * a key "Lsn" would come back as "lsn", " x " as "x", and a value "=?UTF-8?B?YQ==?=" as "a".
 *
 * <p>The encoding leaves common metadata as it is, so that other S3 tools read it naturally:
 *
 * <ul>
 *   <li>A key is kept when it matches {@code [a-z0-9][a-z0-9._-]*} and does not start with "x-";
 *       any other key is stored as "x-" + the hex digits of its UTF-8 bytes.
 *   <li>A value is kept when it is printable ASCII without surrounding spaces and starts neither
 *       with "=?" (RFC 2047) nor with {@value #ENCODED_VALUE}; any other value is stored as
 *       {@value #ENCODED_VALUE} + the Base64 of its UTF-8 bytes, which S3 stores as it is.
 *   <li>Reading decodes both, and also RFC 2047 values (B and Q forms) that other tools wrote.
 * </ul>
 *
 * S3 limits the stored form to 2 KiB (keys plus values, UTF-8), so {@link #encode} checks that too.
 */
final class S3Metadata {
  /** S3's limit on user metadata, keys plus values in UTF-8 bytes. */
  static final int S3_MAX_METADATA_SIZE = 2 * 1024;

  private static final Pattern PLAIN_KEY = Pattern.compile("[a-z0-9][a-z0-9._-]*");
  private static final String ENCODED_KEY = "x-";
  static final String ENCODED_VALUE = "~b64~";
  private static final Pattern RFC2047 =
      Pattern.compile("=\\?([A-Za-z0-9_-]+)\\?([BbQq])\\?([^?]*)\\?=");

  private S3Metadata() {}

  /** The form stored in S3; fails with {@link LimitExceededException} when it exceeds 2 KiB. */
  static Map<String, String> encode(Map<String, String> metadata) {
    Map<String, String> out = new HashMap<>();
    long size = 0;
    for (Map.Entry<String, String> e : metadata.entrySet()) {
      String k = encodeKey(e.getKey());
      String v = encodeValue(e.getValue());
      out.put(k, v);
      size += k.getBytes(StandardCharsets.UTF_8).length + v.getBytes(StandardCharsets.UTF_8).length;
    }
    if (size > S3_MAX_METADATA_SIZE) {
      throw new LimitExceededException("metadata size as stored in S3", size, S3_MAX_METADATA_SIZE);
    }
    return out;
  }

  /** The caller's form of metadata read from S3 (keys as S3 returns them, lower case). */
  static Map<String, String> decode(Map<String, String> stored) {
    Map<String, String> out = new HashMap<>();
    for (Map.Entry<String, String> e : stored.entrySet()) {
      out.put(decodeKey(e.getKey()), decodeValue(e.getValue()));
    }
    return out;
  }

  static String encodeKey(String key) {
    if (PLAIN_KEY.matcher(key).matches() && !key.startsWith(ENCODED_KEY)) {
      return key;
    }
    return ENCODED_KEY + HexFormat.of().formatHex(key.getBytes(StandardCharsets.UTF_8));
  }

  static String decodeKey(String stored) {
    String k = stored.toLowerCase(Locale.ROOT);
    if (k.startsWith(ENCODED_KEY)) {
      try {
        return new String(
            HexFormat.of().parseHex(k.substring(ENCODED_KEY.length())), StandardCharsets.UTF_8);
      } catch (IllegalArgumentException e) {
        return k; // written by another tool: keep it as it is
      }
    }
    return k;
  }

  static String encodeValue(String value) {
    if (isPlainValue(value)) {
      return value;
    }
    return ENCODED_VALUE
        + Base64.getEncoder().encodeToString(value.getBytes(StandardCharsets.UTF_8));
  }

  static String decodeValue(String stored) {
    try {
      if (stored.startsWith(ENCODED_VALUE)) {
        return new String(
            Base64.getDecoder().decode(stored.substring(ENCODED_VALUE.length())),
            StandardCharsets.UTF_8);
      }
      Matcher m = RFC2047.matcher(stored);
      if (m.matches()) {
        Charset cs = Charset.forName(m.group(1));
        byte[] raw =
            m.group(2).equalsIgnoreCase("B")
                ? Base64.getDecoder().decode(m.group(3))
                : quotedPrintable(m.group(3));
        return new String(raw, cs);
      }
    } catch (IllegalArgumentException e) {
      // not what it looked like (a bad charset name or digits): keep it as it is
    }
    return stored;
  }

  /** RFC 2047's Q form: "_" is a space, "=XX" a byte, anything else itself. */
  private static byte[] quotedPrintable(String q) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    for (int i = 0; i < q.length(); i++) {
      char c = q.charAt(i);
      if (c == '_') {
        out.write(' ');
      } else if (c == '=' && i + 2 < q.length()) {
        out.write(HexFormat.fromHexDigits(q, i + 1, i + 3));
        i += 2;
      } else {
        out.write(c);
      }
    }
    return out.toByteArray();
  }

  private static boolean isPlainValue(String v) {
    if (v.startsWith("=?") || v.startsWith(ENCODED_VALUE)) {
      return false;
    }
    if (!v.isEmpty() && (v.charAt(0) == ' ' || v.charAt(v.length() - 1) == ' ')) {
      return false;
    }
    for (int i = 0; i < v.length(); i++) {
      char c = v.charAt(i);
      if (c < 0x20 || c > 0x7e) {
        return false;
      }
    }
    return true;
  }
}
