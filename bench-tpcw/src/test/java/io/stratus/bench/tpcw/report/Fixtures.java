package io.stratus.bench.tpcw.report;

import io.stratus.bench.tpcw.bookstore.StockAudit;
import io.stratus.bench.tpcw.harness.ClientResult;
import io.stratus.bench.tpcw.harness.CpuProfile;
import io.stratus.bench.tpcw.harness.Drain;
import io.stratus.bench.tpcw.harness.LoadSummary;
import io.stratus.bench.tpcw.harness.OwnReads;
import io.stratus.bench.tpcw.harness.RunResult;
import io.stratus.bench.tpcw.harness.RunSettings;
import io.stratus.bench.tpcw.harness.ServerCost;
import io.stratus.bench.tpcw.harness.SweepResult;
import io.stratus.bench.tpcw.workload.Interaction;
import io.stratus.bench.tpcw.workload.Mix;
import io.stratus.bench.tpcw.workload.ResponseStats;
import io.stratus.protocols.ProtocolKind;
import java.time.Duration;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Hand-built sweeps for the report tests, with numbers shaped like the papers' results: reads cost
 * the same under every protocol, naive's updates are slow, atomic's are fast but its background
 * work is expensive (and, as in the harness, charged to the update interactions). Values are deterministic functions of the protocol and the run's position,
 * so the tests can compute expected ratios.
 */
final class Fixtures {
  static final List<ProtocolKind> ALL =
      List.of(ProtocolKind.NAIVE, ProtocolKind.BASIC, ProtocolKind.MONOTONIC, ProtocolKind.ATOMIC);

  private Fixtures() {}

  /** One run per protocol, labelled by the protocol's name: naive, basic, monotonic, atomic. */
  static SweepResult protocolSweep() {
    List<RunResult> runs = new ArrayList<>();
    for (ProtocolKind p : ALL) {
      runs.add(
          run(p.name().toLowerCase(Locale.ROOT), settings(p, 10, Duration.ofSeconds(100)), 1.0));
    }
    return new SweepResult("protocol", runs);
  }

  /** ebs=1,10,50 crossed with basic and atomic: six runs labelled "1", "10", "50". */
  static SweepResult ebsSweep() {
    List<RunResult> runs = new ArrayList<>();
    for (int ebs : new int[] {1, 10, 50}) {
      for (ProtocolKind p : List.of(ProtocolKind.BASIC, ProtocolKind.ATOMIC)) {
        runs.add(
            run(Integer.toString(ebs), settings(p, ebs, Duration.ofSeconds(100)), 1 + ebs / 10.0));
      }
    }
    return new SweepResult("ebs", runs);
  }

  /** ttl=250ms,10s,100s for naive and monotonic: a duration-valued sweep. */
  static SweepResult ttlSweep() {
    List<RunResult> runs = new ArrayList<>();
    for (String ttl : List.of("250ms", "10s", "100s")) {
      for (ProtocolKind p : List.of(ProtocolKind.NAIVE, ProtocolKind.MONOTONIC)) {
        Duration d = io.stratus.bench.tpcw.harness.Durations.parse(ttl);
        runs.add(run(ttl, settings(p, 10, d), 1.0));
      }
    }
    return new SweepResult("ttl", runs);
  }

  /** A non-numeric sweep (the mix) over basic only. */
  static SweepResult mixSweep() {
    List<RunResult> runs = new ArrayList<>();
    for (Mix mix : Mix.values()) {
      RunSettings s = settings(ProtocolKind.BASIC, 10, Duration.ofSeconds(100));
      s = s.toBuilder().mix(mix).build();
      runs.add(run(mix.id(), s, 1.0));
    }
    return new SweepResult("mix", runs);
  }

