package io.stratus.aws;

import io.stratus.cloudapi.CloudServices;
import io.stratus.cloudapi.IndexLimits;
import io.stratus.cloudapi.IndexService;
import io.stratus.cloudapi.MachineReservationService;
import io.stratus.cloudapi.SimpleQueueService;
import io.stratus.cloudapi.SupportsConditionalPut;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.CompletionException;
import org.jspecify.annotations.Nullable;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.AwsCredentialsProvider;
import software.amazon.awssdk.auth.credentials.AwsSessionCredentials;
import software.amazon.awssdk.auth.credentials.DefaultCredentialsProvider;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.awscore.client.builder.AwsAsyncClientBuilder;
import software.amazon.awssdk.awscore.client.builder.AwsClientBuilder;
import software.amazon.awssdk.awscore.exception.AwsServiceException;
import software.amazon.awssdk.awscore.retry.AwsRetryStrategy;
import software.amazon.awssdk.core.client.config.ClientOverrideConfiguration;
import software.amazon.awssdk.core.interceptor.ExecutionInterceptor;
import software.amazon.awssdk.http.async.SdkAsyncHttpClient;
import software.amazon.awssdk.http.nio.netty.NettyNioAsyncHttpClient;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.retries.api.RetryStrategy;
import software.amazon.awssdk.services.dynamodb.DynamoDbAsyncClient;
import software.amazon.awssdk.services.dynamodb.DynamoDbAsyncClientBuilder;
import software.amazon.awssdk.services.ec2.Ec2AsyncClient;
import software.amazon.awssdk.services.s3.S3AsyncClient;
import software.amazon.awssdk.services.s3.model.NoSuchBucketException;
import software.amazon.awssdk.services.sqs.SqsAsyncClient;
import software.amazon.awssdk.utils.SdkAutoCloseable;

/**
 * The Cloud API on AWS (paper 000, section 6): storage on S3, simple queues on SQS or on S3,
 * machine reservation on EC2, and, when {@link AwsConfig#indexTablePrefix()} is set, the index
 * service on DynamoDB, from one {@link AwsConfig}.
 *
 * <pre>{@code
 * try (AwsCloud aws = AwsCloud.connect(AwsConfig.builder("my-bucket").region("eu-west-1").build());
 *     CloudServices cloud = aws.addTo(CloudServices.builder()).locks(zk.locks()).build()) {
 *   ...
 * }
 * }</pre>
 *
 * <p>Why one object owns everything: the three SDK clients share one Netty HTTP client (one event
 * loop and connection pool per service, not per client), one credentials provider and one set of
 * timeouts and retries, and must be closed together. {@link #connect} sends no request; a missing
 * bucket or wrong credentials show on the first call, as a {@link
 * io.stratus.cloudapi.CloudException} that names the cause. The services' own {@code close()} does
 * nothing; closing this object (or the {@link CloudServices} it was {@link #addTo added to})
 * releases the clients. Thread-safe.
 */
public final class AwsCloud implements AutoCloseable {
  private final AwsConfig config;
  private final SdkAsyncHttpClient http;
  private final AwsCredentialsProvider credentials;
  private final S3AsyncClient s3;
  private final S3AsyncClient s3NoRetry;
  private final SqsAsyncClient sqs;
  private final Ec2AsyncClient ec2;
  private final S3Storage storage;
  private final SimpleQueueService simpleQueues;
  private final Ec2Machines machines;
  private final @Nullable DynamoDbAsyncClient dynamo;
  private final @Nullable DynamoIndex index;

  private AwsCloud(AwsConfig config, List<ExecutionInterceptor> interceptors) {
    this.config = config;
    this.http =
        NettyNioAsyncHttpClient.builder()
            .maxConcurrency(config.maxConnections())
            .connectionTimeout(config.connectTimeout())
            .build();
    this.credentials = credentialsOf(config);
    RetryStrategy retries =
        config.maxAttempts() == 1
            ? AwsRetryStrategy.doNotRetry()
            : AwsRetryStrategy.standardRetryStrategy().toBuilder()
                .maxAttempts(config.maxAttempts())
                .build();
    ClientOverrideConfiguration usual = overrides(config, retries, interceptors);
    ClientOverrideConfiguration once =
        overrides(config, AwsRetryStrategy.doNotRetry(), interceptors);

    this.s3 =
        configure(S3AsyncClient.builder(), usual).forcePathStyle(config.pathStyleAccess()).build();
    this.s3NoRetry =
        configure(S3AsyncClient.builder(), once).forcePathStyle(config.pathStyleAccess()).build();
    this.sqs = configure(SqsAsyncClient.builder(), usual).build();
    this.ec2 = configure(Ec2AsyncClient.builder(), usual).build();

    Clock clock = Clock.systemUTC();
    this.storage = new S3Storage(s3, s3NoRetry, config.bucket(), config.keyPrefix(), clock);
    this.simpleQueues =
        config.queueBackend() == AwsConfig.QueueBackend.SQS
            ? new SqsQueues(sqs, config)
            : new S3Queues(
                new S3Storage(s3, s3NoRetry, config.bucket(), config.s3QueueKeyPrefix(), clock),
                clock,
                config.s3QueueMaxMessageSize());
    this.machines = new Ec2Machines(ec2, config.instanceType(), config.machineTag(), clock);
    if (config.indexTablePrefix().isPresent()) {
      DynamoDbAsyncClientBuilder b = DynamoDbAsyncClient.builder();
      configure(b, usual);
      config.indexEndpoint().ifPresent(b::endpointOverride);
      this.dynamo = b.build();
      this.index = new DynamoIndex(dynamo, config.indexTablePrefix().get(), IndexLimits.defaults());
    } else {
      this.dynamo = null;
      this.index = null;
    }
  }

