package io.stratus.core;

import java.util.Arrays;

/**
 * One record of a collection: its key and payload (paper 000, section 3.2). Immutable: the payload
 * is copied on the way in and out.
 */
public final class Record {
  private final Key key;
  private final byte[] payload;

  public Record(Key key, byte[] payload) {
    this.key = Args.notNull(key, "key");
    this.payload = payload.clone();
  }

  /** A record over a payload array nobody else holds (no copy). */
  static Record wrap(Key key, byte[] payload) {
    return new Record(key, payload, false);
  }

  private Record(Key key, byte[] payload, boolean copy) {
    this.key = key;
    this.payload = copy ? payload.clone() : payload;
  }

  public Key key() {
    return key;
  }

  /** A fresh copy of the payload. */
  public byte[] payload() {
    return payload.clone();
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof Record
        && key.equals(((Record) o).key)
        && Arrays.equals(payload, ((Record) o).payload);
  }

  @Override
  public int hashCode() {
    return key.hashCode() * 31 + Arrays.hashCode(payload);
  }

  @Override
  public String toString() {
    return "Record{" + key + ", " + payload.length + " bytes}";
  }
}