  /**
   * Two runs with everything that can go wrong in a file format: a label with a comma, quotes
   * and a newline, error samples with quotes, backslashes and control characters, a table name
   * with a comma, an interaction that never ran (absent from the map), a NaN statistic and a
   * run with no completed interactions at all.
   */
  static SweepResult awkward() {
    RunResult plain = run("naive", settings(ProtocolKind.NAIVE, 10, Duration.ofSeconds(100)), 1.0);
    Map<Interaction, ResponseStats> per = new EnumMap<>(plain.perInteraction());
    per.remove(Interaction.ADMIN_CONFIRM);
    per.put(
        Interaction.HOME,
        new ResponseStats("Home", 5, 1, Double.NaN, 1, 2, 3, 1.5, 0.01, 0.001, 0, 0, 0, 4.5, 0, 0));
    Map<String, Long> tables = new LinkedHashMap<>();
    tables.put("item", 1000L);
    tables.put("odd, \"table\"", 7L);
    LoadSummary load =
        new LoadSummary(
            tables, Duration.ofMillis(23_300), Duration.ofMillis(2_100), 120, 0.2, 0.05, 40);
    RunResult awkward =
        new RunResult(
            "basic, \"tuned\"\nv2",
            settings(ProtocolKind.BASIC, 10, Duration.ofSeconds(100)),
            load,
            per,
            plain.read(),
            plain.update(),
            plain.total(),
            12.5,
            25,
            0.875,
            3,
            1,
            10,
            0.1,
            0.01,
            List.of("IOException: \"timeout\" at C:\\path", "tab\there\u0001bell"),
            2,
            1,
            new Drain(7, 0.01, 0.002, 5, 40, 3, 900, false, 400),
            ServerCost.of(1, 40, 25, 312),
            4,
            List.of(
                new ClientResult(0, 6.25, plain.total(), plain.update(), 2, 0, 3),
                new ClientResult(1, 6.25, plain.total(), plain.update(), 1, 1, 1)),
            new StockAudit(1000, 3, 7, 2, 1),
            new OwnReads(40, 2, 1500),
            1,
            List.of(),
            CpuProfile.NONE);
    RunResult empty =
        new RunResult(
            "atomic",
            settings(ProtocolKind.ATOMIC, 10, Duration.ofSeconds(100)),
            null,
            Map.of(),
            null,
            null,
            null,
            0,
            25,
            Double.NaN,
            0,
            0,
            0,
            0,
            0,
            List.of(),
            0,
            0,
            Drain.NONE,
            ServerCost.NONE,
            0,
            List.of(),
            null,
            null,
            1,
            List.of(),
            CpuProfile.NONE);
    return new SweepResult("protocol", List.of(plain, awkward, empty));
  }

  /**
   * The protocol sweep with one outlier: basic's Admin Confirm measured once, at 3,785 ms (as a
   * default run once measured it), while every other bar rests on many more interactions and
   * stays under 500 ms.
   */
  static SweepResult withOutlier() {
    List<RunResult> runs = new ArrayList<>();
    for (ProtocolKind p : ALL) {
      RunResult r =
          run(p.name().toLowerCase(Locale.ROOT), settings(p, 10, Duration.ofSeconds(100)), 1.0);
      Map<Interaction, ResponseStats> per = new EnumMap<>(r.perInteraction());
      for (Interaction wi : Interaction.values()) {
        ResponseStats s = per.get(wi);
        long count = p == ProtocolKind.BASIC && wi == Interaction.ADMIN_CONFIRM ? 1 : 100;
        double ms = count == 1 ? 3785 : s.meanMillis();
        per.put(wi, stats(s.label(), count, ms, s.milliDollars2008()));
      }
      runs.add(
          new RunResult(
              r.label(),
              r.settings(),
              r.load(),
              per,
              r.read(),
              r.update(),
              r.total(),
              r.interactionsPerSecond(),
              r.measuredSeconds(),
              r.bufferPoolHitRate(),
              r.checkpointsRun(),
              r.checkpointsFailed(),
              r.backgroundRequests(),
              r.backgroundMilliDollars2008(),
              r.backgroundMilliDollars2026(),
              r.errorSamples(),
              r.lostItemUpdates(),
              r.lostCustomerUpdates(),
              r.drain(),
              r.serverCost(),
              r.lockRefusals(),
              r.clients(),
              r.stockAudit(),
              r.ownReads(),
              1,
              List.of(),
              CpuProfile.NONE));
    }
    return new SweepResult("protocol", runs);
  }

  static RunSettings settings(ProtocolKind p, int ebs, Duration ttl) {
    return RunSettings.builder()
        .protocol(p)
        .cloud("in-process")
        .placement("ec2")
        .latencyProfile("ec2")
        .pageSize(100 * 1024)
        .ttl(ttl)
        .checkpointInterval(Duration.ofSeconds(10))
        .ebs(ebs)
        .mix(Mix.SHOPPING)
        .items(1000)
        .customersPerEb(2880)
        .warmUp(Duration.ofSeconds(5))
        .measure(Duration.ofSeconds(25))
        .thinkTimeMean(Duration.ZERO)
        .endUserRoundTrip(Duration.ZERO)
        .seed(2008)
        .build();
  }

