package io.stratus.aws;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.net.URI;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/** Validation of every setting, the defaults, and that credentials never show. */
class AwsConfigTest {
  private static final String SECRET = "wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY";
  private static final String KEY_ID = "AKIAIOSFODNN7EXAMPLE";

  @Test
  void defaultsAreTheDocumentedConstants() {
    AwsConfig c = AwsConfig.builder("my-bucket").build();
    assertThat(c.region()).isEqualTo(AwsConfig.DEFAULT_REGION);
    assertThat(c.endpoint()).isEmpty();
    assertThat(c.hasStaticCredentials()).isFalse();
    assertThat(c.keyPrefix()).isEqualTo("items/");
    assertThat(c.queueBackend()).isEqualTo(AwsConfig.QueueBackend.SQS);
    assertThat(c.maxAttempts()).isEqualTo(3);
    assertThat(c.messageRetention()).isEqualTo(Duration.ofDays(14));
    assertThat(c.sqsMaximumMessageSize()).isEqualTo(1024 * 1024);
    assertThat(c.receiveWait()).isZero();
    assertThat(c.instanceType()).isEqualTo("t3.micro");
  }

  @Test
  void everySettingIsValidated() {
    assertInvalid(AwsConfig.builder("b1"), "bucket");
    assertInvalid(AwsConfig.builder("My-Bucket"), "bucket");
    assertInvalid(AwsConfig.builder("a..b"), "bucket");
    assertInvalid(AwsConfig.builder(null), "bucket");
    assertInvalid(ok().region("US East"), "region");
    assertInvalid(ok().endpoint(URI.create("ftp://host")), "endpoint");
    assertInvalid(ok().endpoint(URI.create("http://user:pw@host")), "endpoint");
    assertInvalid(ok().keyPrefix("a\nb"), "keyPrefix");
    assertInvalid(ok().keyPrefix("k".repeat(513)), "keyPrefix");
    assertInvalid(ok().queueNamePrefix("has.dot"), "queueNamePrefix");
    assertInvalid(ok().queueNamePrefix("p".repeat(25)), "queueNamePrefix");
    assertInvalid(ok().maxAttempts(0), "maxAttempts");
    assertInvalid(ok().apiCallTimeout(Duration.ZERO), "apiCallTimeout");
    assertInvalid(ok().apiCallAttemptTimeout(Duration.ofSeconds(-1)), "apiCallAttemptTimeout");
    assertInvalid(
        ok().apiCallTimeout(Duration.ofSeconds(5)).apiCallAttemptTimeout(Duration.ofSeconds(10)),
        "must not exceed");
    assertInvalid(ok().messageRetention(Duration.ofDays(15)), "messageRetention");
    assertInvalid(ok().messageRetention(Duration.ofSeconds(59)), "messageRetention");
    assertInvalid(ok().sqsMaximumMessageSize(1023), "sqsMaximumMessageSize");
    assertInvalid(ok().sqsMaximumMessageSize(1024 * 1024 + 1), "sqsMaximumMessageSize");
    assertInvalid(ok().receiveWait(Duration.ofMillis(1500)), "receiveWait");
    assertInvalid(ok().receiveWait(Duration.ofSeconds(21)), "receiveWait");
    assertInvalid(ok().receiveWait(Duration.ofSeconds(20)), "receiveWait");
    assertInvalid(ok().s3QueueMaxMessageSize(0), "s3QueueMaxMessageSize");
    assertInvalid(ok().instanceType(" "), "instanceType");
    assertInvalid(ok().machineTag(""), "machineTag");
    assertInvalid(ok().maxConnections(0), "maxConnections");
  }

  @Test
  void s3QueuesNeedAPrefixApartFromStorage() {
    assertInvalid(ok().queueBackend(AwsConfig.QueueBackend.S3).keyPrefix(""), "s3QueueKeyPrefix");
    assertInvalid(
        ok().queueBackend(AwsConfig.QueueBackend.S3)
            .keyPrefix("db/")
            .s3QueueKeyPrefix("db/queues/"),
        "s3QueueKeyPrefix");
    // With SQS the S3 queue prefix is unused, so an overlap does not matter.
    ok().keyPrefix("").build();
    ok().queueBackend(AwsConfig.QueueBackend.S3).build();
  }

  @Test
  void everyProblemIsReportedAtOnce() {
    assertThatThrownBy(() -> AwsConfig.builder("B").region("").maxAttempts(99).build())
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("bucket")
        .hasMessageContaining("region")
        .hasMessageContaining("maxAttempts");
  }

  @Test
  void credentialsNeverShow() {
    AwsConfig c = ok().staticCredentials(KEY_ID, SECRET, "session-token-xyz").build();
    assertThat(c.hasStaticCredentials()).isTrue();
    assertThat(c.toString())
        .doesNotContain(SECRET)
        .doesNotContain(KEY_ID)
        .doesNotContain("session-token-xyz")
        .contains("****");
    assertThatThrownBy(() -> ok().staticCredentials(KEY_ID, SECRET).maxAttempts(0).build())
        .hasMessageNotContaining(SECRET)
        .hasMessageNotContaining(KEY_ID);
    assertThatThrownBy(() -> ok().staticCredentials(KEY_ID, " "))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageNotContaining(KEY_ID);
    try (AwsCloud cloud = AwsCloud.connect(c)) {
      assertThat(cloud.toString()).doesNotContain(SECRET).doesNotContain(KEY_ID);
    }
  }

  @Test
  void aTokenInTheEndpointNeverShows() {
    AwsConfig c =
        ok().endpoint(URI.create("https://proxy.example:8443/s3?token=tok-secret-123#frag-9"))
            .build();

    assertThat(c.toString())
        .doesNotContain("tok-secret-123")
        .doesNotContain("frag-9")
        .contains("endpoint=https://proxy.example:8443/s3?****#****");
    assertThat(AwsConfig.masked(URI.create("http://127.0.0.1:4566")))
        .isEqualTo("http://127.0.0.1:4566");
    assertThat(AwsConfig.masked(URI.create("http://u:pw-secret@h:1/")))
        .isEqualTo("http://****@h:1/");
  }

  @Test
  void toBuilderKeepsEverySetting() {
    AwsConfig c =
        ok().region("eu-west-1")
            .endpoint(URI.create("http://127.0.0.1:4566"))
            .pathStyleAccess(true)
            .staticCredentials(KEY_ID, SECRET)
            .keyPrefix("db/")
            .queueNamePrefix("q-")
            .queueBackend(AwsConfig.QueueBackend.S3)
            .maxAttempts(5)
            .receiveWait(Duration.ofSeconds(2))
            .machineTag("t")
            .build();
    assertThat(c.toBuilder().build().toString()).isEqualTo(c.toString());
    assertThat(c.toBuilder().build().hasStaticCredentials()).isTrue();
  }

  private static AwsConfig.Builder ok() {
    return AwsConfig.builder("stratus-bucket");
  }

  private static void assertInvalid(AwsConfig.Builder b, String naming) {
    assertThatThrownBy(b::build)
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining(naming);
  }
}
