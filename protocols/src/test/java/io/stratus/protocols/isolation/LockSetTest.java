package io.stratus.protocols.isolation;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.stratus.TransactionConflictException;
import io.stratus.cloudapi.CloudFutures;
import io.stratus.cloudapi.LockGrant;
import io.stratus.cloudapi.LockMode;
import io.stratus.cloudapi.LockService;
import io.stratus.cloudapi.Operation;
import io.stratus.cloudapi.ServiceUnavailableException;
import io.stratus.cloudapi.SupportsIntentionLocks;
import io.stratus.cloudapi.SupportsLockStamps;
import io.stratus.cloudapi.decorate.Call;
import io.stratus.cloudapi.decorate.CallInterceptor;
import io.stratus.cloudapi.decorate.CloudMeter;
import io.stratus.cloudapi.decorate.Decorators;
import io.stratus.cloudapi.decorate.MeteringInterceptor;
import io.stratus.cloudapi.inprocess.InProcessCloud;
import io.stratus.cloudapi.testing.PlainServices;
import io.stratus.cloudapi.time.ManualClock;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.function.Supplier;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The modes a transaction's lock set asks for and holds: shared and intention on one URI make
 * exclusive, an exclusive lock covers both, intentions of two transactions pass one another, and a
 * lock service without intentions gets exclusive requests instead.
 */
class LockSetTest {
  private final ManualClock clock = new ManualClock();
  private final InProcessCloud cloud = InProcessCloud.builder().clock(clock).seed(1).build();
  private final CloudMeter meter = new CloudMeter();
  private final LockService locks =
      Decorators.wrap(cloud.services().locks(), new MeteringInterceptor(meter));

  @AfterEach
  void close() {
    cloud.close();
  }

  private LockSet set(LockService service, String owner) {
    return new LockSet(service, clock, owner, "tx-" + owner, f -> {});
  }

  private long calls(Operation op) {
    return meter.snapshot().stats(op).calls();
  }

  private LockGrant other(LockMode mode, String uri) {
    SupportsIntentionLocks service = SupportsIntentionLocks.of(locks);
    CompletableFuture<LockGrant> f =
        switch (mode) {
          case SHARED -> service.acquireShared(uri, "other");
          case EXCLUSIVE -> service.acquireExclusive(uri, "other");
          case INTENTION -> service.acquireIntention(uri, "other");
        };
    return CloudFutures.await(f);
  }

  @Test
  void intentionsOfTwoTransactionsPassOneAnotherAndExcludeAReader() {
    LockSet t1 = set(locks, "t1");
    LockSet t2 = set(locks, "t2");
    t1.acquire(List.of("fence"), LockMode.INTENTION, "an insert");
    t2.acquire(List.of("fence"), LockMode.INTENTION, "an insert");
    assertThat(t1.holds("fence", LockMode.INTENTION)).isTrue();
    assertThat(t1.holds("fence", LockMode.SHARED)).isFalse();
    assertThat(t1.holds("fence", LockMode.EXCLUSIVE)).isFalse();
    assertThat(calls(Operation.LOCK_ACQUIRE_INTENTION)).isEqualTo(2);

    LockSet reader = set(locks, "reader");
    assertThatThrownBy(() -> reader.acquire(List.of("fence"), LockMode.SHARED, "a range"))
        .isInstanceOf(TransactionConflictException.class);
    t1.releaseNow();
    t2.releaseNow();
    reader.acquire(List.of("fence"), LockMode.SHARED, "a range");
    assertThatThrownBy(() -> t1.acquire(List.of("fence"), LockMode.INTENTION, "an insert"))
        .isInstanceOf(TransactionConflictException.class);
  }

  @Test
  void aReadFenceIsLockedExclusivelyForAnInsertAndExclusiveCoversEverything() {
    LockSet t = set(locks, "t");
    t.acquire(List.of("read-fence"), LockMode.SHARED, "a range");
    t.acquire(List.of("read-fence"), LockMode.INTENTION, "an insert");
    assertThat(t.holds("read-fence", LockMode.EXCLUSIVE)).isTrue();
    assertThat(calls(Operation.LOCK_ACQUIRE_EXCLUSIVE))
        .as("shared and intention asked for as exclusive")
        .isEqualTo(1);
    assertThat(calls(Operation.LOCK_ACQUIRE_INTENTION)).isZero();
    assertThat(other(LockMode.INTENTION, "read-fence").granted()).isFalse();

    // An intention held and a shared lock asked for: exclusive too.
    t.acquire(List.of("insert-fence"), LockMode.INTENTION, "an insert");
    t.acquire(List.of("insert-fence"), LockMode.SHARED, "a range");
    assertThat(t.holds("insert-fence", LockMode.EXCLUSIVE)).isTrue();

    // Held exclusively (a key written that is also a fence): nothing more is asked for.
    long before = meter.snapshot().total(Operation.Service.LOCK).calls();
    t.acquire(List.of("read-fence", "insert-fence"), LockMode.INTENTION, "an insert");
    t.acquire(List.of("read-fence", "insert-fence"), LockMode.SHARED, "a range");
    assertThat(meter.snapshot().total(Operation.Service.LOCK).calls()).isEqualTo(before);
  }

  @Test
  void aModeAskedForBesideAnotherTransactionsIsRefusedAndTheHeldOneStays() {
    LockSet t = set(locks, "t");
    t.acquire(List.of("fence"), LockMode.INTENTION, "an insert");
    assertThat(other(LockMode.INTENTION, "fence").granted()).isTrue();
    assertThatThrownBy(() -> t.acquire(List.of("fence"), LockMode.SHARED, "a range"))
        .isInstanceOf(TransactionConflictException.class);
    assertThat(t.holds("fence", LockMode.INTENTION)).isTrue();
    assertThat(t.holds("fence", LockMode.EXCLUSIVE)).isFalse();
  }

