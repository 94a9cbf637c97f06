package io.stratus.cloudapi.inprocess;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.stratus.cloudapi.BadRequestException;
import io.stratus.cloudapi.CloudLimits;
import io.stratus.cloudapi.ConditionalRead;
import io.stratus.cloudapi.ItemVersion;
import io.stratus.cloudapi.ListPage;
import io.stratus.cloudapi.StorageService;
import io.stratus.cloudapi.contract.StorageServiceContract;
import io.stratus.cloudapi.time.ManualClock;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.function.Supplier;
import org.junit.jupiter.api.Test;

/**
 * The storage contract on the in-process cloud with strong consistency, plus what only the
 * in-process storage promises (MD5 versions, millisecond timestamps, failures only through the
 * future). The variants below the class run the same tests on eventual consistency and without
 * conditional puts. Small limits make every limit cheap to exceed.
 */
class InProcessStorageContractTest extends StorageServiceContract {
  static final CloudLimits SMALL_LIMITS =
      CloudLimits.builder()
          .maxObjectSize(1024 * 1024)
          .maxMetadataSize(256)
          .maxUriLength(200)
          .maxListPageSize(10)
          .build();

  protected final ManualClock clock = new ManualClock();
  protected InProcessCloud cloud;

  @Override
  protected StorageService newStorage(long seed) {
    cloud =
        InProcessCloud.builder()
            .clock(clock)
            .seed(seed)
            .limits(SMALL_LIMITS)
            .storageConsistency(consistency())
            .conditionalPut(conditionalPut())
            .build();
    return cloud.services().storage();
  }

  @Override
  protected void elapse(Duration d) {
    clock.advance(d);
  }

  StorageConsistency consistency() {
    return StorageConsistency.strong();
  }

  boolean conditionalPut() {
    return true;
  }

  // ---- what only the in-process storage promises ----

  @Test
  void theServiceReportsItsConfiguration() {
    assertThat(storage.limits()).isSameAs(SMALL_LIMITS);
    assertThat(storage.isStronglyConsistent()).isEqualTo(consistency().isStrong());
    assertThat(supportsConditionalPut()).isEqualTo(conditionalPut());
  }

  @Test
  void versionIsTheMd5OfThePayload() throws Exception {
    byte[] payload = bytes("digest me");
    ItemVersion v = await(storage.put(uri("a"), payload, Map.of()));
    String md5 = HexFormat.of().formatHex(MessageDigest.getInstance("MD5").digest(payload));
    assertThat(v.version()).isEqualTo(md5);
    ItemVersion again = await(storage.put(uri("b"), payload.clone(), Map.of("x", "y")));
    assertThat(again.version()).isEqualTo(v.version());
  }

  @Test
  void lastModifiedIsTheClockTruncatedToMilliseconds() {
    clock.advance(Duration.ofNanos(1_500_000)); // 1.5 ms
    Instant t = clock.instant();
    ItemVersion v = await(storage.put(uri("a"), bytes("x"), Map.of()));
    assertThat(v.lastModified()).isEqualTo(Instant.parse("2026-01-01T00:00:00.001Z"));
    settle();
    assertThat(status(storage.getIfModifiedSince(uri("a"), t)))
        .isEqualTo(ConditionalRead.Status.NOT_MODIFIED);
    assertThat(status(storage.getIfModifiedSince(uri("a"), v.lastModified())))
        .isEqualTo(ConditionalRead.Status.NOT_MODIFIED);
    assertThat(status(storage.getIfModifiedSince(uri("a"), v.lastModified().minusNanos(1))))
        .isEqualTo(ConditionalRead.Status.MODIFIED);
  }

  @Test
  void invalidCallsFailTheFutureAndNeverThrow() {
    List<Supplier<CompletableFuture<?>>> calls =
        List.of(
            () -> storage.put(null, null, null),
            () -> storage.get("bad\nuri"),
            () -> storage.getMetadata(""),
            () -> storage.getIfChanged(uri("a"), null),
            () -> storage.getIfModifiedSince(uri("a"), null),
            () -> storage.list(uri(""), null, 10),
            () -> storage.list(uri(""), Optional.of("%%% not a token"), 10),
            () -> storage.delete(null));
    for (Supplier<CompletableFuture<?>> call : calls) {
      CompletableFuture<?> f = call.get();
      assertThat(f).isCompletedExceptionally();
      assertThatThrownBy(() -> await(f)).isInstanceOf(BadRequestException.class);
    }
  }

  @Test
  void continuationTokensAreBoundToTheirPrefix() {
    for (int i = 0; i < 12; i++) {
      await(storage.put(uri("a/" + i), bytes("x"), Map.of()));
    }
    settle();
    ListPage first = await(storage.list(uri("a/"), Optional.empty(), 5));
    assertThat(first.nextToken()).isPresent();
    assertThatThrownBy(() -> await(storage.list(uri("b/"), first.nextToken(), 5)))
        .isInstanceOf(BadRequestException.class);
  }

  @Test
  void itemCountCountsTheCurrentItems() {
    await(storage.put(uri("a"), bytes("1"), Map.of()));
    await(storage.put(uri("b"), bytes("2"), Map.of()));
    await(storage.put(uri("b"), bytes("3"), Map.of()));
    assertThat(cloud.storedItemCount()).isEqualTo(2);
    await(storage.delete(uri("a")));
    await(storage.delete(uri("a")));
    assertThat(cloud.storedItemCount()).isEqualTo(1);
    elapse(Duration.ofMinutes(1));
    await(storage.delete(uri("b")));
    assertThat(cloud.storedItemCount()).isZero();
  }

  @Test
  void utf8OrderIsCodePointOrder() {
    List<String> words =
        new ArrayList<>(
            List.of(
                "",
                "a",
                "ab",
                "b",
                "\u00e9",
                "\ue000",
                "\uffff",
                "\ud800\udc00",
                "\ud83d\ude00",
                "\udbff\udfff",
                "a\ud83d\ude00",
                "a\uffff"));
    List<String> byBytes = new ArrayList<>(words);
    byBytes.sort(
        (x, y) ->
            Arrays.compareUnsigned(
                x.getBytes(StandardCharsets.UTF_8), y.getBytes(StandardCharsets.UTF_8)));
    words.sort(InProcessStorage.UTF8_ORDER);
    assertThat(words).containsExactlyElementsOf(byBytes);
  }

  private static ConditionalRead.Status status(CompletableFuture<ConditionalRead> f) {
    return await(f).status();
  }
}

/** The storage contract on eventually consistent in-process storage (S3 as of 2008). */
class InProcessEventualStorageContractTest extends InProcessStorageContractTest {
  private static final Duration WINDOW = Duration.ofSeconds(5);

  @Override
  StorageConsistency consistency() {
    return StorageConsistency.eventual(WINDOW);
  }

  @Override
  protected Duration consistencyWindow() {
    return WINDOW;
  }
}

/** The storage contract on in-process storage without conditional puts (S3 before 2024). */
class InProcessStorageUnconditionalContractTest extends InProcessStorageContractTest {
  @Override
  boolean conditionalPut() {
    return false;
  }
}
