package io.stratus.cloudapi.decorate;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.stratus.cloudapi.AdvancedQueueService;
import io.stratus.cloudapi.CloudFutures;
import io.stratus.cloudapi.CloudLimits;
import io.stratus.cloudapi.CloudServices;
import io.stratus.cloudapi.CounterService;
import io.stratus.cloudapi.IndexItem;
import io.stratus.cloudapi.IndexQuery;
import io.stratus.cloudapi.IndexService;
import io.stratus.cloudapi.ListPage;
import io.stratus.cloudapi.LockService;
import io.stratus.cloudapi.MachineReservationService;
import io.stratus.cloudapi.Operation;
import io.stratus.cloudapi.QueueMessage;
import io.stratus.cloudapi.ServiceUnavailableException;
import io.stratus.cloudapi.SimpleQueueService;
import io.stratus.cloudapi.StorageService;
import io.stratus.cloudapi.StoredItem;
import io.stratus.cloudapi.SupportsConditionalPut;
import io.stratus.cloudapi.SupportsIdempotentIncrement;
import io.stratus.cloudapi.SupportsIntentionLocks;
import io.stratus.cloudapi.SupportsLockStamps;
import io.stratus.cloudapi.SupportsQueueInspection;
import io.stratus.cloudapi.SupportsVisibilityChange;
import java.lang.reflect.Method;
import java.lang.reflect.Proxy;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutionException;
import java.util.function.Supplier;
import org.junit.jupiter.api.Test;

class InterceptionTest {
  private static final String TARGET = "t/x";
  private static final byte[] PAYLOAD = {1, 2, 3};
  private static final Map<String, String> METADATA = Map.of("k", "vv");

  /** An index item of 4 bytes: name "n", attribute "a", value "vv". */
  private static final IndexItem ITEM = IndexItem.of("n", "a", "vv");

  /** Simple queues with every optional ability. */
  interface FullQueues extends SupportsQueueInspection, SupportsVisibilityChange {}

  interface FullLocks extends SupportsIntentionLocks, SupportsLockStamps {}

  /** The recorder of the service {@link #wrapAny} wrapped last. */
  private RecordingInterceptor currentRecorder;

  /** A service whose every method records its name and answers with a harmless value. */
  private static <S> S fake(Class<S> type, List<String> made) {
    return type.cast(
        Proxy.newProxyInstance(
            type.getClassLoader(),
            new Class<?>[] {type},
            (proxy, m, args) -> {
              switch (m.getName()) {
                case "toString":
                  return "fake " + type.getSimpleName();
                case "hashCode":
                  return System.identityHashCode(proxy);
                case "equals":
                  return proxy == args[0];
                default:
                  break;
              }
              made.add(m.getName());
              switch (m.getName()) {
                case "limits":
                  return CloudLimits.aws();
                case "isStronglyConsistent":
                  return true;
                case "close":
                  return null;
                case "list":
                  return CompletableFuture.completedFuture(
                      new ListPage(List.of(), Optional.empty()));
                default:
                  return CompletableFuture.completedFuture(null);
              }
            }));
  }

  private static Object dummy(Class<?> type) {
    if (type == String.class) {
      return TARGET;
    } else if (type == byte[].class) {
      return PAYLOAD.clone();
    } else if (type == Map.class) {
      return METADATA;
    } else if (type == Optional.class) {
      return Optional.empty();
    } else if (type == int.class) {
      return 1;
    } else if (type == long.class) {
      return 1L;
    } else if (type == Duration.class) {
      return Duration.ofSeconds(1);
    } else if (type == Instant.class) {
      return Instant.EPOCH;
    } else if (type == List.class) {
      return List.of(PAYLOAD.clone(), PAYLOAD.clone());
    } else if (type == IndexItem.class) {
      return ITEM;
    } else if (type == IndexQuery.class) {
      return IndexQuery.on("a");
    } else if (type == Set.class) {
      return Set.of("a");
    }
    throw new AssertionError("no dummy for " + type);
  }

  private static boolean isCall(Method m) {
    return m.getReturnType() == CompletableFuture.class && !m.isDefault();
  }

