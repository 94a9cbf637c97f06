package io.stratus.cloudapi.decorate;

/**
 * What a {@link CloudMeter} counted for one operation (or a total).
 *
 * @param calls calls that passed the meter, failed ones included
 * @param failures calls whose future failed
 * @param bytesSent payload bytes sent (see {@link Call#requestBytes()})
 * @param bytesReceived payload bytes received by successful calls (see {@link Call#responseBytes})
 * @param requestUnits64KiB the sum over calls of {@code max(1, ceil((sent + received) / 64 KiB))}:
 *     how SQS bills a request whose payload exceeds 64 KiB as several requests
 */
public record OperationStats(
    long calls, long failures, long bytesSent, long bytesReceived, long requestUnits64KiB) {
  /** No calls. */
  public static final OperationStats ZERO = new OperationStats(0, 0, 0, 0, 0);

  public OperationStats plus(OperationStats o) {
    return new OperationStats(
        calls + o.calls,
        failures + o.failures,
        bytesSent + o.bytesSent,
        bytesReceived + o.bytesReceived,
        requestUnits64KiB + o.requestUnits64KiB);
  }

  public OperationStats minus(OperationStats o) {
    return new OperationStats(
        calls - o.calls,
        failures - o.failures,
        bytesSent - o.bytesSent,
        bytesReceived - o.bytesReceived,
        requestUnits64KiB - o.requestUnits64KiB);
  }
}
