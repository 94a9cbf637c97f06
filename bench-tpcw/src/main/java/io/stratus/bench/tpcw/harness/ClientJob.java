package io.stratus.bench.tpcw.harness;

import io.stratus.bench.tpcw.workload.Mix;
import io.stratus.protocols.ProtocolKind;
import java.io.IOException;
import java.io.Reader;
import java.io.Writer;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Objects;
import java.util.Optional;
import java.util.Properties;

/**
 * What one client process of a run does ({@link ClientProcessMain}): which cloud and database it
 * joins, which client it is, the run's settings, when its browsers start, and where it writes its
 * {@link ClientOutcome}. The parent writes it to a file the child reads, as properties.
 *
 * @param target the shared cloud
 * @param runId the run's id, which names its namespace on that cloud
 * @param databaseUri the run's database, loaded by the parent
 * @param client the client's index, 0 to {@code settings.clients() - 1}
 * @param settings the run's settings
 * @param interactionsPerEb 0 to run by time; otherwise each browser also stops after this many
 * @param startSignal the file in which the parent, once every client is ready, writes when the
 *     browsers start (milliseconds of the wall clock all processes share), so that the clients'
 *     measurement intervals coincide
 * @param output where the child writes its outcome; it announces that it is ready by creating
 *     {@link #readyFile()}
 */
record ClientJob(
    CloudTarget target,
    String runId,
    String databaseUri,
    int client,
    RunSettings settings,
    long interactionsPerEb,
    Path startSignal,
    Path output) {

  /** Checks the parts. */
  ClientJob {
    Objects.requireNonNull(target, "target");
    Objects.requireNonNull(runId, "runId");
    Objects.requireNonNull(databaseUri, "databaseUri");
    Objects.requireNonNull(settings, "settings");
    Objects.requireNonNull(startSignal, "startSignal");
    Objects.requireNonNull(output, "output");
    if (client < 0 || client >= settings.clients()) {
      throw new IllegalArgumentException(
          "client " + client + " is not one of the run's " + settings.clients());
    }
  }

  /** The file the child creates when its handle is open and its browsers can start. */
  Path readyFile() {
    return output.resolveSibling(output.getFileName() + ".ready");
  }

  /**
   * The file client {@code k} of the run creates when its browsers have stopped, which the client
   * that drains the snapshot archive waits for ({@link ArchiveDrainTurn}).
   */
  Path stoppedFile(int k) {
    return startSignal.resolveSibling("client-" + k + ".stopped");
  }

  /**
   * The seed of this client's browsers: the run's seed for client 0, so that a run of one client
   * process browses as a run in one JVM does, and a different one for every other client.
   */
  long browserSeed() {
    return settings.seed() + 0x9E37_79B9_7F4A_7C15L * client;
  }

  /** Writes the job to {@code file}. */
  void writeTo(Path file) throws IOException {
    Properties p = new Properties();
    p.setProperty("cloud.kind", target.kind().id());
    target.endpoint().ifPresent(u -> p.setProperty("cloud.endpoint", u.toString()));
    p.setProperty("cloud.region", target.region());
    p.setProperty("cloud.bucket", target.bucket());
    target.zookeeper().ifPresent(z -> p.setProperty("cloud.zookeeper", z));
    target.indexEndpoint().ifPresent(u -> p.setProperty("cloud.index-endpoint", u.toString()));
    p.setProperty("run-id", runId);
    p.setProperty("database", databaseUri);
    p.setProperty("client", Integer.toString(client));
    p.setProperty("interactions-per-eb", Long.toString(interactionsPerEb));
    p.setProperty("start-signal", startSignal.toString());
    p.setProperty("output", output.toString());
    RunSettings s = settings;
    p.setProperty("protocol", s.protocol().name());
    p.setProperty("cloud", s.cloud());
    p.setProperty("placement", s.placement());
    p.setProperty("latency-profile", s.latencyProfile());
    p.setProperty("page-size", Integer.toString(s.pageSize()));
    p.setProperty("ttl", s.ttl().toString());
    p.setProperty("checkpoint-interval", s.checkpointInterval().toString());
    p.setProperty("ebs", Integer.toString(s.ebs()));
    p.setProperty("mix", s.mix().id());
    p.setProperty("items", Integer.toString(s.items()));
    p.setProperty("customers-per-eb", Integer.toString(s.customersPerEb()));
    p.setProperty("warm-up", s.warmUp().toString());
    p.setProperty("measure", s.measure().toString());
    p.setProperty("think-time", s.thinkTimeMean().toString());
    p.setProperty("end-user-rtt", s.endUserRoundTrip().toString());
    p.setProperty("seed", Long.toString(s.seed()));
    p.setProperty("clients", Integer.toString(s.clients()));
    p.setProperty("index", s.index().id());
    p.setProperty("client-placement", s.clientPlacement().id());
    try (Writer w = Files.newBufferedWriter(file, StandardCharsets.UTF_8)) {
      p.store(w, "a client process of a Stratus TPC-W run");
    }
  }

  /**
   * Reads a job {@link #writeTo} wrote.
   *
   * @throws IOException if the file cannot be read
   * @throws IllegalArgumentException if a value is missing or malformed (the message names it)
   */
  static ClientJob readFrom(Path file) throws IOException {
    Properties p = new Properties();
    try (Reader r = Files.newBufferedReader(file, StandardCharsets.UTF_8)) {
      p.load(r);
    }
    CloudTarget target =
        new CloudTarget(
            CloudTarget.Kind.parse(get(p, "cloud.kind")),
            Optional.ofNullable(p.getProperty("cloud.endpoint")).map(URI::create),
            get(p, "cloud.region"),
            get(p, "cloud.bucket"),
            Optional.ofNullable(p.getProperty("cloud.zookeeper")),
            Optional.ofNullable(p.getProperty("cloud.index-endpoint")).map(URI::create));
    RunSettings settings =
        RunSettings.builder()
            .protocol(ProtocolKind.valueOf(get(p, "protocol")))
            .cloud(get(p, "cloud"))
            .placement(get(p, "placement"))
            .latencyProfile(get(p, "latency-profile"))
            .pageSize(Integer.parseInt(get(p, "page-size")))
            .ttl(Duration.parse(get(p, "ttl")))
            .checkpointInterval(Duration.parse(get(p, "checkpoint-interval")))
            .ebs(Integer.parseInt(get(p, "ebs")))
            .mix(Mix.parse(get(p, "mix")))
            .items(Integer.parseInt(get(p, "items")))
            .customersPerEb(Integer.parseInt(get(p, "customers-per-eb")))
            .warmUp(Duration.parse(get(p, "warm-up")))
            .measure(Duration.parse(get(p, "measure")))
            .thinkTimeMean(Duration.parse(get(p, "think-time")))
            .endUserRoundTrip(Duration.parse(get(p, "end-user-rtt")))
            .seed(Long.parseLong(get(p, "seed")))
            .clients(Integer.parseInt(get(p, "clients")))
            .index(IndexChoice.parse(get(p, "index")))
            .clientPlacement(ClientPlacement.parse(get(p, "client-placement")))
            .build();
    return new ClientJob(
        target,
        get(p, "run-id"),
        get(p, "database"),
        Integer.parseInt(get(p, "client")),
        settings,
        Long.parseLong(get(p, "interactions-per-eb")),
        Path.of(get(p, "start-signal")),
        Path.of(get(p, "output")));
  }

  private static String get(Properties p, String name) {
    String v = p.getProperty(name);
    if (v == null) {
      throw new IllegalArgumentException("the client job has no '" + name + "'");
    }
    return v;
  }
}
