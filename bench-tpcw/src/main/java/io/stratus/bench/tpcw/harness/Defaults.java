package io.stratus.bench.tpcw.harness;

import io.stratus.bench.tpcw.workload.Mix;
import io.stratus.cloudapi.decorate.LatencyProfiles;
import io.stratus.protocols.ProtocolKind;
import java.time.Duration;
import java.util.List;
import java.util.Locale;

/**
 * The harness's defaults, one place, with the reason for each, and the checks of single values
 * shared by the command line and sweeps.
 *
 * <p>The defaults make a run of the six default protocols that finishes in under three minutes
 * on a two-core machine and is still long enough for what it measures: the measurement interval
 * spans {@value RunWarnings#PERIODS} TTLs and checkpoint intervals (the rule of {@link
 * RunWarnings}), so cached pages expire, are re-validated and paid for, and checkpoints run and are
 * paid for, several times in every run. That takes a TTL and checkpoint interval of 7 s with 21 s
 * measured, where the papers (000 section 7.1) used a 100 s TTL and 45 s checkpoints over long
 * runs; 7 s checkpoints are a little below the 10-15 s that 000 section 4.5 recommends for web
 * applications (10 s would need 30 s measured per run, and the run would take more than three
 * minutes). {@code --preset} restores the papers' settings, with runs of five minutes.
 */
public final class Defaults {
  /**
   * The protocols of the default run, in the order the papers present them: the five queue and
   * page protocols, which may lose updates, and snapshot isolation, which prevents them, so that
   * the lost updates the report counts have a protocol to compare with. Serializable snapshot and
   * two-phase locking are named with {@code --protocols}; with them the default run would not
   * finish in three minutes.
   */
  public static final List<ProtocolKind> PROTOCOLS =
      List.of(
          ProtocolKind.NAIVE,
          ProtocolKind.BASIC,
          ProtocolKind.MONOTONIC,
          ProtocolKind.ATOMIC,
          ProtocolKind.ADVANCED_ATOMIC,
          ProtocolKind.SNAPSHOT_ISOLATION);

  /** Page size: 100 KiB, close to the papers' 109 KB. */
  public static final int PAGE_SIZE = 100 * 1024;

  /** Buffer-pool TTL: a third of the measurement interval (see the class comment). */
  public static final Duration TTL = Duration.ofSeconds(7);

  /** Checkpoint interval: a third of the measurement interval (see the class comment). */
  public static final Duration CHECKPOINT_INTERVAL = Duration.ofSeconds(7);

  /** Emulated browsers. */
  public static final int EBS = 10;

  /** The specification's primary mix. */
  public static final Mix MIX = Mix.SHOPPING;

  /** The smallest item scale of the specification (the papers' Table 4 loads 1,000 products). */
  public static final int ITEMS = 1_000;

  /** CUSTOMER rows per EB in the specification. */
  public static final int CUSTOMERS_PER_EB = 2_880;

  /**
   * Warm-up of each run before measuring: its buffer pool fills and its queues get created. The
   * code is warm already: the warm pass ({@link #WARM_PASS}) ran every protocol before.
   */
  public static final Duration WARM_UP = Duration.ofSeconds(1);

  /**
   * The longest the warm pass lets every protocol browse before the first measured run ({@link
   * WarmPass}); it ends sooner once the JIT compiler has settled.
   */
  public static final Duration WARM_PASS = Duration.ofSeconds(10);

  /** Measurement interval of one run: three TTLs and checkpoint intervals. */
  public static final Duration MEASURE = Duration.ofSeconds(21);

  /** Think time: none, as in the papers' runs. */
  public static final Duration THINK_TIME = Duration.ZERO;

  /** The papers' EC2 placement: the stack next to the storage. */
  public static final String PLACEMENT = "ec2";

  /**
   * End-user round trip added per interaction in the EC2 placement: zero by default, so that
   * response times are the server's; set it (e.g. 100ms for Europe to us-east-1) to reproduce the
   * papers' end-to-end times.
   */
  public static final Duration END_USER_RTT = Duration.ZERO;

  /** Seed when none is given: fixed, so that two default runs are comparable. */
  public static final long SEED = 2008;

  private Defaults() {}

  /** The default settings for {@code protocol} on the in-process cloud. */
  public static RunSettings settings(ProtocolKind protocol) {
    return RunSettings.builder()
        .protocol(protocol)
        .cloud(CloudTarget.Kind.IN_PROCESS.id())
        .placement(PLACEMENT)
        .latencyProfile(PLACEMENT)
        .pageSize(PAGE_SIZE)
        .ttl(TTL)
        .checkpointInterval(CHECKPOINT_INTERVAL)
        .ebs(EBS)
        .mix(MIX)
        .items(ITEMS)
        .customersPerEb(CUSTOMERS_PER_EB)
        .warmUp(WARM_UP)
        .measure(MEASURE)
        .thinkTimeMean(THINK_TIME)
        .endUserRoundTrip(END_USER_RTT)
        .seed(SEED)
        .build();
  }

  /** Parses a positive integer setting. */
  public static int positive(String name, String value) {
    int n = Integer.parseInt(value.trim().replace("_", ""));
    if (n < 1) {
      throw new IllegalArgumentException(name + " must be positive, not " + value);
    }
    return n;
  }

  /** Checks a positive duration setting. */
  public static Duration positive(String name, Duration d) {
    if (d.isNegative() || d.isZero()) {
      throw new IllegalArgumentException(name + " must be positive, not " + Durations.format(d));
    }
    return d;
  }

  /** Parses a page size: bytes, or KiB with a k suffix. */
  public static int pageSize(String value) {
    String v = value.trim().toLowerCase(Locale.ROOT);
    int n =
        v.endsWith("k")
            ? Integer.parseInt(v.substring(0, v.length() - 1)) * 1024
            : Integer.parseInt(v);
    if (n < 1024 || n > 4 * 1024 * 1024) {
      throw new IllegalArgumentException(
          "page size must be between 1k and 4096k bytes, not " + value);
    }
    return n;
  }

  /** Checks a latency profile name. */
  public static String profile(String value) {
    String p = value.trim().toLowerCase(Locale.ROOT);
    LatencyProfiles.byName(p); // throws with the known names
    return p;
  }
}