  /** Update-interaction response time of {@code p} in ms, before the load factor. */
  static double updateMillis(ProtocolKind p) {
    return switch (p) {
      case NAIVE -> 400;
      case BASIC -> 120;
      case MONOTONIC -> 130;
      default -> 100;
    };
  }

  /** Cost per update interaction in m$ (2008), before background work. */
  static double updateMilliDollars(ProtocolKind p) {
    return switch (p) {
      case NAIVE -> 0.05;
      case BASIC -> 0.02;
      case MONOTONIC -> 0.03;
      default -> 0.04;
    };
  }

  /** Background cost of a run in m$ (2008): atomic propagates, so pays most. */
  static double backgroundMilliDollars(ProtocolKind p) {
    return switch (p) {
      case NAIVE -> 0;
      case BASIC -> 5;
      case MONOTONIC -> 6;
      default -> 20;
    };
  }

  static RunResult run(String label, RunSettings s, double loadFactor) {
    ProtocolKind p = s.protocol();
    Map<Interaction, ResponseStats> per = new EnumMap<>(Interaction.class);
    long readCount = 0;
    long updateCount = 0;
    int k = 0;
    for (Interaction wi : Interaction.values()) {
      long count = Math.round(s.mix().percent(wi) * 10) + 1;
      double ms = (wi.isUpdate() ? updateMillis(p) : 40 + k) * loadFactor;
      double m08 = wi.isUpdate() ? updateMilliDollars(p) : 0.002 + k * 0.0001;
      per.put(wi, stats(wi.label(), count, ms, m08));
      if (wi.isUpdate()) {
        updateCount += count;
      } else {
        readCount += count;
      }
      k++;
    }
    // As the harness does, the background work is charged to the update interactions.
    double bg = backgroundMilliDollars(p);
    ResponseStats read = stats("read", readCount, 45 * loadFactor, 0.0025);
    ResponseStats update =
        stats(
            "update",
            updateCount,
            updateMillis(p) * loadFactor,
            updateMilliDollars(p) + bg / updateCount);
    long total = readCount + updateCount;
    double totalMs = (read.meanMillis() * readCount + update.meanMillis() * updateCount) / total;
    double totalM08 = (0.0025 * readCount + updateMilliDollars(p) * updateCount + bg) / total;
    ResponseStats all = stats("total", total, totalMs, totalM08);
    Map<String, Long> tables = new LinkedHashMap<>();
    tables.put("item", (long) s.items());
    tables.put("customer", (long) s.customersPerEb() * s.ebs());
    LoadSummary load =
        new LoadSummary(
            tables,
            Duration.ofMillis(20_000 + s.ebs() * 100L),
            Duration.ofMillis(2_000),
            500 + s.ebs(),
            0.2 * s.ebs(),
            0.05 * s.ebs(),
            30 + s.ebs(),
            100 + s.ebs(),
            0.04 * s.ebs(),
            0.01 * s.ebs());
    return new RunResult(
        label,
        s,
        load,
        per,
        read,
        update,
        all,
        total / 25.0,
        25,
        0.9,
        2,
        0,
        (long) (bg * 100),
        bg,
        bg / 4,
        List.of(),
        0,
        0,
        new Drain(12, bg / 10, bg / 40, 1, 30, 2, 400, true, 300),
        ServerCost.of(1, p == ProtocolKind.NAIVE ? 0 : total / 4, 25, total),
        0,
        List.of(),
        new StockAudit(s.items(), 0, 0, 0, 0),
        new OwnReads(100, p == ProtocolKind.NAIVE ? 0 : 3, 250),
        1,
        List.of(),
        CpuProfile.NONE);
  }

  private static ResponseStats stats(String label, long count, double ms, double m08) {
    return new ResponseStats(
        label, count, 0, ms, ms * 0.9, ms * 1.5, ms * 2.5, 3.5, m08, m08 / 4, 12.5, 80, count / 2,
        6.25, 1.5, 0.125);
  }
}
