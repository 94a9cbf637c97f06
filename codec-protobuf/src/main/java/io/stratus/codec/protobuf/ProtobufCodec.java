package io.stratus.codec.protobuf;

import com.google.protobuf.InvalidProtocolBufferException;
import com.google.protobuf.Message;
import com.google.protobuf.Parser;
import io.stratus.CodecException;
import io.stratus.core.Codec;
import java.util.Objects;

/**
 * Stores protobuf messages in their binary wire form: compact, fast, and compatible across
 * versions of the message by protobuf's own rules (added fields are skipped by older readers).
 * Thread-safe: protobuf parsers and messages are.
 *
 * @param <T> the message type
 */
public final class ProtobufCodec<T extends Message> implements Codec<T> {
  private final Parser<T> parser;
  private final String typeName;

  private ProtobufCodec(Parser<T> parser, String typeName) {
    this.parser = parser;
    this.typeName = typeName;
  }

  /** A codec of the type of {@code prototype} (usually {@code MyMessage.getDefaultInstance()}). */
  @SuppressWarnings("unchecked")
  public static <T extends Message> ProtobufCodec<T> of(T prototype) {
    Objects.requireNonNull(prototype, "prototype");
    return new ProtobufCodec<>(
        (Parser<T>) prototype.getParserForType(), prototype.getDescriptorForType().getFullName());
  }

  @Override
  public byte[] encode(T value) {
    return Objects.requireNonNull(value, "value").toByteArray();
  }

  @Override
  public T decode(byte[] payload) {
    try {
      return parser.parseFrom(payload);
    } catch (InvalidProtocolBufferException e) {
      throw new CodecException(
          "a payload of "
              + payload.length
              + " bytes is not a "
              + typeName
              + " message: "
              + e.getMessage(),
          e);
    }
  }

  @Override
  public String toString() {
    return "ProtobufCodec{" + typeName + "}";
  }
}
