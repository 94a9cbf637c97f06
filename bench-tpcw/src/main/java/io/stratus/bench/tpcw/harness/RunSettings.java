package io.stratus.bench.tpcw.harness;

import io.stratus.bench.tpcw.workload.Mix;
import io.stratus.protocols.ProtocolKind;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;

/**
 * One configuration of a TPC-W run: where the cloud is, how the client stack is placed, how the
 * database is configured, and what the emulated browsers do. A sweep is a list of these that
 * differ in one parameter.
 *
 * @param protocol the commit protocol
 * @param cloud "in-process", "localstack" or "aws"
 * @param placement the papers' client placement: "eu" (whole client stack outside the cloud) or
 *     "ec2" (stack next to the storage, one end-user round trip per interaction)
 * @param latencyProfile the latency profile simulated on the in-process cloud (eu, ec2, none);
 *     "real" for LocalStack and AWS
 * @param pageSize page size in bytes
 * @param ttl buffer-pool time to live
 * @param checkpointInterval checkpoint interval of the queue protocols
 * @param ebs concurrent emulated browsers
 * @param mix the workload mix
 * @param items item scale (number of ITEM rows)
 * @param customersPerEb CUSTOMER rows per EB (2,880 in the specification)
 * @param warmUp warm-up interval (not measured)
 * @param measure measurement interval
 * @param thinkTimeMean mean think time (zero: none, as in the papers' runs)
 * @param endUserRoundTrip added to every interaction for the EC2 placement
 * @param seed the run's seed (data generation, navigation, checkpoint draws)
 * @param clients application servers, each its own database handle (buffer pool, client id,
 *     background checkpoints) serving {@code ebs} browsers; the database is scaled for all
 *     {@code clients * ebs} browsers
 * @param index where the bookstore's secondary indexes live
 */
public record RunSettings(
    ProtocolKind protocol,
    String cloud,
    String placement,
    String latencyProfile,
    int pageSize,
    Duration ttl,
    Duration checkpointInterval,
    int ebs,
    Mix mix,
    int items,
    int customersPerEb,
    Duration warmUp,
    Duration measure,
    Duration thinkTimeMean,
    Duration endUserRoundTrip,
    long seed,
    int clients,
    IndexChoice index) {

  /** Checks the client count. */
  public RunSettings {
    if (clients < 1) {
      throw new IllegalArgumentException("clients must be positive, not " + clients);
    }
    Objects.requireNonNull(index, "index");
  }

  /** Settings of {@code clients} application servers with client-side B-tree indexes. */
  public RunSettings(
      ProtocolKind protocol,
      String cloud,
      String placement,
      String latencyProfile,
      int pageSize,
      Duration ttl,
      Duration checkpointInterval,
      int ebs,
      Mix mix,
      int items,
      int customersPerEb,
      Duration warmUp,
      Duration measure,
      Duration thinkTimeMean,
      Duration endUserRoundTrip,
      long seed,
      int clients) {
    this(
        protocol,
        cloud,
        placement,
        latencyProfile,
        pageSize,
        ttl,
        checkpointInterval,
        ebs,
        mix,
        items,
        customersPerEb,
        warmUp,
        measure,
        thinkTimeMean,
        endUserRoundTrip,
        seed,
        clients,
        IndexChoice.BTREE);
  }

  /** Settings of one application server. */
  public RunSettings(
      ProtocolKind protocol,
      String cloud,
      String placement,
      String latencyProfile,
      int pageSize,
      Duration ttl,
      Duration checkpointInterval,
      int ebs,
      Mix mix,
      int items,
      int customersPerEb,
      Duration warmUp,
      Duration measure,
      Duration thinkTimeMean,
      Duration endUserRoundTrip,
      long seed) {
    this(
        protocol,
        cloud,
        placement,
        latencyProfile,
        pageSize,
        ttl,
        checkpointInterval,
        ebs,
        mix,
        items,
        customersPerEb,
        warmUp,
        measure,
        thinkTimeMean,
        endUserRoundTrip,
        seed,
        1);
  }

  /** These settings with {@code n} application servers. */
  public RunSettings withClients(int n) {
    return new RunSettings(
        protocol,
        cloud,
        placement,
        latencyProfile,
        pageSize,
        ttl,
        checkpointInterval,
        ebs,
        mix,
        items,
        customersPerEb,
        warmUp,
        measure,
        thinkTimeMean,
        endUserRoundTrip,
        seed,
        n,
        index);
  }

  /** These settings with the indexes held where {@code choice} says. */
  public RunSettings withIndex(IndexChoice choice) {
    return new RunSettings(
        protocol,
        cloud,
        placement,
        latencyProfile,
        pageSize,
        ttl,
        checkpointInterval,
        ebs,
        mix,
        items,
        customersPerEb,
        warmUp,
        measure,
        thinkTimeMean,
        endUserRoundTrip,
        seed,
        clients,
        choice);
  }

  /** Emulated browsers of all clients together. */
  public int totalEbs() {
    return ebs * clients;
  }

  /** The settings as ordered name → value pairs, for reports. */
  public Map<String, String> describe() {
    Map<String, String> m = new LinkedHashMap<>();
    m.put("protocol", protocol.name().toLowerCase(java.util.Locale.ROOT));
    m.put("cloud", cloud);
    m.put("placement", placement);
    m.put("latency profile", latencyProfile);
    m.put("page size", Integer.toString(pageSize));
    m.put("ttl", Durations.format(ttl));
    m.put("checkpoint interval", Durations.format(checkpointInterval));
    m.put("ebs", Integer.toString(ebs));
    m.put("mix", mix.id());
    m.put("items", Integer.toString(items));
    m.put("customers per eb", Integer.toString(customersPerEb));
    m.put("warm-up", Durations.format(warmUp));
    m.put("measure", Durations.format(measure));
    m.put("think time", Durations.format(thinkTimeMean));
    m.put("end-user round trip", Durations.format(endUserRoundTrip));
    m.put("seed", Long.toString(seed));
    m.put("clients", Integer.toString(clients));
    m.put("index", index.id());
    return m;
  }
}
