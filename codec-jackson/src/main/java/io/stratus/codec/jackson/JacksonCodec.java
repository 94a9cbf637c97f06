package io.stratus.codec.jackson;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.JavaType;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.ObjectReader;
import com.fasterxml.jackson.databind.ObjectWriter;
import io.stratus.CodecException;
import io.stratus.core.Codec;
import java.io.IOException;
import java.util.Objects;

/**
 * Stores values as JSON (UTF-8) through Jackson. JSON is larger than a binary encoding but
 * readable with any tool and tolerant of added fields, which suits records whose type evolves.
 * The reader and writer are made once per codec (Jackson's are immutable and thread-safe), so
 * one codec serves every thread.
 *
 * @param <T> the value type
 */
public final class JacksonCodec<T> implements Codec<T> {
  private static final ObjectMapper DEFAULT_MAPPER = new ObjectMapper();

  private final JavaType type;
  private final ObjectReader reader;
  private final ObjectWriter writer;

  private JacksonCodec(ObjectMapper mapper, JavaType type) {
    this.type = type;
    this.reader = mapper.readerFor(type);
    this.writer = mapper.writerFor(type);
  }

  /** A codec of {@code type} with a plain {@link ObjectMapper}. */
  public static <T> JacksonCodec<T> of(Class<T> type) {
    return of(DEFAULT_MAPPER, type);
  }

  /** A codec of {@code type} with the application's configured {@code mapper}. */
  public static <T> JacksonCodec<T> of(ObjectMapper mapper, Class<T> type) {
    Objects.requireNonNull(mapper, "mapper");
    return new JacksonCodec<>(mapper, mapper.constructType(Objects.requireNonNull(type, "type")));
  }

  /** A codec of a generic type, e.g. {@code new TypeReference<List<Item>>() {}}. */
  public static <T> JacksonCodec<T> of(ObjectMapper mapper, TypeReference<T> type) {
    Objects.requireNonNull(mapper, "mapper");
    return new JacksonCodec<>(mapper, mapper.constructType(Objects.requireNonNull(type, "type")));
  }

  @Override
  public byte[] encode(T value) {
    try {
      return writer.writeValueAsBytes(value);
    } catch (IOException e) {
      throw new CodecException("cannot write a " + type + " as JSON: " + brief(e), e);
    }
  }

  @Override
  public T decode(byte[] payload) {
    try {
      return reader.readValue(payload);
    } catch (IOException e) {
      throw new CodecException(
          "a payload of " + payload.length + " bytes is not a JSON " + type + ": " + brief(e), e);
    }
  }

  /** Jackson's message without the location dump (payloads may be large). */
  private static String brief(IOException e) {
    String m = e instanceof JsonProcessingException j ? j.getOriginalMessage() : e.getMessage();
    return m == null ? e.getClass().getSimpleName() : m;
  }

  @Override
  public String toString() {
    return "JacksonCodec{" + type + "}";
  }
}