  @Test
  void everyCallOfEveryServiceGoesThroughTheInterceptorAndIsForwardedOnce() throws Exception {
    Set<Operation> seen = EnumSet.noneOf(Operation.class);
    List<Class<?>> services =
        List.of(
            SupportsConditionalPut.class,
            FullQueues.class,
            AdvancedQueueService.class,
            FullLocks.class,
            SupportsIdempotentIncrement.class,
            MachineReservationService.class,
            IndexService.class);
    int checkedMethods = 0;
    for (Class<?> type : services) {
      List<String> made = new CopyOnWriteArrayList<>();
      Object wrapped = wrapAny(type, fake(type, made));
      for (Method m : type.getMethods()) {
        if (!isCall(m)) {
          continue;
        }
        RecordingInterceptor rec = currentRecorder;
        rec.calls.clear();
        made.clear();
        Object[] args = new Object[m.getParameterCount()];
        for (int i = 0; i < args.length; i++) {
          Class<?> p = m.getParameterTypes()[i];
          if (type == IndexService.class && p == List.class) {
            args[i] = m.getName().equals("putBatch") ? List.of(ITEM, ITEM) : List.of("n", "m");
          } else {
            args[i] = dummy(p);
          }
        }
        Object result = m.invoke(wrapped, args);
        assertThat(result).as(m.toString()).isInstanceOf(CompletableFuture.class);
        assertThat((CompletableFuture<?>) result).as(m.toString()).isCompleted();
        assertThat(made).as("forwarded " + m).containsExactly(m.getName());
        assertThat(rec.calls).as("intercepted " + m).hasSize(1);
        Call<?> call = rec.calls.get(0);
        seen.add(call.operation());
        assertThat(call.operation().service().name())
            .as(m.toString())
            .isEqualTo(expectedService(type).name());
        if (m.getParameterCount() > 0 && m.getParameterTypes()[0] == String.class) {
          assertThat(call.target()).as(m.toString()).isEqualTo(TARGET);
        }
        long expectedBytes = 0;
        for (Object a : args) {
          if (a instanceof byte[]) {
            expectedBytes += ((byte[]) a).length;
          } else if (a == METADATA) {
            expectedBytes += 3; // "k" + "vv"
          } else if (a instanceof List && m.getName().equals("sendBatch")) {
            expectedBytes += 2 * PAYLOAD.length; // receipt handles of deleteBatch count 0
          } else if (a == ITEM) {
            expectedBytes += 4;
          } else if (a instanceof List && m.getName().equals("putBatch")) {
            expectedBytes += 2 * 4; // item names of an index deleteBatch count 0
          }
        }
        assertThat(call.requestBytes()).as(m.toString()).isEqualTo(expectedBytes);
        checkedMethods++;
      }
    }
    assertThat(seen).containsExactlyInAnyOrderElementsOf(EnumSet.allOf(Operation.class));
    // 49 operations; three receives share one, and so do the two increments, the two shared
    // acquires (plain and stamped) and the two releases
    assertThat(checkedMethods).isEqualTo(54);
  }

  private Object wrapAny(Class<?> type, Object service) {
    currentRecorder = new RecordingInterceptor();
    if (service instanceof StorageService) {
      return Decorators.wrap((StorageService) service, currentRecorder);
    } else if (service instanceof SimpleQueueService) {
      return Decorators.wrap((SimpleQueueService) service, currentRecorder);
    } else if (service instanceof AdvancedQueueService) {
      return Decorators.wrap((AdvancedQueueService) service, currentRecorder);
    } else if (service instanceof LockService) {
      return Decorators.wrap((LockService) service, currentRecorder);
    } else if (service instanceof CounterService) {
      return Decorators.wrap((CounterService) service, currentRecorder);
    } else if (service instanceof MachineReservationService) {
      return Decorators.wrap((MachineReservationService) service, currentRecorder);
    } else if (service instanceof IndexService) {
      return Decorators.wrap((IndexService) service, currentRecorder);
    }
    throw new AssertionError(type);
  }

