package io.stratus.core.query;

import io.stratus.InvalidRequestException;
import io.stratus.core.Key;
import io.stratus.core.KeyRange;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Arrays;
import java.util.Base64;
import java.util.Optional;
import org.jspecify.annotations.Nullable;

/**
 * Where the next page of a query starts: an opaque token naming the last key a page returned and
 * the query that returned it. {@link #toString()} gives it as URL-safe text (for a web page's
 * "next" link), {@link #parse} reads it back; {@link Query#after} resumes the query from it, in
 * the same transaction or in any later one.
 *
 * <p>A continuation resumes strictly after that key; it holds no snapshot and no lock. So a
 * record that existed, in the range, from the first page to the last is returned exactly once
 * (an index query's record: with the same search key throughout); records created or deleted
 * between two pages appear when they lie after the resumed key, as the later transaction sees
 * them. Immutable and thread-safe.
 */
public final class Continuation {
  private static final byte FORMAT = 1;
  private static final int FINGERPRINT_BYTES = 8;

  private final byte[] fingerprint;
  private final byte[] position;

  private Continuation(byte[] fingerprint, byte[] position) {
    this.fingerprint = fingerprint;
    this.position = position;
  }

  /**
   * The continuation of {@code query} after the entry at {@code position}: the key a page read
   * last (for an index query, the index entry's key). Queries make these; an application passes
   * back the ones it was given.
   */
  public static Continuation of(Query query, Key position) {
    if (query == null || position == null) {
      throw new InvalidRequestException("a continuation needs its query and its position");
    }
    return new Continuation(fingerprint(query), position.toBytes());
  }

  /**
   * Reads a token made by {@link #toString()}.
   *
   * @throws InvalidRequestException when {@code token} is not one
   */
  public static Continuation parse(String token) {
    if (token == null) {
      throw new InvalidRequestException("a continuation token must not be null");
    }
    byte[] b;
    try {
      b = Base64.getUrlDecoder().decode(token);
    } catch (IllegalArgumentException e) {
      throw notAToken(token);
    }
    if (b.length < 1 + FINGERPRINT_BYTES || b[0] != FORMAT) {
      throw notAToken(token);
    }
    return new Continuation(
        Arrays.copyOfRange(b, 1, 1 + FINGERPRINT_BYTES),
        Arrays.copyOfRange(b, 1 + FINGERPRINT_BYTES, b.length));
  }

  private static InvalidRequestException notAToken(String token) {
    return new InvalidRequestException(
        "'"
            + token
            + "' is not a continuation token; pass back the token a query page returned, unchanged");
  }

  /**
   * The key after which {@code query} resumes.
   *
   * @throws InvalidRequestException when this continuation was made by another query
   */
  public Key position(Query query) {
    if (!Arrays.equals(fingerprint, fingerprint(query))) {
      throw new InvalidRequestException(
          "the continuation "
              + this
              + " was returned by another query than "
              + query
              + " (another collection, index, condition or order); resume the query that returned"
              + " it");
    }
    return Key.ofBytes(position);
  }

  /** The token: URL-safe base64 text that {@link #parse} reads back. */
  @Override
  public String toString() {
    ByteBuffer b = ByteBuffer.allocate(1 + FINGERPRINT_BYTES + position.length);
    b.put(FORMAT).put(fingerprint).put(position);
    return Base64.getUrlEncoder().withoutPadding().encodeToString(b.array());
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof Continuation c
        && Arrays.equals(fingerprint, c.fingerprint)
        && Arrays.equals(position, c.position);
  }

  @Override
  public int hashCode() {
    return 31 * Arrays.hashCode(fingerprint) + Arrays.hashCode(position);
  }

  /** What identifies a query across pages: all of it but its limit and continuation. */
  private static byte[] fingerprint(Query q) {
    MessageDigest d;
    try {
      d = MessageDigest.getInstance("SHA-256");
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("every Java platform has SHA-256", e);
    }
    field(d, q.collection().getBytes(StandardCharsets.UTF_8));
    field(d, q.index().map(i -> i.getBytes(StandardCharsets.UTF_8)).orElse(null));
    KeyRange r = q.range();
    bound(d, r.lower(), r.lowerInclusive());
    bound(d, r.upper(), r.upperInclusive());
    d.update((byte) q.order().ordinal());
    return Arrays.copyOf(d.digest(), FINGERPRINT_BYTES);
  }

  private static void bound(MessageDigest d, Optional<Key> key, boolean inclusive) {
    field(d, key.map(Key::toBytes).orElse(null));
    d.update((byte) (inclusive ? 1 : 0));
  }

  /** A length-prefixed field, so that no two different queries hash the same bytes. */
  private static void field(MessageDigest d, byte @Nullable [] value) {
    if (value == null) {
      d.update(ByteBuffer.allocate(4).putInt(-1).array());
      return;
    }
    d.update(ByteBuffer.allocate(4).putInt(value.length).array());
    d.update(value);
  }
}
