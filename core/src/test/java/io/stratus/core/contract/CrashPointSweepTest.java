package io.stratus.core.contract;

import static org.assertj.core.api.Assertions.assertThat;

import io.stratus.protocols.CrashPoint;
import io.stratus.protocols.ProtocolKind;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The crash-point sweep: for every available protocol and every registered {@link CrashPoint},
 * a client dies there and others recover ({@link CrashRun}) — once, twice in a row (the recoverer
 * dies at the same or the next point), and during recovery (the recoverer dies at a recovery
 * step and a third client finishes). Each point is tried with default and with small queue
 * messages, since the steps between a commit's log messages and its commit record exist only
 * when a commit takes several messages.
 *
 * <p>The sweep prints which points each protocol reaches and fails if a registered point is
 * reached by no protocol; a source scan fails if main code reaches a point not from the registry.
 * Together: a crash point added to the code is swept, or a test fails.
 *
 * <p>Replay one run with {@code -Dstratus.sweep.protocol=KIND -Dstratus.sweep.point=ID
 * -Dstratus.contract.seed=S} (either filter alone narrows the sweep; the coverage check then
 * does not apply).
 */
class CrashPointSweepTest {
  static final String PROTOCOL = "stratus.sweep.protocol";
  static final String POINT = "stratus.sweep.point";

  @ParameterizedTest(name = "seed {0}")
  @MethodSource("seeds")
  void everyProtocolSurvivesACrashAtEveryPointItReaches(long seed) {
    List<ProtocolKind> kinds = protocols();
    List<CrashPoint> points = points();
    System.out.println(
        "[sweep] seed=" + seed + " (replay: -D" + ContractSeeds.SEED + "=" + seed + ")");
    Map<CrashPoint, Set<ProtocolKind>> coveredBy = new EnumMap<>(CrashPoint.class);
    for (ProtocolKind kind : kinds) {
      Set<CrashPoint> reached = new TreeSet<>();
      List<String> recovererDied = new ArrayList<>();
      Set<CrashPoint> diedInRecovery = new TreeSet<>();
      int runs = 0;
      for (CrashPoint point : points) {
        for (CrashRun.Shape shape : CrashRun.Shape.values()) {
          runs++;
          if (!CrashRun.run(kind, seed, point, CrashRun.Variant.SINGLE, shape).aCrashed()) {
            continue;
          }
          reached.add(point);
          coveredBy.computeIfAbsent(point, p -> EnumSet.noneOf(ProtocolKind.class)).add(kind);
          for (CrashRun.Variant v :
              List.of(CrashRun.Variant.TWICE, CrashRun.Variant.DURING_RECOVERY)) {
            runs++;
            CrashRun.Outcome o = CrashRun.run(kind, seed, point, v, shape);
            if (o.bCrashed()) {
              recovererDied.add(point.id() + "/" + v + "→" + o.bCrashedAt());
              CrashPoint second =
                  CrashPoint.byId(o.bCrashedAt().replaceAll(" #\\d+$", "")).orElseThrow();
              diedInRecovery.add(second);
              coveredBy.computeIfAbsent(second, p -> EnumSet.noneOf(ProtocolKind.class)).add(kind);
            }
          }
          break; // reached in this shape: the other adds nothing new to this point
        }
      }
      System.out.println(
          "[sweep] "
              + kind
              + ": "
              + runs
              + " runs, crashed at "
              + reached.size()
              + " points "
              + reached.stream().map(CrashPoint::id).toList());
      System.out.println(
          "[sweep] "
              + kind
              + ": recoverer died and a third client finished "
              + recovererDied.size()
              + " times, at "
              + diedInRecovery.stream().map(CrashPoint::id).toList()
              + ": "
              + recovererDied);
      assertThat(reached).as("%s reaches some crash point", kind).isNotEmpty();
    }
    coveredBy.forEach((p, by) -> System.out.println("[sweep] " + p.id() + " covered by " + by));
    if (kinds.size() == available().size() && points.size() == CrashPoint.values().length) {
      List<String> uncovered = new ArrayList<>();
      for (CrashPoint p : CrashPoint.values()) {
        if (!coveredBy.containsKey(p)) {
          uncovered.add(p.id());
        }
      }
      assertThat(uncovered)
          .as("registered crash points no protocol reaches in the sweep")
          .isEmpty();
    }
  }

