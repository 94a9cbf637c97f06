package io.stratus.bench.tpcw.harness;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.stream.Stream;

/**
 * Named sets of command-line values that reproduce the experiments of paper 000, section 7: {@code
 * --preset paper-fig3} runs what Figures 3, 4 and 7 show. A preset is a list of flags in the
 * command line's own syntax, so its values go through the same parsing and checks as typed ones,
 * and a flag given explicitly next to a preset replaces the preset's value of that flag.
 *
 * <p>Every preset uses the papers' settings (000 section 7.1): the five protocols the paper
 * compares (naive, basic, atomic, locking, snapshot isolation), 109 KB pages (decimal kilobytes,
 * as the latency profiles read the papers' tables), a 100 s TTL, 45 s checkpoints, one emulated
 * browser (the papers' single client issued one request at a time, without think time) against
 * one application server, and the specification's shopping mix, 1,000 items and 2,880 customers
 * per EB. The measurement interval is five minutes, the shortest that spans {@value
 * RunWarnings#PERIODS} TTLs, so that cached pages expire and checkpoints run several times in
 * every run. In the EC2 placement the papers timed each interaction end to end from a machine in
 * Europe; the presets add a 100 ms round trip per interaction for that hop, the figure the ec2 and
 * eu latency profiles assume for a service on EC2 reached from Europe.
 *
 * <p>Figures 9 and 10 load one EC2 server with 1 to 100 browsers; their preset runs that
 * application server in a process of its own ({@link ClientPlacement#PROCESS}), apart from the
 * harness's load and audit, so it needs the shared services such a process joins: LocalStack and
 * ZooKeeper where {@code bin/localstack start} and {@code bin/zookeeper start} serve by default
 * ({@code --endpoint} and {@code --zookeeper} name others), with the ec2 latency profile added in
 * the process.
 *
 * @param name the name given to {@code --preset}
 * @param aliases further names, one per figure the same runs reproduce
 * @param reproduces the figures of paper 000 the runs reproduce and what they vary, briefly
 * <p>The presets of the configurations with the index service ({@link #indexService()}: the SDB
 * halves of Figures 3-8, Figures 9-10 on EC2-SDB and Table 4) would take hours at the paper's
 * settings, mostly loading the service one batch or item at a time; by default they run shorter
 * and smaller (see {@link #paperScale()}), and {@code --paper-scale} gives the paper's.
 *
 * @param name the name given to {@code --preset}
 * @param aliases further names, one per figure the same runs reproduce
 * @param reproduces the figures of paper 000 the runs reproduce and what they vary, briefly
 * @param options the flags, long names to values, in the order they are listed
 * @param paperScale the flags whose values {@code --paper-scale} replaces with these, to run at
 *     the paper's lengths and sizes; empty when {@code options} are the paper's already
 */
