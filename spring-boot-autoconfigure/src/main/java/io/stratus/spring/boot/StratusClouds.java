package io.stratus.spring.boot;

import io.stratus.InvalidConfigurationException;
import io.stratus.cloudapi.CloudServices;
import io.stratus.cloudapi.inprocess.InProcessCloud;
import java.util.Locale;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.util.ClassUtils;

/**
 * The cloud services named by {@code stratus.cloud.*}: an in-process cloud, or S3 and SQS (AWS or
 * LocalStack) with locks, counters and advanced queues from ZooKeeper.
 *
 * <p>Why the adapters are reached through {@link AwsClouds} and {@link ZooKeeperClouds}: they are
 * optional dependencies, so this class must load without them; it checks that the one a setting
 * needs is on the class path and says which artifact to add when it is not.
 */
final class StratusClouds {
  private static final Logger LOG = LoggerFactory.getLogger(StratusClouds.class);
  static final String AWS_CLASS = "io.stratus.aws.AwsCloud";
  static final String ZOOKEEPER_CLASS = "io.stratus.zookeeper.ZooKeeperCloud";

  private StratusClouds() {}

  /**
   * Connects to the cloud {@code cloud} describes; the caller closes the services.
   *
   * @throws InvalidConfigurationException for a setting that is missing or wrong, or an adapter
   *     that is not on the class path
   */
  static CloudServices open(StratusProperties.Cloud cloud, ClassLoader loader) {
    StratusProperties.CloudKind kind = cloud.getKind();
    if (kind == null || kind == StratusProperties.CloudKind.INPROCESS) {
      if (cloud.getZookeeper().getConnectString() != null) {
        throw new InvalidConfigurationException(
            "stratus.cloud.zookeeper.connect-string needs"
                + " stratus.cloud.kind=localstack or aws (the in-process cloud has its own locks)");
      }
      return InProcessCloud.create().services();
    }
    String name = kind.name().toLowerCase(Locale.ROOT);
    require(loader, AWS_CLASS, "stratus-aws-adapter", "stratus.cloud.kind=" + name);
    String bucket = cloud.getBucket();
    if (bucket == null || bucket.isBlank()) {
      throw new InvalidConfigurationException(
          "stratus.cloud.kind=" + name + " needs stratus.cloud.bucket");
    }
    CloudServices.Builder b = CloudServices.builder();
    AutoCloseable aws =
        AwsClouds.addTo(b, cloud, bucket, kind == StratusProperties.CloudKind.LOCALSTACK);
    try {
      String zk = cloud.getZookeeper().getConnectString();
      if (zk != null && !zk.isBlank()) {
        require(
            loader,
            ZOOKEEPER_CLASS,
            "stratus-zookeeper-adapter",
            "stratus.cloud.zookeeper.connect-string");
        ZooKeeperClouds.addTo(b, cloud.getZookeeper(), zk);
      } else {
        LOG.warn(
            "stratus.cloud.zookeeper.connect-string is not set: locks, counters and advanced"
                + " queues are this JVM's own and exclude no other process; run one application"
                + " instance per database, or set it");
        CloudServices local = InProcessCloud.create().services();
        b.locks(local.locks()).counters(local.counters()).advancedQueues(local.advancedQueues());
      }
      return b.build();
    } catch (RuntimeException | Error e) {
      try {
        aws.close();
      } catch (Exception suppressed) {
        e.addSuppressed(suppressed);
      }
      throw e;
    }
  }

  private static void require(
      ClassLoader loader, String className, String artifact, String setting) {
    if (!ClassUtils.isPresent(className, loader)) {
      throw new InvalidConfigurationException(
          setting
              + " needs io.stratus:"
              + artifact
              + " on the class path (add it as a dependency)");
    }
  }
}
