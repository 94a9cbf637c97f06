package io.stratus.cloudapi.decorate;

import io.stratus.cloudapi.Operation;
import java.util.Objects;
import java.util.function.ToLongFunction;
import org.jspecify.annotations.Nullable;

/**
 * One Cloud API call as an interceptor sees it: which operation, on which target, how many payload
 * bytes it sends, and how to count the payload bytes of its result.
 *
 * <p>Payload bytes are what a provider bills as transfer and what makes a call slow: a put's
 * payload plus its user metadata (UTF-8 keys and values), message payloads, a read item's payload
 * plus metadata, received messages' payloads. URIs, headers, ids and receipt handles count as zero.
 *
 * <p>Immutable apart from a memo of the last sized result, so that several interceptors sizing the
 * same result (which may copy message payloads) pay once. Thread-safe.
 *
 * @param <T> the call's result type
 */
public final class Call<T> {
  private final Operation operation;
  private final String target;
  private final long requestBytes;
  private final ToLongFunction<? super T> responseSizer;
  private volatile @Nullable Sized memo;

  private Call(
      Operation operation,
      @Nullable String target,
      long requestBytes,
      ToLongFunction<? super T> responseSizer) {
    this.operation = Objects.requireNonNull(operation, "operation");
    this.target = target == null ? "" : target;
    if (requestBytes < 0) {
      throw new IllegalArgumentException("requestBytes must not be negative: " + requestBytes);
    }
    this.requestBytes = requestBytes;
    this.responseSizer = Objects.requireNonNull(responseSizer, "responseSizer");
  }

  /**
   * A call description; the wrappers make these, tests and custom callers may too.
   *
   * @param target the URI, queue URI, URI prefix, machine id or image the call is about; null is
   *     taken as ""
   * @param responseSizer counts a (non-null) result's payload bytes
   */
  public static <T> Call<T> of(
      Operation operation,
      @Nullable String target,
      long requestBytes,
      ToLongFunction<? super T> responseSizer) {
    return new Call<>(operation, target, requestBytes, responseSizer);
  }

  /** A call that sends {@code requestBytes} and whose result carries no payload. */
  public static <T> Call<T> of(Operation operation, @Nullable String target, long requestBytes) {
    return new Call<>(operation, target, requestBytes, r -> 0L);
  }

  public Operation operation() {
    return operation;
  }

  /** The URI (or queue URI, prefix, machine id) the call is about; never null. */
  public String target() {
    return target;
  }

  /** Payload bytes sent with the request. */
  public long requestBytes() {
    return requestBytes;
  }

  /** Payload bytes of {@code result}; zero for a null result. */
  public long responseBytes(T result) {
    if (result == null) {
      return 0;
    }
    Sized m = memo;
    if (m != null && m.result == result) {
      return m.bytes;
    }
    long bytes = responseSizer.applyAsLong(result);
    memo = new Sized(result, bytes);
    return bytes;
  }

  @Override
  public String toString() {
    return operation + "(" + target + ", " + requestBytes + " bytes)";
  }

  /** A result and its size, published together through one volatile field. */
  private static final class Sized {
    final Object result;
    final long bytes;

    Sized(Object result, long bytes) {
      this.result = result;
      this.bytes = bytes;
    }
  }
}