  private static Operation.Service expectedService(Class<?> type) {
    if (StorageService.class.isAssignableFrom(type)) {
      return Operation.Service.STORAGE;
    } else if (SimpleQueueService.class.isAssignableFrom(type)) {
      return Operation.Service.SIMPLE_QUEUE;
    } else if (type == AdvancedQueueService.class) {
      return Operation.Service.ADVANCED_QUEUE;
    } else if (LockService.class.isAssignableFrom(type)) {
      return Operation.Service.LOCK;
    } else if (CounterService.class.isAssignableFrom(type)) {
      return Operation.Service.COUNTER;
    } else if (type == IndexService.class) {
      return Operation.Service.INDEX;
    }
    return Operation.Service.MACHINE;
  }

  @Test
  void methodsThatAreNotCallsAreForwardedWithoutInterception() {
    List<String> made = new ArrayList<>();
    RecordingInterceptor rec = new RecordingInterceptor();
    StorageService storage = Decorators.wrap(fake(StorageService.class, made), rec);
    SimpleQueueService queues = Decorators.wrap(fake(SimpleQueueService.class, made), rec);
    AdvancedQueueService advanced = Decorators.wrap(fake(AdvancedQueueService.class, made), rec);

    assertThat(storage.limits()).isSameAs(CloudLimits.aws());
    assertThat(storage.isStronglyConsistent()).isTrue();
    assertThat(queues.limits()).isSameAs(CloudLimits.aws());
    assertThat(advanced.limits()).isSameAs(CloudLimits.aws());

    assertThat(made).containsExactly("limits", "isStronglyConsistent", "limits", "limits");
    assertThat(rec.calls).isEmpty();
  }

  @Test
  void defaultListAllIsInterceptedPageByPage() {
    FakeStorage store = new FakeStorage();
    for (int i = 0; i < 2500; i++) {
      store.store(String.format("p/%05d", i), new byte[0], Map.of());
    }
    RecordingInterceptor rec = new RecordingInterceptor();
    StorageService storage = Decorators.wrap(store, rec);

    assertThat(storage.listAll("p/").join()).hasSize(2500);

    assertThat(rec.calls).hasSize(3); // 1,000 per page
    assertThat(rec.calls)
        .allSatisfy(c -> assertThat(c.operation()).isEqualTo(Operation.STORAGE_LIST));
  }

  @Test
  void conditionalPutIsPreservedExactlyWhenTheWrappedStorageHasIt() {
    RecordingInterceptor rec = new RecordingInterceptor();
    StorageService conditional = Decorators.wrap(new FakeConditionalStorage(), rec);
    StorageService plain = Decorators.wrap(new FakeStorage(), rec);

    assertThat(conditional).isInstanceOf(SupportsConditionalPut.class);
    assertThat(plain).isNotInstanceOf(SupportsConditionalPut.class);
    // Through several layers of decoration too.
    assertThat(Decorators.wrap(Decorators.wrap(conditional, rec), rec))
        .isInstanceOf(SupportsConditionalPut.class);
    assertThat(Decorators.wrap(Decorators.wrap(plain, rec), rec))
        .isNotInstanceOf(SupportsConditionalPut.class);

    CloudServices withConditional =
        Decorators.wrap(CloudServices.builder().storage(new FakeConditionalStorage()).build(), rec);
    CloudServices withoutConditional =
        Decorators.wrap(CloudServices.builder().storage(new FakeStorage()).build(), rec);
    assertThat(withConditional.storage()).isInstanceOf(SupportsConditionalPut.class);
    assertThat(withoutConditional.storage()).isNotInstanceOf(SupportsConditionalPut.class);

    SupportsConditionalPut cp = SupportsConditionalPut.of(conditional);
    rec.calls.clear();
    cp.putIfAbsent("a", PAYLOAD, Map.of()).join();
    assertThat(rec.calls)
        .extracting(Call::operation)
        .containsExactly(Operation.STORAGE_PUT_IF_ABSENT);
  }