  /**
   * Main code reaches crash points only through the registry: every {@code reach(...)} call
   * passes a {@link CrashPoint}'s {@code id()}, never a string it builds; and every registered
   * point is reached somewhere (the registry has no dead entry).
   */
  @Test
  void mainCodeReachesOnlyRegisteredPoints() throws IOException {
    Path root = projectRoot();
    Pattern call = Pattern.compile("\\.reach\\(([^;]*)\\);");
    Pattern registered = Pattern.compile("CrashPoint\\.([A-Z_]+)\\.id\\(\\)");
    Pattern viaField = Pattern.compile("\\w+\\.\\w+\\(\\)\\.id\\(\\)");
    List<String> bad = new ArrayList<>();
    StringBuilder all = new StringBuilder();
    int calls = 0;
    try (Stream<Path> files = Files.walk(root)) {
      for (Path f :
          files
              .filter(
                  p -> p.toString().endsWith(".java") && p.toString().contains("/src/main/java/"))
              .toList()) {
        String src = Files.readString(f);
        if (!f.getFileName().toString().equals("CrashPoint.java")) {
          all.append(src);
        }
        Matcher m = call.matcher(src);
        while (m.find()) {
          calls++;
          String arg = m.group(1).trim();
          Matcher r = registered.matcher(arg);
          boolean ok =
              r.matches()
                  ? CrashPoint.byId(idOf(r.group(1))).isPresent()
                  : viaField.matcher(arg).matches() && !arg.contains("\"");
          if (!ok) {
            bad.add(root.relativize(f) + ": reach(" + arg + ")");
          }
        }
      }
    }
    assertThat(calls).as("reach calls found under %s", root).isPositive();
    assertThat(bad).as("reach() with a name not from the CrashPoint registry").isEmpty();
    List<String> dead = new ArrayList<>();
    for (CrashPoint p : CrashPoint.values()) {
      if (!all.toString().contains("CrashPoint." + p.name())) {
        dead.add(p.name());
      }
    }
    assertThat(dead).as("registered crash points main code never names").isEmpty();
  }

  private static String idOf(String constant) {
    return CrashPoint.valueOf(constant).id();
  }

  /** The reactor's root: the nearest ancestor of the working directory with a protocols module. */
  private static Path projectRoot() {
    Path p = Path.of("").toAbsolutePath();
    while (p != null && !Files.isDirectory(p.resolve("protocols/src/main/java"))) {
      p = p.getParent();
    }
    if (p == null) {
      throw new UncheckedIOException(
          new IOException("no protocols module above " + Path.of("").toAbsolutePath()));
    }
    return p;
  }

  /** The first contract seed unless one is given: the sweep is exhaustive over points already. */
  static Stream<Long> seeds() {
    boolean asked =
        System.getProperty(ContractSeeds.SEED) != null
            || System.getProperty(ContractSeeds.SEEDS) != null;
    Stream<Long> s = ContractSeeds.seeds();
    return asked ? s : s.limit(1);
  }

  private static List<ProtocolKind> available() {
    return Stream.of(ProtocolKind.values()).filter(ProtocolKind::isAvailable).toList();
  }

  private static List<ProtocolKind> protocols() {
    String only = System.getProperty(PROTOCOL);
    return only == null || only.isBlank()
        ? available()
        : List.of(ProtocolKind.valueOf(only.trim()));
  }

  private static List<CrashPoint> points() {
    String only = System.getProperty(POINT);
    return only == null || only.isBlank()
        ? List.of(CrashPoint.values())
        : List.of(
            CrashPoint.byId(only.trim())
                .orElseThrow(
                    () -> new IllegalArgumentException("no registered crash point " + only)));
  }
}
