package io.stratus.cloudapi.decorate;

import io.stratus.cloudapi.AdvancedQueueService;
import io.stratus.cloudapi.CloudServices;
import io.stratus.cloudapi.CounterService;
import io.stratus.cloudapi.IndexService;
import io.stratus.cloudapi.LockService;
import io.stratus.cloudapi.MachineReservationService;
import io.stratus.cloudapi.SimpleQueueService;
import io.stratus.cloudapi.StorageService;
import io.stratus.cloudapi.SupportsConditionalPut;
import io.stratus.cloudapi.SupportsIdempotentIncrement;
import io.stratus.cloudapi.SupportsIntentionLocks;
import io.stratus.cloudapi.SupportsLockStamps;
import io.stratus.cloudapi.SupportsQueueInspection;
import io.stratus.cloudapi.SupportsVisibilityChange;
import java.util.List;
import java.util.Objects;

/**
 * Wraps any implementation of the Cloud API services so that every call passes through a list of
 * {@link CallInterceptor}s, the first one outermost.
 *
 * <p>Why one mechanism: metering, latency and faults each need to see every call of every
 * service; writing them once as interceptors over one set of forwarding wrappers keeps each
 * concern in one class and makes every combination possible. A suggested order for simulations is
 * {@code wrap(services, latency, faults, metering)}: every call (failed ones too) takes a round
 * trip, the fault interceptor decides whether the call reaches the service, and the meter counts
 * what reached it.
 *
 * <p>What the wrappers guarantee: every method that is a call goes through the interceptors
 * (default methods such as {@link StorageService#listAll} too, since they call intercepted
 * methods); methods that are not calls ({@code limits()}, {@code isStronglyConsistent()}) are
 * forwarded; a synchronous exception of a service or interceptor becomes a failed future; and the
 * wrapped storage implements {@link SupportsConditionalPut} exactly when the original does, the
 * wrapped simple queues {@link SupportsQueueInspection} and {@link SupportsVisibilityChange}
 * each exactly when the originals do, the
 * wrapped locks {@link SupportsIntentionLocks} and {@link SupportsLockStamps} each exactly when the
 * originals do, and the wrapped
 * counters {@link SupportsIdempotentIncrement} exactly when the originals do.
 */
public final class Decorators {
  private Decorators() {}

  /**
   * A bundle whose services are {@code services}' services wrapped with {@code interceptors}. A
   * service missing from {@code services} stays missing. Closing the new bundle closes {@code
   * services} (once, with its extra resources).
   */
  public static CloudServices wrap(CloudServices services, CallInterceptor... interceptors) {
    Objects.requireNonNull(services, "services");
    InterceptorChain chain = chain(interceptors);
    CloudServices.Builder b = CloudServices.builder();
    if (services.hasStorage()) {
      b.storage(storage(services.storage(), chain, false));
    }
    if (services.hasSimpleQueues()) {
      b.simpleQueues(simpleQueues(services.simpleQueues(), chain, false));
    }
    if (services.hasAdvancedQueues()) {
      b.advancedQueues(new InterceptedAdvancedQueues(services.advancedQueues(), chain, false));
    }
    if (services.hasLocks()) {
      b.locks(locks(services.locks(), chain, false));
    }
    if (services.hasCounters()) {
      b.counters(counters(services.counters(), chain, false));
    }
    if (services.hasMachines()) {
      b.machines(new InterceptedMachines(services.machines(), chain, false));
    }
    if (services.hasIndex()) {
      b.index(new InterceptedIndex(services.index(), chain, false));
    }
    return b.closeWith(services).build();
  }

  /**
   * {@code storage} with its calls intercepted; the result implements {@link
   * SupportsConditionalPut} exactly when {@code storage} does. Closing it closes {@code storage}.
   */
  public static StorageService wrap(StorageService storage, CallInterceptor... interceptors) {
    return storage(Objects.requireNonNull(storage, "storage"), chain(interceptors), true);
  }

  /**
   * {@code queues} with their calls intercepted; the result implements {@link
   * SupportsQueueInspection} and {@link SupportsVisibilityChange} each exactly when {@code queues}
   * do. Closing it closes {@code queues}.
   */
  public static SimpleQueueService wrap(
      SimpleQueueService queues, CallInterceptor... interceptors) {
    return simpleQueues(Objects.requireNonNull(queues, "queues"), chain(interceptors), true);
  }

  /** {@code queues} with their calls intercepted; closing the result closes {@code queues}. */
  public static AdvancedQueueService wrap(
      AdvancedQueueService queues, CallInterceptor... interceptors) {
    return new InterceptedAdvancedQueues(
        Objects.requireNonNull(queues, "queues"), chain(interceptors), true);
  }

  /**
   * {@code locks} with their calls intercepted; the result implements {@link
   * SupportsIntentionLocks} and {@link SupportsLockStamps} each exactly when {@code locks} do.
   * Closing it closes {@code locks}.
   */
  public static LockService wrap(LockService locks, CallInterceptor... interceptors) {
    return locks(Objects.requireNonNull(locks, "locks"), chain(interceptors), true);
  }

  /**
   * {@code counters} with their calls intercepted; the result implements {@link
   * SupportsIdempotentIncrement} exactly when {@code counters} do. Closing it closes {@code
   * counters}.
   */
  public static CounterService wrap(CounterService counters, CallInterceptor... interceptors) {
    return counters(Objects.requireNonNull(counters, "counters"), chain(interceptors), true);
  }

  /** {@code machines} with their calls intercepted; closing the result closes {@code machines}. */
  public static MachineReservationService wrap(
      MachineReservationService machines, CallInterceptor... interceptors) {
    return new InterceptedMachines(
        Objects.requireNonNull(machines, "machines"), chain(interceptors), true);
  }

  /** {@code index} with its calls intercepted; closing the result closes {@code index}. */
  public static IndexService wrap(IndexService index, CallInterceptor... interceptors) {
    return new InterceptedIndex(Objects.requireNonNull(index, "index"), chain(interceptors), true);
  }

  private static StorageService storage(
      StorageService storage, InterceptorChain chain, boolean closesDelegate) {
    if (storage instanceof SupportsConditionalPut) {
      return new InterceptedConditionalStorage(
          (SupportsConditionalPut) storage, chain, closesDelegate);
    }
    return new InterceptedStorage(storage, chain, closesDelegate);
  }

  private static SimpleQueueService simpleQueues(
      SimpleQueueService queues, InterceptorChain chain, boolean closesDelegate) {
    return InterceptedSimpleQueues.of(queues, chain, closesDelegate);
  }

  private static LockService locks(
      LockService locks, InterceptorChain chain, boolean closesDelegate) {
    return InterceptedLocks.of(locks, chain, closesDelegate);
  }

  private static CounterService counters(
      CounterService counters, InterceptorChain chain, boolean closesDelegate) {
    if (counters instanceof SupportsIdempotentIncrement) {
      return new InterceptedIdempotentCounters(
          (SupportsIdempotentIncrement) counters, chain, closesDelegate);
    }
    return new InterceptedCounters(counters, chain, closesDelegate);
  }

  private static InterceptorChain chain(CallInterceptor[] interceptors) {
    Objects.requireNonNull(interceptors, "interceptors");
    return new InterceptorChain(List.of(interceptors));
  }
}
