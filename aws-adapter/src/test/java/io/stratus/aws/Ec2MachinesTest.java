package io.stratus.aws;

import static io.stratus.aws.Fakes.ec2Error;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.stratus.cloudapi.BadRequestException;
import io.stratus.cloudapi.CloudFutures;
import io.stratus.cloudapi.MachineDescription;
import io.stratus.cloudapi.MachineDescription.MachineState;
import io.stratus.cloudapi.NotFoundException;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.ec2.model.DescribeInstancesRequest;
import software.amazon.awssdk.services.ec2.model.DescribeInstancesResponse;
import software.amazon.awssdk.services.ec2.model.Filter;
import software.amazon.awssdk.services.ec2.model.Instance;
import software.amazon.awssdk.services.ec2.model.InstanceState;
import software.amazon.awssdk.services.ec2.model.InstanceStateName;
import software.amazon.awssdk.services.ec2.model.Reservation;
import software.amazon.awssdk.services.ec2.model.RunInstancesRequest;
import software.amazon.awssdk.services.ec2.model.RunInstancesResponse;
import software.amazon.awssdk.services.ec2.model.TerminateInstancesRequest;
import software.amazon.awssdk.services.ec2.model.TerminateInstancesResponse;

/**
 * Ec2Machines' requests and its reading of EC2's answers, against a scripted client (the contract
 * itself runs against LocalStack's EC2 mock in {@link Ec2MachinesContractTest}).
 */
class Ec2MachinesTest {
  private static final Instant LAUNCHED = Instant.parse("2026-03-01T12:00:00Z");
  private final Fakes.Ec2 ec2 = new Fakes.Ec2();
  private final Ec2Machines machines =
      new Ec2Machines(ec2, "m7g.large", "prod", Clock.fixed(LAUNCHED, ZoneOffset.UTC));

  private static <T> T await(CompletableFuture<T> f) {
    return CloudFutures.await(f);
  }

  private static Instance instance(String id, InstanceStateName state) {
    return Instance.builder()
        .instanceId(id)
        .imageId("ami-1")
        .privateIpAddress("10.0.0.7")
        .launchTime(LAUNCHED)
        .state(InstanceState.builder().name(state).build())
        .build();
  }

  @Test
  void startRunsOneTaggedInstanceOfTheConfiguredType() {
    ec2.answer =
        r ->
            RunInstancesResponse.builder()
                .instances(instance("i-1", InstanceStateName.PENDING))
                .build();
    MachineDescription d = await(machines.start("ami-1"));
    assertThat(d)
        .isEqualTo(
            new MachineDescription("i-1", "ami-1", MachineState.PENDING, "10.0.0.7", LAUNCHED));
    RunInstancesRequest r = (RunInstancesRequest) ec2.requests.get(0);
    assertThat(r.imageId()).isEqualTo("ami-1");
    assertThat(r.instanceTypeAsString()).isEqualTo("m7g.large");
    assertThat(r.minCount()).isEqualTo(1);
    assertThat(r.maxCount()).isEqualTo(1);
    assertThat(r.tagSpecifications().get(0).tags().get(0).key()).isEqualTo(Ec2Machines.TAG_KEY);
    assertThat(r.tagSpecifications().get(0).tags().get(0).value()).isEqualTo("prod");
  }

  @Test
  void blankImagesAreBadRequestsAndUnknownImagesAreEc2s() {
    assertThatThrownBy(() -> await(machines.start(" "))).isInstanceOf(BadRequestException.class);
    assertThat(ec2.requests).isEmpty();
    ec2.answer = r -> ec2Error(400, "InvalidAMIID.NotFound");
    assertThatThrownBy(() -> await(machines.start("ami-x")))
        .isInstanceOf(BadRequestException.class)
        .hasMessageContaining("InvalidAMIID.NotFound");
  }

  @Test
  void stopTerminatesAndUnknownIdsAreNotFound() {
    ec2.answer = r -> TerminateInstancesResponse.builder().build();
    await(machines.stop("i-1"));
    assertThat(((TerminateInstancesRequest) ec2.requests.get(0)).instanceIds())
        .containsExactly("i-1");
    for (String code : new String[] {"InvalidInstanceID.NotFound", "InvalidInstanceID.Malformed"}) {
      ec2.answer = r -> ec2Error(400, code);
      assertThatThrownBy(() -> await(machines.stop("i-nope")))
          .isInstanceOf(NotFoundException.class);
      assertThat(await(machines.describe("i-nope"))).isEmpty();
    }
  }

  @Test
  void statesMapTowardsTerminated() {
    assertThat(Ec2Machines.stateOf(InstanceStateName.PENDING)).isEqualTo(MachineState.PENDING);
    assertThat(Ec2Machines.stateOf(InstanceStateName.RUNNING)).isEqualTo(MachineState.RUNNING);
    assertThat(Ec2Machines.stateOf(InstanceStateName.SHUTTING_DOWN))
        .isEqualTo(MachineState.STOPPING);
    assertThat(Ec2Machines.stateOf(InstanceStateName.STOPPED)).isEqualTo(MachineState.STOPPING);
    assertThat(Ec2Machines.stateOf(InstanceStateName.TERMINATED))
        .isEqualTo(MachineState.TERMINATED);
    assertThat(Ec2Machines.stateOf(null)).isEqualTo(MachineState.PENDING);
  }

  @Test
  void listRunningFiltersByTagAndStateAndFollowsPages() {
    ec2.answer =
        r -> {
          DescribeInstancesRequest d = (DescribeInstancesRequest) r;
          return d.nextToken() == null
              ? DescribeInstancesResponse.builder()
                  .nextToken("p2")
                  .reservations(
                      Reservation.builder()
                          .instances(instance("i-1", InstanceStateName.RUNNING))
                          .build())
                  .build()
              : DescribeInstancesResponse.builder()
                  .reservations(
                      Reservation.builder()
                          .instances(
                              instance("i-2", InstanceStateName.PENDING),
                              instance("i-3", InstanceStateName.TERMINATED))
                          .build())
                  .build();
        };
    List<MachineDescription> running = await(machines.listRunning());
    assertThat(running).extracting(MachineDescription::id).containsExactly("i-1", "i-2");
    DescribeInstancesRequest first = (DescribeInstancesRequest) ec2.requests.get(0);
    assertThat(first.filters())
        .extracting(Filter::name)
        .containsExactly("tag:" + Ec2Machines.TAG_KEY, "instance-state-name");
    assertThat(first.filters().get(0).values()).containsExactly("prod");
    assertThat(first.filters().get(1).values()).doesNotContain("terminated");
    assertThat(((DescribeInstancesRequest) ec2.requests.get(1)).nextToken()).isEqualTo("p2");
  }
}
