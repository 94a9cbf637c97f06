package io.stratus.aws;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.stratus.cloudapi.CloudException;
import java.net.URI;
import java.time.Duration;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/** {@link AwsCloud#ensureBucket()} on LocalStack: creates once, then finds; unreachable fails. */
class EnsureBucketTest {

  @Test
  void createsAMissingBucketOnceAndThenFindsIt() {
    LocalStackFixture localstack = LocalStackFixture.get();
    String bucket = "stratus-ensure-" + UUID.randomUUID().toString().substring(0, 8);
    try (AwsCloud cloud = AwsCloud.connect(localstack.config().bucket(bucket).build())) {
      assertThat(cloud.ensureBucket()).isTrue();
      assertThat(cloud.ensureBucket()).isFalse();
    }
  }

  @Test
  void anUnreachableEndpointIsACloudException() {
    // Port 9 (discard) on the loopback interface: nothing listens there on a test machine.
    AwsConfig config =
        AwsConfig.builder("stratus-nowhere")
            .region("us-east-1")
            .endpoint(URI.create("http://127.0.0.1:9"))
            .pathStyleAccess(true)
            .staticCredentials("test", "test")
            .maxAttempts(1)
            .apiCallAttemptTimeout(Duration.ofSeconds(5))
            .apiCallTimeout(Duration.ofSeconds(10))
            .build();
    try (AwsCloud cloud = AwsCloud.connect(config)) {
      assertThatThrownBy(cloud::ensureBucket).isInstanceOf(CloudException.class);
    }
  }
}
