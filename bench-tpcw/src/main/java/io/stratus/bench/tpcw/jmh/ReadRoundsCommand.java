package io.stratus.bench.tpcw.jmh;

import io.stratus.protocols.ProtocolKind;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** {@code stratus-bench read-rounds}: the point-read benchmark in interleaved rounds. */
@Command(
    name = "read-rounds",
    mixinStandardHelpOptions = true,
    description = {
      "Measures the cached point read of every protocol, the floor and H2's MVStore (the forms",
      "of 'jmh PointRead') in interleaved rounds, each form in a JVM of its own, and prints per",
      "form the median over the rounds of its ratio to the floor and to MVStore in the same",
      "round: ratios a machine whose speed drifts cannot skew."
    })
public final class ReadRoundsCommand implements Callable<Integer> {
  @Option(
      names = "--protocols",
      split = ",",
      description = "Protocols to measure (default: all of them).")
  List<ProtocolKind> protocols = Arrays.asList(ProtocolKind.values());

  @Option(
      names = "--forks",
      defaultValue = "2",
      description = "JVMs per form (default: ${DEFAULT-VALUE}).")
  int forks;

  @Option(
      names = "--rounds",
      defaultValue = "30",
      description = "Rounds of one burst per form (default: ${DEFAULT-VALUE}).")
  int rounds;

  @Option(
      names = "--burst-ms",
      defaultValue = "200",
      description = "Milliseconds of reads per burst (default: ${DEFAULT-VALUE}).")
  long burstMillis;

  @Option(
      names = "--seed",
      defaultValue = "2008",
      description = "Seed of each round's order of the forms (default: ${DEFAULT-VALUE}).")
  long seed;

  @CommandLine.Spec CommandLine.Model.CommandSpec spec;

  @Override
  public Integer call() throws Exception {
    ReadPathRounds rounds;
    try {
      rounds =
          new ReadPathRounds(
              protocols.stream().map(Enum::name).toList(), forks, this.rounds, burstMillis, seed);
    } catch (IllegalArgumentException e) {
      throw new CommandLine.ParameterException(spec.commandLine(), e.getMessage());
    }
    rounds.run(spec.commandLine().getOut());
    return 0;
  }
}
