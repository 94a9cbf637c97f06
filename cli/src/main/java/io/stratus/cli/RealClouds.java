package io.stratus.cli;

import io.stratus.aws.AwsCloud;
import io.stratus.aws.AwsConfig;
import io.stratus.cloudapi.CloudServices;
import io.stratus.cloudapi.inprocess.InProcessCloud;
import io.stratus.zookeeper.ZooKeeperCloud;
import io.stratus.zookeeper.ZooKeeperConfig;
import java.net.URI;
import java.util.Locale;
import java.util.Optional;
import java.util.function.UnaryOperator;

/**
 * The clouds of the command line: a fresh in-process cloud (useful with {@code --demo} only: it
 * holds nothing else), LocalStack, or AWS with the default credential chain. On the two real
 * clouds locks, counters and advanced queues come from ZooKeeper when {@code --zookeeper} is
 * given; otherwise from an in-process cloud, whose locks exclude no other process.
 */
final class RealClouds implements CloudOpener {
  private final UnaryOperator<String> environment;

  /** The clouds, with the process environment. */
  RealClouds() {
    this(System::getenv);
  }

  /** The clouds, with {@code environment} as the variables. */
  RealClouds(UnaryOperator<String> environment) {
    this.environment = environment;
  }

  @Override
  public String environment(String name) {
    return environment.apply(name);
  }

  @Override
  public CloudServices open(ConnectionOptions o) {
    ConnectionOptions.Cloud cloud = o.cloud();
    InProcessCloud local = InProcessCloud.create();
    if (cloud == ConnectionOptions.Cloud.INPROCESS) {
      return local.services();
    }
    o.checkComplete(this::environment);
    AwsConfig.Builder aws =
        AwsConfig.builder(o.bucket)
            .region(o.region)
            .keyPrefix(o.keyPrefix)
            .queueNamePrefix(o.queuePrefix)
            .queueBackend(queueBackend(o.queueBackend));
    if (cloud == ConnectionOptions.Cloud.LOCALSTACK) {
      aws.endpoint(URI.create(o.endpointUrl(this::environment)))
          .pathStyleAccess(true)
          .staticCredentials("test", "test");
    } else {
      aws.defaultCredentials();
    }
    AwsCloud awsCloud = AwsCloud.connect(aws.build());
    try {
      CloudServices.Builder b = awsCloud.addTo(CloudServices.builder());
      if (o.zookeeper != null) {
        ZooKeeperConfig.Builder zc = ZooKeeperConfig.builder(o.zookeeper).namespace(o.zkNamespace);
        digest(o).ifPresent(d -> zc.digestCredentials(d[0], d[1]));
        ZooKeeperCloud zk = ZooKeeperCloud.connect(zc.build());
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

  /**
   * The clients' digest credentials as {user, password}, from the variable {@code --zk-digest-env}
   * names; empty when it is not set. Never from a flag: a flag's value shows in process listings.
   */
  Optional<String[]> digest(ConnectionOptions o) {
    String value = environment(o.zkDigestEnv);
    if (value == null || value.isEmpty()) {
      return Optional.empty();
    }
    int colon = value.indexOf(':');
    if (colon <= 0 || colon == value.length() - 1) {
      // The value is a secret: the message names the variable only.
      throw new UsageException(
          "$" + o.zkDigestEnv + " must hold ZooKeeper digest credentials as USER:PASSWORD");
    }
    return Optional.of(new String[] {value.substring(0, colon), value.substring(colon + 1)});
  }

  private static AwsConfig.QueueBackend queueBackend(String name) {
    try {
      return AwsConfig.QueueBackend.valueOf(name.trim().toUpperCase(Locale.ROOT));
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException("unknown queue backend '" + name + "' (sqs or s3)");
    }
  }
}
