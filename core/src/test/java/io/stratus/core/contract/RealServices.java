package io.stratus.core.contract;

import io.stratus.aws.AwsCloud;
import io.stratus.aws.LocalStackFixture;
import io.stratus.cloudapi.CloudServices;
import io.stratus.zookeeper.ZooKeeperCloud;
import io.stratus.zookeeper.ZooKeeperConfig;
import java.time.Clock;
import java.time.Duration;
import java.util.UUID;
import org.apache.curator.test.TestingServer;

/**
 * Real services for the protocol contract: storage and simple queues on S3 and SQS (LocalStack,
 * found or started by the AWS adapter's fixture), locks, counters and advanced queues on a real
 * ZooKeeper (curator-test), both started once per test class and stopped by {@link #close}.
 *
 * <p>Each {@link #connect} gets its own key prefix, queue-name prefix and ZooKeeper namespace, so
 * the tests of a class share the servers without seeing each other's state. The clients judge
 * leases on the clock they are given (the contract's manual clock: the database handles and the
 * ZooKeeper adapter decide every lease on it), while the servers keep real time: SQS's visibility
 * timeouts are the one thing the manual clock cannot move, which a run without faults never waits
 * for (its checkpoints delete what they receive).
 */
final class RealServices implements AutoCloseable {
  private final TestingServer zookeeper;
  private final LocalStackFixture localstack;

  RealServices() throws Exception {
    this.localstack = LocalStackFixture.get();
    this.zookeeper = new TestingServer(true);
  }

  /** One connection: the services of one contract cloud, closed with it. */
  record Connection(CloudServices services, AutoCloseable resources) {}

  /** Services for one contract cloud, whose clients run on {@code clock}. */
  Connection connect(Clock clock) {
    String run = UUID.randomUUID().toString().substring(0, 8);
    AwsCloud aws =
        AwsCloud.connect(
            localstack
                .config()
                .keyPrefix("contract/" + run + "/")
                .queueNamePrefix("ct-" + run)
                // Empty queues answer at once: checkpoints receive until a few come back empty.
                .receiveWait(Duration.ZERO)
                .build());
    ZooKeeperCloud zk;
    try {
      zk =
          ZooKeeperCloud.connect(
              ZooKeeperConfig.builder(zookeeper.getConnectString())
                  .namespace("contract-" + run)
                  .clock(clock)
                  // A namespace made for this run had no earlier lock holders to wait out.
                  .freshNamespaceRefusal(Duration.ZERO)
                  .build());
    } catch (RuntimeException e) {
      aws.close();
      throw e;
    }
    CloudServices services = zk.addTo(aws.addTo(CloudServices.builder())).build();
    return new Connection(
        services,
        () -> {
          try (aws) {
            zk.close();
          }
        });
  }

  @Override
  public void close() throws Exception {
    zookeeper.close();
  }
}