  /** Builds the clients for {@code config}; sends no request. */
  public static AwsCloud connect(AwsConfig config) {
    return connect(config, List.of());
  }

  /** As {@link #connect(AwsConfig)}, with SDK interceptors (tests count requests with them). */
  static AwsCloud connect(AwsConfig config, List<ExecutionInterceptor> interceptors) {
    return new AwsCloud(Objects.requireNonNull(config, "config"), List.copyOf(interceptors));
  }

  public AwsConfig config() {
    return config;
  }

  /** Storage on S3, with conditional puts. */
  public SupportsConditionalPut storage() {
    return storage;
  }

  /** Simple queues on SQS, or on S3 when {@link AwsConfig#queueBackend()} says so. */
  public SimpleQueueService simpleQueues() {
    return simpleQueues;
  }

  /** Machine reservation on EC2. */
  public MachineReservationService machines() {
    return machines;
  }

  /**
   * The index service on DynamoDB, present when {@link AwsConfig#indexTablePrefix()} is set.
   * Queries read global secondary indexes and are eventually consistent.
   */
  public Optional<IndexService> index() {
    return Optional.ofNullable(index);
  }

  /**
   * Makes sure the configured bucket exists: a HEAD request, and a create when it is missing (for
   * test and benchmark set-ups; production buckets are usually made by infrastructure tooling).
   * Also the cheapest check that the endpoint is reachable and the credentials work.
   *
   * @return true when this call created the bucket
   * @throws io.stratus.cloudapi.CloudException when the endpoint cannot be reached, the
   *     credentials are refused, or the bucket cannot be made (e.g. its name is taken)
   */
  public boolean ensureBucket() {
    String bucket = config.bucket();
    try {
      s3.headBucket(b -> b.bucket(bucket)).join();
      return false;
    } catch (CompletionException e) {
      Throwable cause = e.getCause() == null ? e : e.getCause();
      boolean missing =
          cause instanceof NoSuchBucketException
              || (cause instanceof AwsServiceException ase && ase.statusCode() == 404);
      if (!missing) {
        throw AwsErrors.map(cause, "HEAD bucket " + bucket, false);
      }
    }
    try {
      s3.createBucket(b -> b.bucket(bucket)).join();
      return true;
    } catch (CompletionException e) {
      throw AwsErrors.map(e.getCause() == null ? e : e.getCause(), "create bucket " + bucket, true);
    }
  }

  /**
   * Adds storage, simple queues, machines and (when configured) the index service to {@code
   * builder}, and this object as a resource to close with the bundle; returns the builder.
   */
  public CloudServices.Builder addTo(CloudServices.Builder builder) {
    if (index != null) {
      builder.index(index);
    }
    return builder.storage(storage).simpleQueues(simpleQueues).machines(machines).closeWith(this);
  }

  /** Closes the SDK clients, then the HTTP client they share. Idempotent. */
  @Override
  public void close() {
    List<SdkAutoCloseable> all = new ArrayList<>(List.of(s3, s3NoRetry, sqs, ec2));
    if (dynamo != null) {
      all.add(dynamo);
    }
    if (credentials instanceof SdkAutoCloseable) {
      all.add((SdkAutoCloseable) credentials);
    }
    all.add(http);
    RuntimeException first = null;
    for (SdkAutoCloseable c : all) {
      try {
        c.close();
      } catch (RuntimeException e) {
        if (first == null) {
          first = e;
        } else {
          first.addSuppressed(e);
        }
      }
    }
    if (first != null) {
      throw first;
    }
  }

  /** Region, credentials, endpoint, time-outs and retries, and the one shared HTTP client. */
  private <B extends AwsClientBuilder<B, ?> & AwsAsyncClientBuilder<B, ?>> B configure(
      B builder, ClientOverrideConfiguration overrides) {
    builder
        .region(Region.of(config.region()))
        .credentialsProvider(credentials)
        .overrideConfiguration(overrides)
        .httpClient(http);
    config.endpoint().ifPresent(builder::endpointOverride);
    return builder;
  }

  private static ClientOverrideConfiguration overrides(
      AwsConfig config, RetryStrategy retries, List<ExecutionInterceptor> interceptors) {
    return ClientOverrideConfiguration.builder()
        .apiCallTimeout(config.apiCallTimeout())
        .apiCallAttemptTimeout(config.apiCallAttemptTimeout())
        .retryStrategy(retries)
        .executionInterceptors(interceptors)
        .build();
  }

  private static AwsCredentialsProvider credentialsOf(AwsConfig config) {
    AwsConfig.Credentials c = config.credentials();
    if (c == null) {
      return DefaultCredentialsProvider.builder().build();
    }
    return StaticCredentialsProvider.create(
        c.sessionToken() == null
            ? AwsBasicCredentials.create(c.accessKeyId(), c.secretAccessKey())
            : AwsSessionCredentials.create(c.accessKeyId(), c.secretAccessKey(), c.sessionToken()));
  }

  @Override
  public String toString() {
    return "AwsCloud{" + config + '}';
  }
}
