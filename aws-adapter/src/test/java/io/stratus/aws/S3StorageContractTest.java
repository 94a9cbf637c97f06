package io.stratus.aws;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.stratus.cloudapi.CloudLimits;
import io.stratus.cloudapi.NotFoundException;
import io.stratus.cloudapi.StorageService;
import io.stratus.cloudapi.StoredItem;
import io.stratus.cloudapi.contract.StorageServiceContract;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.s3.S3AsyncClient;
import software.amazon.awssdk.services.s3.model.HeadObjectResponse;

/**
 * The storage contract on S3 (LocalStack), plus what only the S3 mapping promises: keys are the
 * prefix plus the URI, metadata of any form survives, the URI limit leaves room for the prefix,
 * and a missing bucket is a clear error.
 */
class S3StorageContractTest extends StorageServiceContract {
  private static final String PREFIX =
      "storage-" + UUID.randomUUID().toString().substring(0, 8) + "/";
  private static AwsCloud cloud;

  @BeforeAll
  static void connect() {
    cloud = AwsCloud.connect(LocalStackFixture.get().config().keyPrefix(PREFIX).build());
  }

  @AfterAll
  static void disconnect() {
    if (cloud != null) {
      cloud.close();
    }
  }

  @Override
  protected StorageService newStorage(long seed) {
    return cloud.storage();
  }

  @Override
  protected void elapse(Duration d) {
    RealTime.pass(d);
  }

  @Override
  protected Duration clockSlack() {
    return Duration.ofSeconds(1);
  }

  // ---- what only the S3 mapping promises ----

  @Test
  void itemsAreObjectsAtPrefixPlusUri() {
    await(storage.put(uri("k"), bytes("v"), Map.of("n", "1")));
    try (S3AsyncClient raw = LocalStackFixture.get().rawS3()) {
      HeadObjectResponse h =
          raw.headObject(b -> b.bucket(LocalStackFixture.get().bucket()).key(PREFIX + uri("k")))
              .join();
      assertThat(h.contentLength()).isEqualTo(1);
      assertThat(h.metadata()).containsEntry("n", "1");
      assertThat('"' + await(storage.getMetadata(uri("k"))).orElseThrow().version() + '"')
          .isEqualTo(h.eTag());
    }
  }

  @Test
  void anyMetadataRoundTrips() {
    Map<String, String> md =
        Map.of(
            "Lsn",
            "42",
            "x-odd",
            " spaced ",
            "unicode",
            "\u00e9\u20ac",
            "=?",
            "=?UTF-8?B?not?=",
            "empty",
            "");
    await(storage.put(uri("m"), bytes("x"), md));
    StoredItem item = await(storage.get(uri("m"))).orElseThrow();
    assertThat(item.metadata()).isEqualTo(md);
    assertThat(await(storage.getMetadata(uri("m"))).orElseThrow().metadata()).isEqualTo(md);
  }

  @Test
  void limitsLeaveRoomForTheKeyPrefix() {
    CloudLimits limits = storage.limits();
    assertThat(limits.maxUriLength())
        .isEqualTo(1024 - PREFIX.getBytes(StandardCharsets.UTF_8).length);
    assertThat(limits.maxObjectSize()).isEqualTo(CloudLimits.DEFAULT_MAX_OBJECT_SIZE);
    assertThat(limits.maxListPageSize()).isEqualTo(1000);
  }

  @Test
  void putReportsS3sVersionAndTime() {
    var v = await(storage.put(uri("t"), bytes("time"), Map.of()));
    var md = await(storage.getMetadata(uri("t"))).orElseThrow();
    assertThat(v.version()).isEqualTo(md.version()).doesNotContain("\"");
    assertThat(Duration.between(md.lastModified(), v.lastModified()).abs())
        .isLessThanOrEqualTo(Duration.ofSeconds(2));
  }

  @Test
  void aMissingBucketIsNotFoundNamingTheConfiguration() {
    try (AwsCloud wrong =
        AwsCloud.connect(
            LocalStackFixture.get()
                .config()
                .bucket("stratus-no-such-bucket-" + UUID.randomUUID().toString().substring(0, 8))
                .build())) {
      for (var call :
          new java.util.function.Supplier<?>[] {
            () -> await(wrong.storage().get("a")),
            () -> await(wrong.storage().put("a", bytes("x"), Map.of())),
            () -> await(wrong.storage().list("", Optional.empty(), 10))
          }) {
        assertThatThrownBy(call::get)
            .isInstanceOf(NotFoundException.class)
            .hasMessageContaining("bucket");
      }
    }
  }
}