public record Preset(
    String name,
    List<String> aliases,
    String reproduces,
    Map<String, String> options,
    Map<String, String> paperScale) {

  /** The protocols paper 000 compares in section 7, in its order. */
  public static final String PAPER_PROTOCOLS =
      "naive,basic,atomic,two_phase_locking,snapshot_isolation";

  /** The round trip from the papers' client machine in Europe to EC2. */
  public static final String EUROPE_TO_EC2 = "100ms";

  /** Where {@code bin/localstack start} serves by default, which the Figure 9 preset uses. */
  public static final String LOCALSTACK = "http://127.0.0.1:4566";

  /** Where {@code bin/zookeeper start} serves by default, which the Figure 9 preset uses. */
  public static final String ZOOKEEPER = "127.0.0.1:2181";

  private static final List<Preset> ALL =
      List.of(
          new Preset(
              "paper-fig3",
              List.of("paper-fig4", "paper-fig7"),
              "Figs. 3, 4, 7: the protocols, EU placement",
              paper("--placement", "eu")),
          new Preset(
              "paper-fig5",
              List.of("paper-fig6", "paper-fig8"),
              "Figs. 5, 6, 8: the protocols, EC2 placement",
              paper("--placement", "ec2", "--end-user-rtt", EUROPE_TO_EC2)),
          new Preset(
              "paper-fig9",
              List.of("paper-fig10"),
              "Figs. 9, 10: 1-100 EBs, EC2 JVM on LocalStack",
              paper(
                  "--placement",
                  "ec2",
                  "--end-user-rtt",
                  EUROPE_TO_EC2,
                  "--sweep",
                  "ebs=1,10,20,50,100",
                  "--client-placement",
                  "process",
                  "--cloud",
                  "localstack",
                  "--endpoint",
                  LOCALSTACK,
                  "--zookeeper",
                  ZOOKEEPER)),
          new Preset(
              "paper-fig11",
              List.of("paper-fig12"),
              "Figs. 11, 12: 10-200 KB pages, EU placement",
              paper("--placement", "eu", "--sweep", "page-size=10000,50000,109000,200000")),
          new Preset(
              "paper-fig13",
              List.of("paper-fig14"),
              "Figs. 13, 14: TTLs 0-100 s, EU placement",
              paper("--placement", "eu", "--sweep", "ttl=0,10s,50s,100s")));

  /**
   * The flags of the paper's lengths and sizes that {@link #modest} shortens: a 100 s TTL, 45 s
   * checkpoints, 30 s warm-up, five minutes measured, 2,880 customers per EB.
   */
  private static final Map<String, String> PAPER_SCALE =
      with(
          Map.of(),
          "--ttl",
          "100s",
          "--checkpoint-interval",
          "45s",
          "--warm-up",
          "30s",
          "--duration",
          "5m",
          "--customers-per-eb",
          "2880");

  /** The SDB and BTree configurations side by side, with the SDB halves' figures. */
  private static final List<Preset> INDEX_SERVICE =
      List.of(
          new Preset(
              "paper-fig3-sdb",
              List.of("paper-fig4-sdb", "paper-fig7-sdb"),
              "Figs. 3, 4, 7: EU-BTree beside EU-SDB",
              modest("--placement", "eu", "--sweep", "index=btree,sdb"),
              PAPER_SCALE),
          new Preset(
              "paper-fig5-sdb",
              List.of("paper-fig6-sdb", "paper-fig8-sdb"),
              "Figs. 5, 6, 8: EC2-BTree beside EC2-SDB",
              modest(
                  "--placement",
                  "ec2",
                  "--end-user-rtt",
                  EUROPE_TO_EC2,
                  "--sweep",
                  "index=btree,sdb"),
              PAPER_SCALE),
          new Preset(
              "paper-fig9-sdb",
              List.of("paper-fig10-sdb"),
              "Figs. 9, 10: 1-4 EBs, EC2-SDB",
              modest(
                  "--placement",
                  "ec2",
                  "--end-user-rtt",
                  EUROPE_TO_EC2,
                  "--index",
                  "sdb",
                  "--sweep",
                  "ebs=1,2,4"),
              with(PAPER_SCALE, "--sweep", "ebs=1,2,4,8,20,50,100")),
          new Preset(
              "paper-table4",
              List.of(),
              "Table 4: bulk load, B-tree vs service",
              tableFour(),
              Map.of("--items", "1000")));

  /**
   * Not a figure of the papers: runs that follow the rules under which TPC-W reports WIPS ({@link
   * WipsRules}), for every default protocol: the specification's think time (mean 7 s), 100
   * browsers (about 14 interactions a second, so that even Admin Confirm, 0.09% of the mix, is
   * measured a few times), a two-minute ramp-up, longer than any TTL or checkpoint interval, and
   * ten minutes measured. The database and the cloud keep their defaults. Each run's facts say
   * whether every rule was met, and only then call its rate WIPS.
   */
  public static final Preset TPCW_WIPS =
      new Preset(
          "tpcw-wips", List.of(), "TPC-W's WIPS rules: think time, ramp-up, limits", tpcwWips());

  /** Checks the preset. */
  public Preset {
    Objects.requireNonNull(name, "name");
    aliases = List.copyOf(aliases);
    Objects.requireNonNull(reproduces, "reproduces");
    options = Collections.unmodifiableMap(new LinkedHashMap<>(options));
    paperScale = Collections.unmodifiableMap(new LinkedHashMap<>(paperScale));
  }

  /** A preset whose options are the paper's lengths and sizes already. */
  public Preset(String name, List<String> aliases, String reproduces, Map<String, String> options) {
    this(name, aliases, reproduces, options, Map.of());
  }

  /** Every preset of the papers' figures on client-side B-trees, in the order of the figures. */
  public static List<Preset> all() {
    return ALL;
  }

  /**
   * The presets of the configurations with the cloud's index service (the paper's SDB): the SDB
   * halves of Figures 3-8 beside their BTree halves, Figures 9-10 on EC2-SDB, and Table 4's bulk
   * load both ways. Shorter and smaller than the paper's runs unless {@link #atPaperScale()}.
   */
  public static List<Preset> indexService() {
    return INDEX_SERVICE;
  }

  /** This preset at the paper's lengths and sizes: {@link #paperScale()} replaces the options. */
  public Preset atPaperScale() {
    Map<String, String> m = new LinkedHashMap<>(options);
    m.putAll(paperScale);
    return new Preset(name, aliases, reproduces, m);
  }

  /** The preset named {@code name} (or one of its aliases), case ignored. */
  public static Preset named(String name) {
    String n = name.trim().toLowerCase(Locale.ROOT);
    for (Preset p : withModes()) {
      if (p.name.equals(n) || p.aliases.contains(n)) {
        return p;
      }
    }
    throw new IllegalArgumentException(
        "unknown preset '"
            + name
            + "' (known: "
            + String.join(", ", withModes().stream().map(Preset::name).toList())
            + "; --preset list describes them)");
  }

  /** Every name the presets answer to, {@link #TPCW_WIPS}'s included. */
  public static List<String> names() {
    return withModes().stream()
        .flatMap(p -> Stream.concat(Stream.of(p.name), p.aliases.stream()))
        .toList();
  }

  /** The papers' presets, those with the index service and {@link #TPCW_WIPS}. */
  private static List<Preset> withModes() {
    return Stream.of(ALL, INDEX_SERVICE, List.of(TPCW_WIPS)).flatMap(List::stream).toList();
  }

  /**
   * The preset's flags, as command-line arguments, except those the user gave: a given flag
   * replaces the preset's value. The preset's sweep also yields to a given {@code --sweep} and to
   * a given value of the swept parameter (a fixed {@code --ebs 5} ends an EB sweep), and its
   * end-user round trip to a given placement other than ec2, where it has no meaning.
   *
   * @param given the flags given on the command line, long names to their values as typed
   */
  public List<String> argsBesides(Map<String, String> given) {
    List<String> args = new ArrayList<>();
    options.forEach(
        (flag, value) -> {
          boolean keep = !given.containsKey(flag);
          if (flag.equals("--sweep")) {
            keep &= !given.containsKey("--" + value.substring(0, value.indexOf('=')));
          }
          if (flag.equals("--end-user-rtt") && given.containsKey("--placement")) {
            keep &= given.get("--placement").trim().equalsIgnoreCase("ec2");
          }
          if (keep) {
            args.add(flag);
            args.add(value);
          }
        });
    return args;
  }

  /** The number of runs: protocols times sweep values. */
  public int runs() {
    int protocols = options.get("--protocols").split(",").length;
    String sweep = options.get("--sweep");
    return sweep == null ? protocols : protocols * sweep.split(",").length;
  }

  /** The time the runs take at least: warm-up and measurement of each, without the loads. */
  public Duration leastRunTime() {
    Duration warmUp = Durations.parse(options.get("--warm-up"));
    return warmUp.plus(Durations.parse(options.get("--duration"))).multipliedBy(runs());
  }

  /** One line for {@code --preset list} and {@code --help}, under 80 columns. */
  public String summary() {
    return String.format(
        Locale.ROOT,
        "%-12s %s; %d runs, %d+ min",
        name,
        reproduces,
        runs(),
        leastRunTime().toMinutes());
  }

  /** The settings of {@link #TPCW_WIPS}. */
  private static Map<String, String> tpcwWips() {
    Map<String, String> m = new LinkedHashMap<>();
    m.put(
        "--protocols",
        String.join(
            ",", Defaults.PROTOCOLS.stream().map(k -> k.name().toLowerCase(Locale.ROOT)).toList()));
    m.put("--think-time", Durations.format(WipsRules.THINK_TIME));
    m.put("--ebs", "100");
    m.put("--warm-up", "2m");
    m.put("--duration", "10m");
    return m;
  }

  /**
   * The papers' settings made to run on a small machine, then {@code more}: TTL and checkpoint
   * interval 10 s with 30 s measured (three of each, as {@link RunWarnings} asks), a 5 s warm-up
   * and 288 customers per EB (a tenth of the specification's, which the service's one batch per
   * 25 entries would load for minutes per run in the eu placement).
   */
  private static Map<String, String> modest(String... more) {
    Map<String, String> m = paper();
    m.putAll(
        with(
            Map.of(),
            "--ttl",
            "10s",
            "--checkpoint-interval",
            "10s",
            "--warm-up",
            "5s",
            "--duration",
            "30s",
            "--customers-per-eb",
            "288"));
    return with(m, more);
  }

  /**
   * Table 4 (000 section 7.7): the bookstore's bulk load, the item table and its four indexes
   * reported apart, into client-side B-trees, into the service one item per request (SimpleDB in
   * 2008) and batched, in the eu placement where the paper measured it. One browser of one
   * protocol measures a few seconds after each load (a run must measure something); no warm
   * pass, which would load more bookstores. 100 items by default (one item per request takes
   * 0.31 s in the eu profile, so 1,000 items' 4,000 index entries take 21 minutes); {@code
   * --paper-scale} loads the paper's 1,000.
   */
  private static Map<String, String> tableFour() {
    return with(
        new LinkedHashMap<>(),
        "--protocols",
        "basic",
        "--placement",
        "eu",
        "--sweep",
        "index=btree,sdb-single,sdb",
        "--items",
        "100",
        "--ebs",
        "1",
        "--customers-per-eb",
        "10",
        "--ttl",
        "1s",
        "--checkpoint-interval",
        "1s",
        "--warm-up",
        "0",
        "--duration",
        "3s",
        "--warm-pass",
        "0");
  }

  private static Map<String, String> with(Map<String, String> base, String... more) {
    Map<String, String> m = new LinkedHashMap<>(base);
    for (int i = 0; i < more.length; i += 2) {
      m.put(more[i], more[i + 1]);
    }
    return m;
  }

  /** The papers' settings (000 section 7.1; see the class comment), then {@code more}. */
  private static Map<String, String> paper(String... more) {
    Map<String, String> m = new LinkedHashMap<>();
    m.put("--protocols", PAPER_PROTOCOLS);
    m.put("--page-size", "109000");
    m.put("--ttl", "100s");
    m.put("--checkpoint-interval", "45s");
    m.put("--ebs", "1");
    m.put("--think-time", "0");
    m.put("--mix", "shopping");
    m.put("--items", "1000");
    m.put("--customers-per-eb", "2880");
    m.put("--warm-up", "30s");
    m.put("--duration", "5m");
    for (int i = 0; i < more.length; i += 2) {
      m.put(more[i], more[i + 1]);
    }
    return m;
  }
}
