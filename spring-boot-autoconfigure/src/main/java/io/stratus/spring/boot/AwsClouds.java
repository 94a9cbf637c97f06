package io.stratus.spring.boot;

import io.stratus.InvalidConfigurationException;
import io.stratus.aws.AwsCloud;
import io.stratus.aws.AwsConfig;
import io.stratus.cloudapi.CloudServices;
import java.net.URI;
import java.util.Locale;

/** S3 and SQS for {@link StratusClouds}; loaded only when the AWS adapter is present. */
final class AwsClouds {
  /** The credentials LocalStack accepts. */
  static final String LOCALSTACK_KEY = "test";

  private AwsClouds() {}

  /**
   * Adds storage, simple queues and machines to {@code b}, with the pages in {@code bucket} (the
   * setting of {@code cloud}, checked to be there); returns what to close on failure.
   */
  static AutoCloseable addTo(
      CloudServices.Builder b, StratusProperties.Cloud cloud, String bucket, boolean localstack) {
    AwsConfig built;
    try {
      AwsConfig.Builder config =
          AwsConfig.builder(bucket.trim())
              .region(cloud.getRegion())
              .queueBackend(queueBackend(cloud.getQueueBackend()));
      if (cloud.getKeyPrefix() != null) {
        config.keyPrefix(cloud.getKeyPrefix());
      }
      if (cloud.getQueuePrefix() != null) {
        config.queueNamePrefix(cloud.getQueuePrefix());
      }
      if (localstack) {
        if (cloud.getEndpoint() == null || cloud.getEndpoint().isBlank()) {
          throw new InvalidConfigurationException(
              "stratus.cloud.kind=localstack needs"
                  + " stratus.cloud.endpoint, e.g. http://localhost:4566");
        }
        config
            .endpoint(URI.create(cloud.getEndpoint().trim()))
            .pathStyleAccess(true)
            .staticCredentials(LOCALSTACK_KEY, LOCALSTACK_KEY);
      } else {
        if (cloud.getEndpoint() != null && !cloud.getEndpoint().isBlank()) {
          config.endpoint(URI.create(cloud.getEndpoint().trim()));
        }
        config.defaultCredentials();
      }
      built = config.build();
    } catch (IllegalArgumentException e) {
      throw new InvalidConfigurationException("stratus.cloud: " + e.getMessage());
    }
    AwsCloud aws = AwsCloud.connect(built);
    try {
      if (localstack || cloud.isCreateBucket()) {
        aws.ensureBucket();
      }
      aws.addTo(b);
      return aws;
    } catch (RuntimeException e) {
      aws.close();
      throw e;
    }
  }

  private static AwsConfig.QueueBackend queueBackend(String name) {
    for (AwsConfig.QueueBackend q : AwsConfig.QueueBackend.values()) {
      if (q.name().equalsIgnoreCase(name.trim())) {
        return q;
      }
    }
    throw new InvalidConfigurationException(
        "stratus.cloud.queue-backend: not sqs or s3: '" + name.toLowerCase(Locale.ROOT) + "'");
  }
}
