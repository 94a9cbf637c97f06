package io.stratus.core;

/**
 * A unit of work that {@link Database#run} or {@link Database#read} runs in a transaction, perhaps
 * several times: it must not commit, abort or close the transaction it is given (the runner does),
 * and its effects outside the transaction should be safe to repeat, since a failed attempt is
 * thrown away and the function runs again.
 *
 * @param <T> what the work returns
 */
@FunctionalInterface
public interface TransactionFunction<T> {
  /** Does the work in {@code tx} and returns its result. */
  T apply(Transaction tx);
}
