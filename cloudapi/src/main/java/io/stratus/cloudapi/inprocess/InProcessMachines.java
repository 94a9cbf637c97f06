package io.stratus.cloudapi.inprocess;

import io.stratus.cloudapi.BadRequestException;
import io.stratus.cloudapi.CloudException;
import io.stratus.cloudapi.MachineDescription;
import io.stratus.cloudapi.MachineDescription.MachineState;
import io.stratus.cloudapi.MachineReservationService;
import io.stratus.cloudapi.NotFoundException;
import java.time.Clock;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Supplier;

/**
 * Machine reservation in memory (paper 000, section 2.3.2): bookkeeping only, no machine is
 * started. It lets the layers above (e.g. a harness that "starts" lock or counter servers) run
 * their control flow against the Cloud API without a cloud account.
 *
 * <p>A machine is RUNNING from {@link #start} until {@link #stop} makes it TERMINATED, for good.
 * Ids look like EC2 instance ids ({@code i-} and 17 hex digits) and come from a counter, so they
 * are fresh and in launch order; addresses are loopback addresses derived from the same counter
 * (127.0.0.1, 127.0.0.2, ...), since nothing listens on them. Terminated machines stay describable,
 * as on EC2 for a while.
 *
 * <p>Thread-safe: the counter is atomic and each machine's state changes inside {@link
 * ConcurrentHashMap#compute}. Every call completes its future before it returns.
 */
final class InProcessMachines implements MachineReservationService {
  private final Clock clock;
  private final AtomicLong launched = new AtomicLong();
  private final ConcurrentHashMap<String, MachineDescription> machines = new ConcurrentHashMap<>();

  InProcessMachines(Clock clock) {
    this.clock = Objects.requireNonNull(clock, "clock");
  }

  @Override
  public CompletableFuture<MachineDescription> start(String machineImage) {
    return call(
        () -> {
          if (machineImage == null || machineImage.isBlank()) {
            throw new BadRequestException("a machine image must be named");
          }
          long n = launched.incrementAndGet();
          String id = String.format("i-%017x", n);
          MachineDescription d =
              new MachineDescription(
                  id, machineImage, MachineState.RUNNING, loopback(n), clock.instant());
          machines.put(id, d);
          return d;
        });
  }

  @Override
  public CompletableFuture<Void> stop(String machineId) {
    return call(
        () -> {
          checkId(machineId);
          MachineDescription after =
              machines.computeIfPresent(
                  machineId,
                  (id, d) ->
                      d.state() == MachineState.TERMINATED
                          ? d
                          : new MachineDescription(
                              id, d.image(), MachineState.TERMINATED, d.address(), d.launchedAt()));
          if (after == null) {
            throw new NotFoundException("no machine " + machineId);
          }
          return null;
        });
  }

  @Override
  public CompletableFuture<Optional<MachineDescription>> describe(String machineId) {
    return call(
        () -> {
          checkId(machineId);
          return Optional.ofNullable(machines.get(machineId));
        });
  }

  @Override
  public CompletableFuture<List<MachineDescription>> listRunning() {
    return call(
        () -> {
          List<MachineDescription> out = new ArrayList<>();
          for (MachineDescription d : machines.values()) {
            if (d.state() != MachineState.TERMINATED) {
              out.add(d);
            }
          }
          // Fixed-width hex ids sort in launch order.
          out.sort(Comparator.comparing(MachineDescription::id));
          return List.copyOf(out);
        });
  }

  /**
   * The n-th host address of 127.0.0.0/8 (n counts from 1): 127.0.0.1, 127.0.0.2, ... Skips the
   * network and broadcast addresses, and wraps after 16 million machines rather than leave /8.
   */
  private static String loopback(long n) {
    long host = (n - 1) % ((1L << 24) - 2) + 1;
    return "127." + ((host >> 16) & 0xff) + '.' + ((host >> 8) & 0xff) + '.' + (host & 0xff);
  }

  private static void checkId(String machineId) {
    if (machineId == null || machineId.isBlank()) {
      throw new BadRequestException("a machine id must be non-empty");
    }
  }

  /** Runs a call on the caller's thread; a rejected request becomes a failed future. */
  private static <T> CompletableFuture<T> call(Supplier<T> body) {
    try {
      return CompletableFuture.completedFuture(body.get());
    } catch (CloudException e) {
      return CompletableFuture.failedFuture(e);
    }
  }
}
