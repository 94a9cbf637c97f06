package io.stratus.core;

import java.util.function.Function;

/**
 * Turns an application's values into record payloads and back, for {@link TypedCollection}.
 * Implementations MUST be thread-safe (one codec serves every request thread) and MUST decode
 * what they encoded to an equal value; decoding bytes that are not a valid encoding SHOULD throw
 * an unchecked exception naming what is wrong. Codecs for protobuf messages and JSON live in the
 * optional modules, so the core depends on neither.
 *
 * @param <T> the value type
 */
public interface Codec<T> {
  /** The payload of {@code value}. */
  byte[] encode(T value);

  /** The value of {@code payload}. */
  T decode(byte[] payload);

  /**
   * A codec from two functions, e.g. a value type's own encoding method and static decoding
   * factory: {@code Codec.of(Book::encode, Book::decode)}. Both must be thread-safe.
   */
  static <T> Codec<T> of(
      Function<? super T, byte[]> encoder, Function<byte[], ? extends T> decoder) {
    Args.notNull(encoder, "encoder");
    Args.notNull(decoder, "decoder");
    return new Codec<>() {
      @Override
      public byte[] encode(T value) {
        return encoder.apply(value);
      }

      @Override
      public T decode(byte[] payload) {
        return decoder.apply(payload);
      }
    };
  }

  /** UTF-8 strings: the simplest codec, for tests and small tools. */
  static Codec<String> utf8() {
    return Utf8Codec.INSTANCE;
  }
}

/** The UTF-8 string codec. */
enum Utf8Codec implements Codec<String> {
  INSTANCE;

  @Override
  public byte[] encode(String value) {
    return value.getBytes(java.nio.charset.StandardCharsets.UTF_8);
  }

  @Override
  public String decode(byte[] payload) {
    return new String(payload, java.nio.charset.StandardCharsets.UTF_8);
  }
}