  @Test
  void aBatchMixesModesAndAskedForEachOnce() {
    LockSet t = set(locks, "t");
    Map<String, LockMode> batch = new LinkedHashMap<>();
    batch.put("tree", LockMode.SHARED);
    batch.put("key", LockMode.EXCLUSIVE);
    batch.put("fence", LockMode.INTENTION);
    t.acquire(batch, "what it writes");
    assertThat(t.holds("tree", LockMode.SHARED)).isTrue();
    assertThat(t.holds("key", LockMode.EXCLUSIVE)).isTrue();
    assertThat(t.holds("fence", LockMode.INTENTION)).isTrue();
    assertThat(calls(Operation.LOCK_ACQUIRE_SHARED)).isEqualTo(1);
    assertThat(calls(Operation.LOCK_ACQUIRE_EXCLUSIVE)).isEqualTo(1);
    assertThat(calls(Operation.LOCK_ACQUIRE_INTENTION)).isEqualTo(1);
    assertThat(t.validUntilMillis())
        .isEqualTo(clock.millis() + InProcessCloud.DEFAULT_LOCK_TIMEOUT.toMillis());
  }

  @Test
  void withoutIntentionsAnInsertLocksItsFenceExclusively() {
    LockService plain = withoutAbilities(locks);
    assertThat(plain).isNotInstanceOf(SupportsIntentionLocks.class);
    LockSet t1 = set(plain, "t1");
    t1.acquire(List.of("fence"), LockMode.INTENTION, "an insert");
    assertThat(t1.holds("fence", LockMode.EXCLUSIVE)).isTrue();
    assertThat(calls(Operation.LOCK_ACQUIRE_EXCLUSIVE)).isEqualTo(1);
    assertThat(calls(Operation.LOCK_ACQUIRE_INTENTION)).isZero();
    LockSet t2 = set(plain, "t2");
    assertThatThrownBy(() -> t2.acquire(List.of("fence"), LockMode.INTENTION, "an insert"))
        .isInstanceOf(TransactionConflictException.class);
  }

  @Test
  void sharedGrantsReportStampsAndACommitStampsOnlyItsExclusiveLocks() {
    LockSet writer = set(locks, "writer");
    Map<String, LockMode> batch = new LinkedHashMap<>();
    batch.put("written", LockMode.EXCLUSIVE);
    batch.put("read", LockMode.SHARED);
    batch.put("fence", LockMode.INTENTION);
    assertThat(writer.acquire(batch, "what it writes"))
        .as("a shared grant of an untouched lock")
        .isEqualTo(Map.of("read", 0L));
    writer.releaseCommittedLater(17);

    LockSet reader = set(locks, "reader");
    assertThat(reader.acquire(List.of("written", "read", "fence"), LockMode.SHARED, "records"))
        .as("the commit id on what it wrote; an intention leaves no stamp")
        .isEqualTo(Map.of("written", 17L, "read", 0L));
    assertThat(reader.acquire(List.of("written"), LockMode.SHARED, "again"))
        .as("held already: not asked for")
        .isEmpty();
    reader.releaseCommittedLater(18); // shared locks leave no stamp
    LockSet next = set(locks, "next");
    assertThat(next.acquire(List.of("written"), LockMode.SHARED, "a record"))
        .isEqualTo(Map.of("written", 17L));

    // A lock set that ends without a commit releases without a stamp.
    next.releaseLater();
    LockSet aborted = set(locks, "aborted");
    aborted.acquire(List.of("written"), LockMode.EXCLUSIVE, "a record");
    aborted.releaseLater();
    assertThat(set(locks, "last").acquire(List.of("written"), LockMode.SHARED, "a record"))
        .isEmpty();
  }

  @Test
  void withoutStampsNoStampIsReportedAndReleasesArePlain() {
    LockService plain = withoutAbilities(locks);
    assertThat(plain).isNotInstanceOf(SupportsLockStamps.class);
    LockSet writer = set(plain, "writer");
    writer.acquire(List.of("written"), LockMode.EXCLUSIVE, "a record");
    writer.releaseCommittedLater(5);
    assertThat(set(plain, "reader").acquire(List.of("written"), LockMode.SHARED, "a record"))
        .isEmpty();
    assertThat(calls(Operation.LOCK_RELEASE)).isEqualTo(1);
  }

  /** {@code locks} as a plain lock service, without intentions and stamps. */
  private static LockService withoutAbilities(LockService locks) {
    return PlainServices.locks(locks);
  }

  @Test
  void aRefusedReleaseIsSentAgainSoTheLockDoesNotWaitForItsLease() {
    int[] refusalsLeft = {2};
    CallInterceptor refuseReleases =
        new CallInterceptor() {
          @Override
          public <T> CompletableFuture<T> intercept(
              Call<T> call, Supplier<CompletableFuture<T>> proceed) {
            if (call.operation() == Operation.LOCK_RELEASE && refusalsLeft[0]-- > 0) {
              return CompletableFuture.failedFuture(
                  new ServiceUnavailableException("refused by the test"));
            }
            return proceed.get();
          }
        };
    LockService refusing = Decorators.wrap(locks, refuseReleases);
    LockSet writer = set(refusing, "writer");
    writer.acquire(List.of("record"), LockMode.EXCLUSIVE, "a write");
    writer.releaseLater();

    // Two refusals, then the third send released it: another owner gets the lock at once.
    assertThat(refusalsLeft[0]).isNegative();
    assertThat(calls(Operation.LOCK_RELEASE)).isEqualTo(1);
    assertThat(other(LockMode.EXCLUSIVE, "record").granted()).isTrue();
  }
}
