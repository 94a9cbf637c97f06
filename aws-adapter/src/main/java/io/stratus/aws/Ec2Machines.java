package io.stratus.aws;

import io.stratus.cloudapi.BadRequestException;
import io.stratus.cloudapi.MachineDescription;
import io.stratus.cloudapi.MachineDescription.MachineState;
import io.stratus.cloudapi.MachineReservationService;
import io.stratus.cloudapi.NotFoundException;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import org.jspecify.annotations.Nullable;
import software.amazon.awssdk.awscore.exception.AwsServiceException;
import software.amazon.awssdk.services.ec2.Ec2AsyncClient;
import software.amazon.awssdk.services.ec2.model.Filter;
import software.amazon.awssdk.services.ec2.model.Instance;
import software.amazon.awssdk.services.ec2.model.InstanceStateName;
import software.amazon.awssdk.services.ec2.model.Reservation;
import software.amazon.awssdk.services.ec2.model.ResourceType;
import software.amazon.awssdk.services.ec2.model.Tag;
import software.amazon.awssdk.services.ec2.model.TagSpecification;

/**
 * {@link MachineReservationService} on EC2 (paper 000, section 6.2): start = RunInstances of one
 * instance, stop = TerminateInstances, describe = DescribeInstances.
 *
 * <p>Why: every instance is tagged {@code stratus:cloud=<machineTag>} at launch, so that {@link
 * #listRunning()} lists this deployment's machines only and not everything in the account. The SDK
 * fills RunInstances' ClientToken by itself and keeps it across its retries, so a retried start
 * never launches a second machine. EC2's states map to the Cloud API's: shutting-down, stopping
 * and stopped are all {@link MachineState#STOPPING} (on their way out: this service only ever
 * terminates). An id EC2 does not know, or that is not even well formed, is {@link
 * NotFoundException} for stop and empty for describe, as the contract says.
 */
final class Ec2Machines implements MachineReservationService {
  /** The tag key that marks this deployment's instances. */
  static final String TAG_KEY = "stratus:cloud";

  private final Ec2AsyncClient ec2;
  private final String instanceType;
  private final String tagValue;
  private final Clock clock;

  Ec2Machines(Ec2AsyncClient ec2, String instanceType, String tagValue, Clock clock) {
    this.ec2 = Objects.requireNonNull(ec2, "ec2");
    this.instanceType = Objects.requireNonNull(instanceType, "instanceType");
    this.tagValue = Objects.requireNonNull(tagValue, "tagValue");
    this.clock = Objects.requireNonNull(clock, "clock");
  }

  @Override
  public CompletableFuture<MachineDescription> start(String machineImage) {
    return AwsErrors.guard(
        "EC2 start of " + machineImage,
        true,
        () -> {
          if (machineImage == null || machineImage.isBlank()) {
            throw new BadRequestException("a machine image must not be blank");
          }
          TagSpecification tags =
              TagSpecification.builder()
                  .resourceType(ResourceType.INSTANCE)
                  .tags(Tag.builder().key(TAG_KEY).value(tagValue).build())
                  .build();
          return ec2.runInstances(
                  b ->
                      b.imageId(machineImage)
                          .instanceType(instanceType)
                          .minCount(1)
                          .maxCount(1)
                          .tagSpecifications(tags))
              .thenApply(
                  r -> {
                    if (r.instances().isEmpty()) {
                      throw new BadRequestException("EC2 started no instance of " + machineImage);
                    }
                    return describe(r.instances().get(0));
                  });
        });
  }

  @Override
  public CompletableFuture<Void> stop(String machineId) {
    String what = "EC2 stop of " + machineId;
    return AwsErrors.guard(
        what,
        true,
        () -> {
          checkId(machineId);
          CompletableFuture<Boolean> f =
              ec2.terminateInstances(b -> b.instanceIds(machineId)).thenApply(r -> Boolean.TRUE);
          return AwsErrors.recover(
                  f,
                  what,
                  true,
                  (t, e) -> {
                    if (isUnknownId(e)) {
                      throw new NotFoundException("there is no machine " + machineId);
                    }
                    return null;
                  })
              .thenApply(v -> (Void) null);
        });
  }

  @Override
  public CompletableFuture<Optional<MachineDescription>> describe(String machineId) {
    String what = "EC2 describe of " + machineId;
    return AwsErrors.guard(
        what,
        false,
        () -> {
          checkId(machineId);
          CompletableFuture<Optional<MachineDescription>> f =
              ec2.describeInstances(b -> b.instanceIds(machineId))
                  .thenApply(
                      r -> {
                        for (Reservation res : r.reservations()) {
                          for (Instance i : res.instances()) {
                            if (machineId.equals(i.instanceId())) {
                              return Optional.of(describe(i));
                            }
                          }
                        }
                        return Optional.empty();
                      });
          return AwsErrors.recover(
              f, what, false, (t, e) -> isUnknownId(e) ? Optional.empty() : null);
        });
  }

  @Override
  public CompletableFuture<List<MachineDescription>> listRunning() {
    return AwsErrors.guard(
        "EC2 list of machines",
        false,
        () -> {
          List<MachineDescription> out = new ArrayList<>();
          return listFrom(null, out).thenApply(v -> out);
        });
  }

  private CompletableFuture<Void> listFrom(@Nullable String token, List<MachineDescription> into) {
    Filter tag = Filter.builder().name("tag:" + TAG_KEY).values(tagValue).build();
    Filter live =
        Filter.builder()
            .name("instance-state-name")
            .values("pending", "running", "shutting-down", "stopping", "stopped")
            .build();
    return ec2.describeInstances(b -> b.filters(tag, live).nextToken(token))
        .thenCompose(
            r -> {
              for (Reservation res : r.reservations()) {
                for (Instance i : res.instances()) {
                  MachineDescription d = describe(i);
                  if (d.state() != MachineState.TERMINATED) {
                    into.add(d);
                  }
                }
              }
              return r.nextToken() == null || r.nextToken().isEmpty()
                  ? CompletableFuture.completedFuture(null)
                  : listFrom(r.nextToken(), into);
            });
  }

  MachineDescription describe(Instance i) {
    return new MachineDescription(
        i.instanceId(),
        i.imageId() == null ? "" : i.imageId(),
        stateOf(i.state() == null ? null : i.state().name()),
        i.privateIpAddress() == null ? "" : i.privateIpAddress(),
        i.launchTime() == null ? clock.instant() : i.launchTime());
  }

  static MachineState stateOf(@Nullable InstanceStateName s) {
    if (s == null) {
      return MachineState.PENDING;
    }
    switch (s) {
      case RUNNING:
        return MachineState.RUNNING;
      case SHUTTING_DOWN:
      case STOPPING:
      case STOPPED:
        return MachineState.STOPPING;
      case TERMINATED:
        return MachineState.TERMINATED;
      case PENDING:
      default:
        return MachineState.PENDING;
    }
  }

  private static void checkId(String machineId) {
    if (machineId == null || machineId.isBlank()) {
      throw new BadRequestException("a machine id must not be blank");
    }
  }

  private static boolean isUnknownId(AwsServiceException e) {
    String code = AwsErrors.errorCode(e);
    return code.equals("InvalidInstanceID.NotFound") || code.equals("InvalidInstanceID.Malformed");
  }

  @Override
  public String toString() {
    return "Ec2Machines{instanceType=" + instanceType + ", tag=" + TAG_KEY + "=" + tagValue + '}';
  }
}
