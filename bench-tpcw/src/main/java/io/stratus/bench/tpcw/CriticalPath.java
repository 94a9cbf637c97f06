package io.stratus.bench.tpcw;

import io.stratus.cloudapi.decorate.Call;
import io.stratus.cloudapi.decorate.CallInterceptor;
import io.stratus.cloudapi.decorate.LatencyModel;
import java.util.concurrent.CompletableFuture;
import java.util.function.Supplier;

/**
 * The cloud calls' share of a latency that no load on the machine changes: it groups calls into
 * rounds — stretches of time during which at least one call is in flight, so calls sent together
 * are one round and calls sent one after another are several — and adds up, round by round, the
 * longest latency the model gives a call of the round. On an idle machine a transaction takes about
 * its modelled latency plus its own CPU time; on a loaded one, waits for a core come on top, which
 * the wall-clock figures include and these leave out.
 *
 * <p>Counts every call that passes it, so it is meant for one client whose background work is held
 * back (as {@link ProtocolBenchmark} does): lock releases sent without waiting still overlap the
 * next transaction's first round or count as a round of their own. Thread-safe.
 */
final class CriticalPath implements CallInterceptor {
  private final LatencyModel model;
  private int inFlight;
  private long roundMaxNanos;
  private long rounds;
  private long modelledNanos;

  /** A snapshot: rounds so far, and their modelled latency in nanoseconds. */
  record Totals(long rounds, long modelledNanos) {
    Totals minus(Totals earlier) {
      return new Totals(rounds - earlier.rounds, modelledNanos - earlier.modelledNanos);
    }

    Totals plus(Totals more) {
      return new Totals(rounds + more.rounds, modelledNanos + more.modelledNanos);
    }
  }

  CriticalPath(LatencyModel model) {
    this.model = model;
  }

  @Override
  public <T> CompletableFuture<T> intercept(Call<T> call, Supplier<CompletableFuture<T>> proceed) {
    synchronized (this) {
      if (inFlight++ == 0) {
        rounds++;
        roundMaxNanos = 0;
      }
    }
    return proceed
        .get()
        .whenComplete(
            (result, failure) -> {
              long received = failure == null ? call.responseBytes(result) : 0;
              long nanos = model.latency(call.operation(), call.requestBytes(), received).toNanos();
              synchronized (this) {
                roundMaxNanos = Math.max(roundMaxNanos, nanos);
                if (--inFlight == 0) {
                  modelledNanos += roundMaxNanos;
                }
              }
            });
  }

  synchronized Totals totals() {
    return new Totals(rounds, modelledNanos);
  }
}