  @Test
  void idempotentIncrementIsPreservedExactlyWhenTheWrappedCountersHaveIt() {
    RecordingInterceptor rec = new RecordingInterceptor();
    List<String> made = new ArrayList<>();
    CounterService idempotent = Decorators.wrap(fake(SupportsIdempotentIncrement.class, made), rec);
    CounterService plain = Decorators.wrap(fake(CounterService.class, made), rec);

    assertThat(idempotent).isInstanceOf(SupportsIdempotentIncrement.class);
    assertThat(plain).isNotInstanceOf(SupportsIdempotentIncrement.class);
    assertThat(Decorators.wrap(Decorators.wrap(idempotent, rec), rec))
        .isInstanceOf(SupportsIdempotentIncrement.class);
    assertThat(Decorators.wrap(Decorators.wrap(plain, rec), rec))
        .isNotInstanceOf(SupportsIdempotentIncrement.class);
    CloudServices bundle =
        Decorators.wrap(
            CloudServices.builder().counters(fake(SupportsIdempotentIncrement.class, made)).build(),
            rec);
    assertThat(SupportsIdempotentIncrement.of(bundle.counters())).isNotNull();
    assertThat(SupportsIdempotentIncrement.of(plain)).isNull();

    rec.calls.clear();
    made.clear();
    SupportsIdempotentIncrement.of(idempotent).increment("c", "r").join();
    assertThat(rec.calls).extracting(Call::operation).containsExactly(Operation.COUNTER_INCREMENT);
    assertThat(made).containsExactly("increment");
  }

  /** Each of the two queue abilities is kept exactly when the wrapped queues have it. */
  @Test
  void queueAbilitiesArePreservedExactlyAsTheWrappedQueuesHaveThem() {
    RecordingInterceptor rec = new RecordingInterceptor();
    List<String> made = new ArrayList<>();
    List<Class<? extends SimpleQueueService>> kinds =
        List.of(
            SimpleQueueService.class,
            SupportsQueueInspection.class,
            SupportsVisibilityChange.class,
            FullQueues.class);
    for (Class<? extends SimpleQueueService> kind : kinds) {
      SimpleQueueService wrapped =
          Decorators.wrap(Decorators.wrap(fake(kind, made), rec), new RecordingInterceptor());
      assertThat(wrapped instanceof SupportsQueueInspection)
          .as("inspection through %s", kind.getSimpleName())
          .isEqualTo(SupportsQueueInspection.class.isAssignableFrom(kind));
      assertThat(wrapped instanceof SupportsVisibilityChange)
          .as("visibility change through %s", kind.getSimpleName())
          .isEqualTo(SupportsVisibilityChange.class.isAssignableFrom(kind));
      CloudServices bundle =
          Decorators.wrap(CloudServices.builder().simpleQueues(fake(kind, made)).build(), rec);
      assertThat(SupportsVisibilityChange.of(bundle.simpleQueues()) != null)
          .isEqualTo(SupportsVisibilityChange.class.isAssignableFrom(kind));
    }

    SupportsVisibilityChange full =
        SupportsVisibilityChange.of(Decorators.wrap(fake(FullQueues.class, made), rec));
    rec.calls.clear();
    made.clear();
    full.changeVisibility("q", "h", Duration.ZERO).join();
    full.changeVisibilityBatch("q", List.of("h"), Duration.ZERO).join();
    assertThat(rec.calls)
        .extracting(Call::operation)
        .containsExactly(
            Operation.QUEUE_CHANGE_VISIBILITY, Operation.QUEUE_CHANGE_VISIBILITY_BATCH);
    assertThat(made).containsExactly("changeVisibility", "changeVisibilityBatch");
  }

  @Test
  void intentionLocksArePreservedExactlyWhenTheWrappedLocksHaveThem() {
    RecordingInterceptor rec = new RecordingInterceptor();
    List<String> made = new ArrayList<>();
    LockService intentions = Decorators.wrap(fake(SupportsIntentionLocks.class, made), rec);
    LockService plain = Decorators.wrap(fake(LockService.class, made), rec);

    assertThat(intentions).isInstanceOf(SupportsIntentionLocks.class);
    assertThat(plain).isNotInstanceOf(SupportsIntentionLocks.class);
    assertThat(Decorators.wrap(Decorators.wrap(intentions, rec), rec))
        .isInstanceOf(SupportsIntentionLocks.class);
    assertThat(Decorators.wrap(Decorators.wrap(plain, rec), rec))
        .isNotInstanceOf(SupportsIntentionLocks.class);
    CloudServices bundle =
        Decorators.wrap(
            CloudServices.builder().locks(fake(SupportsIntentionLocks.class, made)).build(), rec);
    assertThat(SupportsIntentionLocks.of(bundle.locks())).isNotNull();
    assertThat(SupportsIntentionLocks.of(plain)).isNull();

    rec.calls.clear();
    made.clear();
    SupportsIntentionLocks.of(intentions).acquireIntention("u", "A").join();
    assertThat(rec.calls)
        .extracting(Call::operation)
        .containsExactly(Operation.LOCK_ACQUIRE_INTENTION);
    assertThat(made).containsExactly("acquireIntention");
  }

