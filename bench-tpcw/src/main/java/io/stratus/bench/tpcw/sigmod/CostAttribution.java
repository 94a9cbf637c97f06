package io.stratus.bench.tpcw.sigmod;

import io.stratus.bench.tpcw.rbe.ThreadMarkedMetering;
import io.stratus.cloudapi.decorate.Call;
import io.stratus.cloudapi.decorate.CallInterceptor;
import io.stratus.cloudapi.decorate.CloudMeter;
import io.stratus.cloudapi.decorate.MeteringInterceptor;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.function.Supplier;

/**
 * Charges every Cloud API call either to the transactions or to the background, as paper 001's
 * Table 4 splits cost into "transaction" and "checkpoint + atomic queue".
 *
 * <p>The rule is by thread: a call started on a thread while it runs a transaction ({@link
 * #charge}) is the transaction's; every other call — background checkpoints, the atomic
 * protocol's propagation and clean-up, the final drain, which Stratus never runs on a
 * transaction's thread — goes to the current background meter. Every call lands in exactly one
 * meter, so the parts add up to the whole.
 *
 * <p>Sit outermost in the decorator chain: the interceptor must see a call on the thread that
 * starts it. A call chained on another's completion (a queue sender that creates a missing queue
 * and sends again) starts on whichever thread completed the first one, so the future returned
 * here completes with the first call's mark set on that thread, and the chained call is charged
 * where the first was. Thread-safe.
 */
final class CostAttribution implements CallInterceptor {
  private final ThreadMarkedMetering marks = new ThreadMarkedMetering();
  private volatile MeteringInterceptor background;

  /** Charges unmarked calls to {@code background} until told otherwise. */
  CostAttribution(CloudMeter background) {
    chargeBackgroundTo(background);
  }

  /** From now on, calls outside transactions go to {@code meter}. */
  void chargeBackgroundTo(CloudMeter meter) {
    this.background = new MeteringInterceptor(Objects.requireNonNull(meter, "meter"));
  }

  /** Runs {@code work} on this thread, charging the calls it starts to {@code meter}. */
  <T> T charge(CloudMeter meter, Supplier<T> work) {
    MeteringInterceptor previous = marks.mark();
    marks.mark(new MeteringInterceptor(meter));
    try {
      return work.get();
    } finally {
      marks.mark(previous);
    }
  }

  @Override
  public <T> CompletableFuture<T> intercept(Call<T> call, Supplier<CompletableFuture<T>> proceed) {
    return marks.intercept(call, proceed, background);
  }
}
