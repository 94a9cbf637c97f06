package io.stratus.cloudapi;

/**
 * Every kind of call the Cloud API makes, grouped by service. The decorators (metering, latency,
 * faults) key their tables by it, and price tables map it to a price class.
 */
public enum Operation {
  STORAGE_PUT(Service.STORAGE, true),
  STORAGE_PUT_IF_ABSENT(Service.STORAGE, true),
  STORAGE_PUT_IF_VERSION(Service.STORAGE, true),
  STORAGE_GET(Service.STORAGE, false),
  STORAGE_GET_METADATA(Service.STORAGE, false),
  STORAGE_GET_IF_CHANGED(Service.STORAGE, false),
  STORAGE_GET_IF_MODIFIED_SINCE(Service.STORAGE, false),
  STORAGE_LIST(Service.STORAGE, false),
  STORAGE_DELETE(Service.STORAGE, true),

  QUEUE_CREATE(Service.SIMPLE_QUEUE, true),
  QUEUE_DELETE(Service.SIMPLE_QUEUE, true),
  QUEUE_LIST(Service.SIMPLE_QUEUE, false),
  QUEUE_SEND(Service.SIMPLE_QUEUE, true),
  QUEUE_SEND_BATCH(Service.SIMPLE_QUEUE, true),
  QUEUE_RECEIVE(Service.SIMPLE_QUEUE, true),
  QUEUE_DELETE_MESSAGE(Service.SIMPLE_QUEUE, true),
  QUEUE_DELETE_BATCH(Service.SIMPLE_QUEUE, true),
  /** {@link SupportsQueueInspection#inspect}: counts, oldest message, a few peeked messages. */
  QUEUE_INSPECT(Service.SIMPLE_QUEUE, false),
  /** {@link SupportsVisibilityChange#changeVisibility}: hand a received message back, or hold it. */
  QUEUE_CHANGE_VISIBILITY(Service.SIMPLE_QUEUE, true),
  /** {@link SupportsVisibilityChange#changeVisibilityBatch}. */
  QUEUE_CHANGE_VISIBILITY_BATCH(Service.SIMPLE_QUEUE, true),

  ADVANCED_QUEUE_CREATE(Service.ADVANCED_QUEUE, true),
  ADVANCED_QUEUE_DELETE(Service.ADVANCED_QUEUE, true),
  ADVANCED_QUEUE_LIST(Service.ADVANCED_QUEUE, false),
  ADVANCED_QUEUE_SEND(Service.ADVANCED_QUEUE, true),
  ADVANCED_QUEUE_RECEIVE(Service.ADVANCED_QUEUE, false),
  ADVANCED_QUEUE_DELETE_MESSAGE(Service.ADVANCED_QUEUE, true),
  ADVANCED_QUEUE_DELETE_BY_KEY(Service.ADVANCED_QUEUE, true),

  LOCK_SET_TIMEOUT(Service.LOCK, true),
  LOCK_ACQUIRE_EXCLUSIVE(Service.LOCK, true),
  LOCK_ACQUIRE_SHARED(Service.LOCK, true),
  /** {@link SupportsIntentionLocks#acquireIntention}. */
  LOCK_ACQUIRE_INTENTION(Service.LOCK, true),
  LOCK_RELEASE(Service.LOCK, true),
  LOCK_GET_TIMEOUT(Service.LOCK, false),

  COUNTER_SET_TIMEOUT(Service.COUNTER, true),
  /** {@link CounterService#increment}, also under a request id ({@link SupportsIdempotentIncrement}). */
  COUNTER_INCREMENT(Service.COUNTER, true),
  COUNTER_VALIDATE(Service.COUNTER, true),
  COUNTER_HIGHEST_VALIDATED(Service.COUNTER, false),

  MACHINE_START(Service.MACHINE, true),
  MACHINE_STOP(Service.MACHINE, true),
  MACHINE_DESCRIBE(Service.MACHINE, false),
  MACHINE_LIST(Service.MACHINE, false),

  INDEX_CREATE_DOMAIN(Service.INDEX, true),
  INDEX_DELETE_DOMAIN(Service.INDEX, true),
  INDEX_PUT(Service.INDEX, true),
  /** {@link IndexService#putBatch}: one request for up to 25 items. */
  INDEX_PUT_BATCH(Service.INDEX, true),
  INDEX_GET(Service.INDEX, false),
  INDEX_DELETE(Service.INDEX, true),
  /** {@link IndexService#deleteBatch}: one request for up to 25 items. */
  INDEX_DELETE_BATCH(Service.INDEX, true),
  /** {@link IndexService#query}: one request per page. */
  INDEX_QUERY(Service.INDEX, false);

  /** The services of the Cloud API: the six of the papers, and the index service. */
  public enum Service {
    STORAGE,
    SIMPLE_QUEUE,
    ADVANCED_QUEUE,
    LOCK,
    COUNTER,
    MACHINE,
    INDEX
  }

  private final Service service;
  private final boolean mutating;

  Operation(Service service, boolean mutating) {
    this.service = service;
    this.mutating = mutating;
  }

  public Service service() {
    return service;
  }

  /** Whether the call can change the service's state (a lost reply then leaves the outcome open). */
  public boolean isMutating() {
    return mutating;
  }
}
