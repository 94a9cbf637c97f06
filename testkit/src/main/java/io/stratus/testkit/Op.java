package io.stratus.testkit;

import java.util.Objects;
import java.util.Optional;
import org.jspecify.annotations.Nullable;

/**
 * One operation of a recorded transaction: a read of a key with what it observed, a write of a
 * value, or a delete. Keys and values are strings; a test encodes what it needs. Every write value
 * is unique within a history, so a read names the write it saw.
 */
public sealed interface Op permits Op.Read, Op.Write, Op.Delete {
  /** The key this operation touched. */
  String key();

  /** A read of {@code key} that observed {@code value}, or an absent key if null. */
  static Read read(String key, @Nullable String valueOrNull) {
    return new Read(key, Optional.ofNullable(valueOrNull));
  }

  /** A write of {@code value} to {@code key}. */
  static Write write(String key, String value) {
    return new Write(key, value);
  }

  /** A delete of {@code key}. */
  static Delete delete(String key) {
    return new Delete(key);
  }

  /** A read; {@code value} is empty when the key was absent. */
  record Read(String key, Optional<String> value) implements Op {
    public Read {
      Objects.requireNonNull(key, "key");
      Objects.requireNonNull(value, "value");
    }

    @Override
    public String toString() {
      return "r(" + key + ")=" + value.orElse("<absent>");
    }
  }

  /** A write of a value that no other write of the history uses. */
  record Write(String key, String value) implements Op {
    public Write {
      Objects.requireNonNull(key, "key");
      Objects.requireNonNull(value, "value");
    }

    @Override
    public String toString() {
      return "w(" + key + ")=" + value;
    }
  }

  /** A delete; reads cannot tell one delete from another, so checkers treat absence leniently. */
  record Delete(String key) implements Op {
    public Delete {
      Objects.requireNonNull(key, "key");
    }

    @Override
    public String toString() {
      return "d(" + key + ")";
    }
  }
}