  @Test
  void lockAbilitiesArePreservedExactlyWhenTheWrappedLocksHaveThem() {
    RecordingInterceptor rec = new RecordingInterceptor();
    List<String> made = new ArrayList<>();
    List<Class<? extends LockService>> kinds =
        List.of(
            LockService.class,
            SupportsIntentionLocks.class,
            SupportsLockStamps.class,
            FullLocks.class);
    for (Class<? extends LockService> kind : kinds) {
      LockService wrapped =
          Decorators.wrap(Decorators.wrap(fake(kind, made), rec), new RecordingInterceptor());
      assertThat(wrapped instanceof SupportsIntentionLocks)
          .as("intentions through %s", kind.getSimpleName())
          .isEqualTo(SupportsIntentionLocks.class.isAssignableFrom(kind));
      assertThat(wrapped instanceof SupportsLockStamps)
          .as("stamps through %s", kind.getSimpleName())
          .isEqualTo(SupportsLockStamps.class.isAssignableFrom(kind));
      CloudServices bundle =
          Decorators.wrap(CloudServices.builder().locks(fake(kind, made)).build(), rec);
      assertThat(SupportsLockStamps.of(bundle.locks()) != null)
          .isEqualTo(SupportsLockStamps.class.isAssignableFrom(kind));
    }

    SupportsLockStamps stamps =
        SupportsLockStamps.of(Decorators.wrap(fake(SupportsLockStamps.class, made), rec));
    rec.calls.clear();
    made.clear();
    stamps.acquireSharedStamped("u", "A").join();
    stamps.releaseStamped("u", "A", 7).join();
    assertThat(rec.calls)
        .extracting(Call::operation)
        .containsExactly(Operation.LOCK_ACQUIRE_SHARED, Operation.LOCK_RELEASE);
    assertThat(made).containsExactly("acquireSharedStamped", "releaseStamped");
  }

  @Test
  void wrappedBundleKeepsMissingServicesMissingAndClosesTheUnderlyingBundleOnce() {
    FakeStorage store = new FakeStorage();
    List<String> closed = new ArrayList<>();
    CloudServices bundle =
        CloudServices.builder()
            .storage(store)
            .simpleQueues(new FakeQueues())
            .closeWith(() -> closed.add("extra"))
            .build();
    RecordingInterceptor rec = new RecordingInterceptor();
    CloudServices wrapped = Decorators.wrap(bundle, rec);

    assertThat(wrapped.hasStorage()).isTrue();
    assertThat(wrapped.hasSimpleQueues()).isTrue();
    assertThat(wrapped.hasLocks()).isFalse();
    assertThat(wrapped.hasCounters()).isFalse();
    assertThat(wrapped.hasAdvancedQueues()).isFalse();
    assertThat(wrapped.hasMachines()).isFalse();
    assertThatThrownBy(wrapped::locks).isInstanceOf(IllegalStateException.class);

    wrapped.storage().put("a", PAYLOAD, Map.of()).join();
    wrapped.simpleQueues().send("q", PAYLOAD).join();
    assertThat(rec.calls)
        .extracting(Call::operation)
        .containsExactly(Operation.STORAGE_PUT, Operation.QUEUE_SEND);

    wrapped.close();
    assertThat(store.closed).isTrue();
    assertThat(closed).containsExactly("extra");
  }

  @Test
  void wrappingASingleServiceClosesIt() {
    FakeStorage store = new FakeStorage();
    Decorators.wrap(store).close();
    assertThat(store.closed).isTrue();
  }

  @Test
  void theFirstInterceptorIsOutermost() {
    List<String> order = new CopyOnWriteArrayList<>();
    StorageService storage =
        Decorators.wrap(
            new FakeStorage(),
            new RecordingInterceptor("a", order),
            new RecordingInterceptor("b", order));

    storage.get("x").join();

    assertThat(order).containsExactly("a>", "b>", "<b", "<a");
  }

