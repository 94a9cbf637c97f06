package io.stratus.bench.tpcw.harness;

import io.stratus.aws.AwsCloud;
import io.stratus.aws.AwsConfig;
import io.stratus.cloudapi.CloudException;
import io.stratus.cloudapi.CloudServices;
import io.stratus.cloudapi.inprocess.InProcessCloud;
import io.stratus.zookeeper.ZooKeeperCloud;
import io.stratus.zookeeper.ZooKeeperConfig;
import java.time.Duration;

/**
 * The undecorated cloud services of one run, opened for a {@link CloudTarget} and closed after the
 * run. Every run gets a namespace of its own (a fresh in-process cloud; on the real clouds a key
 * prefix, queue-name prefix and ZooKeeper namespace made from the run id), so runs never see each
 * other's pages or queues.
 */
final class CloudConnection implements AutoCloseable {
  private final CloudServices services;
  private final String description;

  private CloudConnection(CloudServices services, String description) {
    this.services = services;
    this.description = description;
  }

  /**
   * Opens the services of {@code target} for the run {@code runId} (letters, digits and dashes,
   * at most 16 characters).
   *
   * @throws io.stratus.cloudapi.CloudException when a real cloud cannot be reached or refuses the
   *     credentials (checked here, with one request, before any data is loaded)
   */
  static CloudConnection open(CloudTarget target, String runId, long seed) {
    if (!runId.matches("[a-z0-9-]{1,16}")) {
      throw new IllegalArgumentException("bad run id: " + runId);
    }
    InProcessCloud local = InProcessCloud.builder().seed(seed).build();
    if (target.kind() == CloudTarget.Kind.IN_PROCESS) {
      return new CloudConnection(local.services(), "in-process cloud");
    }
    AwsConfig.Builder aws =
        AwsConfig.builder(target.bucket())
            .region(target.region())
            .keyPrefix("tpcw/" + runId + "/")
            .s3QueueKeyPrefix("tpcw/" + runId + "/queues/")
            .queueNamePrefix("tpcw-" + runId + "-");
    if (target.hasIndexService()) {
      // One DynamoDB table per index domain, named after the run: runs never share a domain.
      aws.indexTablePrefix("tpcw-" + runId + "-");
      target.indexEndpoint().ifPresent(aws::indexEndpoint);
    }
    if (target.kind() == CloudTarget.Kind.LOCALSTACK) {
      aws.endpoint(target.endpoint().orElseThrow())
          .pathStyleAccess(true)
          .staticCredentials("test", "test");
    } else {
      aws.defaultCredentials();
    }
    AwsCloud cloud = AwsCloud.connect(aws.build());
    ZooKeeperCloud zk = null;
    try {
      try {
        cloud.ensureBucket();
      } catch (CloudException e) {
        String where =
            target.kind() == CloudTarget.Kind.LOCALSTACK
                ? "LocalStack at " + target.endpoint().orElseThrow()
                : "AWS in " + target.region();
        throw new IllegalStateException(
            "cannot use bucket "
                + target.bucket()
                + " on "
                + where
                + ": "
                + firstLine(e.getMessage()),
            e);
      }
      CloudServices.Builder b = cloud.addTo(CloudServices.builder());
      String coordination;
      if (target.zookeeper().isPresent()) {
        zk =
            ZooKeeperCloud.connect(
                ZooKeeperConfig.builder(target.zookeeper().get())
                    .namespace("stratus-tpcw-" + runId)
                    // The namespace is new: there were no earlier lock holders to wait out.
                    .freshNamespaceRefusal(Duration.ZERO)
                    .build());
        zk.addTo(b);
        coordination = "ZooKeeper at " + target.zookeeper().get();
      } else {
        CloudServices in = local.services();
        b.locks(in.locks()).counters(in.counters()).advancedQueues(in.advancedQueues());
        coordination = "in-process locks and counters";
      }
      String where =
          target.kind() == CloudTarget.Kind.LOCALSTACK
              ? "LocalStack at " + target.endpoint().orElseThrow()
              : "AWS " + target.region();
      String index = target.indexEndpoint().map(u -> ", index service at " + u).orElse("");
      return new CloudConnection(
          b.build(), where + ", bucket " + target.bucket() + ", " + coordination + index);
    } catch (RuntimeException e) {
      if (zk != null) {
        zk.close();
      }
      cloud.close();
      throw e;
    }
  }

  private static String firstLine(String message) {
    if (message == null) {
      return "no detail";
    }
    int nl = message.indexOf('\n');
    return nl < 0 ? message : message.substring(0, nl);
  }

  /** The raw services; the runner decorates them. */
  CloudServices services() {
    return services;
  }

  /** One line for the console. */
  String description() {
    return description;
  }

  @Override
  public void close() {
    services.close();
  }
}
