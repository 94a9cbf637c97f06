package io.stratus.cli;

import io.stratus.aws.AwsCloud;
import io.stratus.aws.AwsConfig;
import io.stratus.cloudapi.CloudServices;
import io.stratus.cloudapi.inprocess.InProcessCloud;
import io.stratus.zookeeper.ZooKeeperCloud;
import io.stratus.zookeeper.ZooKeeperConfig;
import java.net.URI;
import java.util.Locale;

/**
 * The clouds of the command line: a fresh in-process cloud (useful with {@code --demo} only: it
 * holds nothing else), LocalStack, or AWS with the default credential chain. On the two real
 * clouds locks, counters and advanced queues come from ZooKeeper when {@code --zookeeper} is
 * given; otherwise from an in-process cloud, whose locks exclude no other process.
 */
final class RealClouds implements CloudOpener {

  @Override
  public CloudServices open(ConnectionOptions o) {
    ConnectionOptions.Cloud cloud = o.cloud();
    InProcessCloud local = InProcessCloud.create();
    if (cloud == ConnectionOptions.Cloud.INPROCESS) {
      return local.services();
    }
    if (o.bucket == null || o.bucket.isBlank()) {
      throw new IllegalArgumentException(
          "--cloud " + cloud.name().toLowerCase(Locale.ROOT) + " needs --bucket");
    }
    AwsConfig.Builder aws =
        AwsConfig.builder(o.bucket)
            .region(o.region)
            .keyPrefix(o.keyPrefix)
            .queueNamePrefix(o.queuePrefix)
            .queueBackend(queueBackend(o.queueBackend));
    if (cloud == ConnectionOptions.Cloud.LOCALSTACK) {
      String url =
          o.endpoint != null
              ? o.endpoint
              : System.getenv(ConnectionOptions.LOCALSTACK_ENDPOINT_ENV);
      if (url == null || url.isBlank()) {
        throw new IllegalArgumentException(
            "--cloud localstack needs --endpoint (or $"
                + ConnectionOptions.LOCALSTACK_ENDPOINT_ENV
                + "), e.g. http://localhost:4566");
      }
      aws.endpoint(URI.create(url.trim())).pathStyleAccess(true).staticCredentials("test", "test");
    } else {
      aws.defaultCredentials();
    }
    AwsCloud awsCloud = AwsCloud.connect(aws.build());
    try {
      CloudServices.Builder b = awsCloud.addTo(CloudServices.builder());
      if (o.zookeeper != null) {
        ZooKeeperCloud zk =
            ZooKeeperCloud.connect(
                ZooKeeperConfig.builder(o.zookeeper).namespace(o.zkNamespace).build());
        zk.addTo(b);
      } else {
        CloudServices in = local.services();
        b.locks(in.locks()).counters(in.counters()).advancedQueues(in.advancedQueues());
      }
      return b.build();
    } catch (RuntimeException e) {
      awsCloud.close();
      throw e;
    }
  }

  private static AwsConfig.QueueBackend queueBackend(String name) {
    try {
      return AwsConfig.QueueBackend.valueOf(name.trim().toUpperCase(Locale.ROOT));
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException("unknown queue backend '" + name + "' (sqs or s3)");
    }
  }
}