  @Test
  void synchronousThrowsOfServicesAndInterceptorsBecomeFailedFutures() {
    StorageService throwing =
        Decorators.wrap(
            new FakeStorage() {
              @Override
              public CompletableFuture<Optional<StoredItem>> get(String uri) {
                throw new ServiceUnavailableException("down");
              }

              @Override
              public CompletableFuture<Void> delete(String uri) {
                return null;
              }
            },
            new RecordingInterceptor());

    CompletableFuture<Optional<StoredItem>> get = throwing.get("x");
    assertThat(get).isCompletedExceptionally();
    assertThatThrownBy(() -> CloudFutures.await(get))
        .isInstanceOf(ServiceUnavailableException.class);
    assertThatThrownBy(() -> CloudFutures.await(throwing.delete("x")))
        .isInstanceOf(NullPointerException.class)
        .hasMessageContaining("STORAGE_DELETE");

    CallInterceptor broken =
        new CallInterceptor() {
          @Override
          public <T> CompletableFuture<T> intercept(
              Call<T> call, Supplier<CompletableFuture<T>> proceed) {
            throw new IllegalStateException("interceptor bug");
          }
        };
    FakeStorage store = new FakeStorage();
    CompletableFuture<?> put = Decorators.wrap(store, broken).put("x", PAYLOAD, Map.of());
    assertThat(put)
        .failsWithin(Duration.ZERO)
        .withThrowableOfType(ExecutionException.class)
        .withCauseInstanceOf(IllegalStateException.class);
    assertThat(store.callsMade.get()).isZero();
  }

  @Test
  void callsAreSizedByTheirPayloads() {
    RecordingInterceptor rec = new RecordingInterceptor();
    FakeStorage store = new FakeStorage();
    StorageService storage = Decorators.wrap(store, rec);
    SimpleQueueService queues = Decorators.wrap(new FakeQueues(), rec);

    storage.put("a", new byte[1000], Map.of("key", "välue")).join(); // 3 + 6 UTF-8 bytes
    Optional<StoredItem> item = storage.get("a").join();
    storage.getMetadata("a").join();
    storage.getIfChanged("a", "other").join();
    storage.getIfChanged("a", item.orElseThrow().version()).join();
    queues.sendBatch("q", List.of(new byte[10], new byte[20])).join();
    List<QueueMessage> received = queues.receive("q", 10, Duration.ofSeconds(30)).join();

    assertThat(rec.calls.get(0).requestBytes()).isEqualTo(1009);
    assertThat(responseBytes(rec.calls.get(1), item)).isEqualTo(1009);
    assertThat(rec.calls.get(2).requestBytes()).isZero();
    assertThat(rec.calls.get(5).requestBytes()).isEqualTo(30);
    assertThat(responseBytes(rec.calls.get(6), received)).isEqualTo(30);
    assertThat(responseBytes(rec.calls.get(6), null)).isZero();
  }

  @SuppressWarnings("unchecked")
  private static long responseBytes(Call<?> call, Object result) {
    return ((Call<Object>) call).responseBytes(result);
  }

  @Test
  void callDescriptionsValidateTheirInput() {
    assertThatThrownBy(() -> Call.of(Operation.STORAGE_GET, "x", -1))
        .isInstanceOf(IllegalArgumentException.class);
    assertThat(Call.of(Operation.STORAGE_GET, null, 0).target()).isEmpty();
    assertThatThrownBy(() -> Decorators.wrap(new FakeStorage(), (CallInterceptor) null))
        .isInstanceOf(NullPointerException.class);
  }

  @Test
  void callDescriptionsExposeWhatTheyDescribe() {
    Call<String> c = Call.of(Operation.QUEUE_SEND, "q", 7, s -> s.length());
    assertThat(c.operation()).isEqualTo(Operation.QUEUE_SEND);
    assertThat(c.target()).isEqualTo("q");
    assertThat(c.requestBytes()).isEqualTo(7);
    assertThat(c.responseBytes("abcd")).isEqualTo(4);
    assertThat(c.toString()).contains("QUEUE_SEND", "q");
  }
}
