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
 *     "real" for LocalStack and AWS, except with {@link ClientPlacement#PROCESS}, where each client
 *     process adds the profile's waits to the shared cloud's own
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
 * @param clientPlacement whether the clients run in this JVM or each in a process of its own
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
    IndexChoice index,
    ClientPlacement clientPlacement) {

  /**
   * Checks every setting once, whichever way the settings were made ({@link #builder()}, {@link
   * #toBuilder()}).
   *
   * @throws NullPointerException naming a missing setting
   * @throws IllegalArgumentException naming a setting out of its range
   */
  public RunSettings {
    Objects.requireNonNull(protocol, "protocol");
    Objects.requireNonNull(cloud, "cloud");
    Objects.requireNonNull(placement, "placement");
    Objects.requireNonNull(latencyProfile, "latencyProfile");
    Objects.requireNonNull(mix, "mix");
    Objects.requireNonNull(index, "index");
    Objects.requireNonNull(clientPlacement, "clientPlacement");
    positive("pageSize", pageSize);
    positive("ebs", ebs);
    positive("items", items);
    positive("customersPerEb", customersPerEb);
    positive("clients", clients);
    notNegative("ttl", ttl);
    notNegative("checkpointInterval", checkpointInterval);
    notNegative("warmUp", warmUp);
    notNegative("thinkTimeMean", thinkTimeMean);
    notNegative("endUserRoundTrip", endUserRoundTrip);
    if (notNegative("measure", measure).isZero()) {
      throw new IllegalArgumentException("measure must be positive, not " + measure);
    }
  }

  private static void positive(String name, int value) {
    if (value < 1) {
      throw new IllegalArgumentException(name + " must be positive, not " + value);
    }
  }

  private static Duration notNegative(String name, Duration value) {
    if (Objects.requireNonNull(value, name).isNegative()) {
      throw new IllegalArgumentException(name + " must not be negative, not " + value);
    }
    return value;
  }

  /**
   * A builder with nothing set but one application server ({@code clients} 1) in this JVM and
   * client-side B-tree indexes; {@link Builder#build()} checks the settings.
   */
  public static Builder builder() {
    return new Builder();
  }

  /** A builder holding these settings, to make settings that differ in a few of them. */
  public Builder toBuilder() {
    return new Builder()
        .protocol(protocol)
        .cloud(cloud)
        .placement(placement)
        .latencyProfile(latencyProfile)
        .pageSize(pageSize)
        .ttl(ttl)
        .checkpointInterval(checkpointInterval)
        .ebs(ebs)
        .mix(mix)
        .items(items)
        .customersPerEb(customersPerEb)
        .warmUp(warmUp)
        .measure(measure)
        .thinkTimeMean(thinkTimeMean)
        .endUserRoundTrip(endUserRoundTrip)
        .seed(seed)
        .clients(clients)
        .index(index)
        .clientPlacement(clientPlacement);
  }

  /**
   * Collects {@link RunSettings}; each setter only stores its value, and {@link #build()} checks
   * them all at once (see the record's parameters for their meaning). Not thread-safe.
   */
  public static final class Builder {
    private ProtocolKind protocol;
    private String cloud;
    private String placement;
    private String latencyProfile;
    private int pageSize;
    private Duration ttl;
    private Duration checkpointInterval;
    private int ebs;
    private Mix mix;
    private int items;
    private int customersPerEb;
    private Duration warmUp;
    private Duration measure;
    private Duration thinkTimeMean;
    private Duration endUserRoundTrip;
    private long seed;
    private int clients = 1;
    private IndexChoice index = IndexChoice.BTREE;
    private ClientPlacement clientPlacement = ClientPlacement.JVM;

    private Builder() {}

    /** The commit protocol. */
    public Builder protocol(ProtocolKind protocol) {
      this.protocol = protocol;
      return this;
    }

    /** "in-process", "localstack" or "aws". */
    public Builder cloud(String cloud) {
      this.cloud = cloud;
      return this;
    }

    /** The papers' client placement, "eu" or "ec2". */
    public Builder placement(String placement) {
      this.placement = placement;
      return this;
    }

    /** The latency profile simulated on the in-process cloud; "real" on the others. */
    public Builder latencyProfile(String latencyProfile) {
      this.latencyProfile = latencyProfile;
      return this;
    }

    /** Page size in bytes. */
    public Builder pageSize(int pageSize) {
      this.pageSize = pageSize;
      return this;
    }

    /** Buffer-pool time to live. */
    public Builder ttl(Duration ttl) {
      this.ttl = ttl;
      return this;
    }

    /** Checkpoint interval of the protocols that checkpoint. */
    public Builder checkpointInterval(Duration checkpointInterval) {
      this.checkpointInterval = checkpointInterval;
      return this;
    }

    /** Emulated browsers per application server. */
    public Builder ebs(int ebs) {
      this.ebs = ebs;
      return this;
    }

    /** The workload mix. */
    public Builder mix(Mix mix) {
      this.mix = mix;
      return this;
    }

    /** Item scale. */
    public Builder items(int items) {
      this.items = items;
      return this;
    }

    /** CUSTOMER rows per emulated browser. */
    public Builder customersPerEb(int customersPerEb) {
      this.customersPerEb = customersPerEb;
      return this;
    }

    /** Warm-up interval, not measured. */
    public Builder warmUp(Duration warmUp) {
      this.warmUp = warmUp;
      return this;
    }

    /** Measurement interval. */
    public Builder measure(Duration measure) {
      this.measure = measure;
      return this;
    }

    /** Mean think time; zero for none. */
    public Builder thinkTimeMean(Duration thinkTimeMean) {
      this.thinkTimeMean = thinkTimeMean;
      return this;
    }

    /** Round trip to the end user added to every interaction. */
    public Builder endUserRoundTrip(Duration endUserRoundTrip) {
      this.endUserRoundTrip = endUserRoundTrip;
      return this;
    }

    /** The run's seed. */
    public Builder seed(long seed) {
      this.seed = seed;
      return this;
    }

    /** Application servers, each its own database handle (default 1). */
    public Builder clients(int clients) {
      this.clients = clients;
      return this;
    }

    /** Where the bookstore's secondary indexes live (default client-side B-trees). */
    public Builder index(IndexChoice index) {
      this.index = index;
      return this;
    }

    /** Where the clients run (default all in this JVM). */
    public Builder clientPlacement(ClientPlacement clientPlacement) {
      this.clientPlacement = clientPlacement;
      return this;
    }

    /**
     * The settings.
     *
     * @throws NullPointerException naming a setting that was not given
     * @throws IllegalArgumentException naming a setting out of its range
     */
    public RunSettings build() {
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
          index,
          clientPlacement);
    }
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
    m.put("client placement", clientPlacement.id());
    return m;
  }
}
