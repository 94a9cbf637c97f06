package io.stratus.testkit;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Deque;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import org.jspecify.annotations.Nullable;

/**
 * List-append histories and the isolation anomalies they reveal (the workload of Elle, Kingsbury
 * and Alvaro, VLDB 2020; the anomaly classes of Adya's thesis). Every key holds a list; a
 * transaction reads whole lists and appends elements that no other append uses. Because a read
 * returns a whole list, the order of the versions of a key is visible: the final list orders its
 * appends, and a read names the version it saw by its last element. From that the checker builds
 * the dependency graph of the transactions — write-write (ww: the next append of a key),
 * write-read (wr: the append whose version a read saw), read-write (rw: the append right after
 * the version a read saw) — and reports:
 *
 * <ul>
 *   <li>{@code G1a}: a committed transaction read an element of an aborted one, or an aborted
 *       transaction's element is in the final state;
 *   <li>{@code lost update}: a committed append is missing from the final list of its key;
 *   <li>{@code incompatible order}: a read is not a prefix of the final list (no version order);
 *   <li>{@code G0}, {@code G1c}, {@code G-single}, {@code G2}: a dependency cycle of ww edges
 *       only; of ww and wr edges; with exactly one rw edge (read skew); with more (write skew).
 * </ul>
 *
 * <p>Transactions whose outcome is unknown count as committed when one of their elements was read
 * or survived, and are left out otherwise. Thread-safe recording; checking is single-threaded.
 */
public final class ListAppendHistory {
  /** How a transaction ended. */
  public enum Status {
    COMMITTED,
    ABORTED,
    UNKNOWN
  }

  /**
   * One transaction: the lists it read (by key, in the order read) and the element it appended
   * per key.
   */
  public record Transaction(
      String id, Map<String, List<String>> reads, Map<String, String> appends, Status status) {
    public Transaction {
      Objects.requireNonNull(id, "id");
      Objects.requireNonNull(status, "status");
      reads = Collections.unmodifiableMap(new LinkedHashMap<>(reads));
      appends = Collections.unmodifiableMap(new LinkedHashMap<>(appends));
    }
  }

  /** What a check found: every anomaly, and the set of their kinds. */
  public record Result(List<Anomaly> anomalies) {
    public Result {
      anomalies = List.copyOf(anomalies);
    }

    /** The kinds of anomaly found (the checker names of the anomalies). */
    public Set<String> kinds() {
      Set<String> kinds = new LinkedHashSet<>();
      anomalies.forEach(a -> kinds.add(a.checker()));
      return kinds;
    }

    /** The anomalies whose kind is not in {@code allowed}. */
    public List<Anomaly> beyond(Set<String> allowed) {
      List<Anomaly> out = new ArrayList<>();
      for (Anomaly a : anomalies) {
        if (!allowed.contains(a.checker())) {
          out.add(a);
        }
      }
      return out;
    }
  }

  private static final String WW = "ww";
  private static final String WR = "wr";
  private static final String RW = "rw";

  private record Edge(int to, String kind, String key) {}

  private final List<Transaction> transactions = Collections.synchronizedList(new ArrayList<>());

  /** An empty history. */
  public ListAppendHistory() {}

  /** Records a transaction. */
  public void add(Transaction t) {
    transactions.add(Objects.requireNonNull(t, "t"));
  }

  /** The transactions recorded so far. */
  public List<Transaction> transactions() {
    synchronized (transactions) {
      return List.copyOf(transactions);
    }
  }

  /** Checks the history against {@code finalState} (every key's list after quiescence). */
  public Result check(Map<String, List<String>> finalState) {
    List<Transaction> all = transactions();
    Map<String, Transaction> appender = new HashMap<>();
    for (Transaction t : all) {
      for (String e : t.appends().values()) {
        if (appender.put(e, t) != null) {
          throw new IllegalArgumentException("element " + e + " appended twice");
        }
      }
    }
    Set<String> seen = new HashSet<>();
    for (Transaction t : all) {
      if (t.status() == Status.COMMITTED) {
        t.reads().values().forEach(seen::addAll);
      }
    }
    finalState.values().forEach(seen::addAll);
    List<Anomaly> out = new ArrayList<>();
    // Which transactions take part: committed, and unknown ones whose effects were observed.
    List<Transaction> nodes = new ArrayList<>();
    Map<String, Integer> index = new HashMap<>();
    for (Transaction t : all) {
      boolean observed = t.appends().values().stream().anyMatch(seen::contains);
      if (t.status() == Status.COMMITTED || (t.status() == Status.UNKNOWN && observed)) {
        index.put(t.id(), nodes.size());
        nodes.add(t);
      } else if (t.status() == Status.ABORTED && observed) {
        out.add(
            new Anomaly(
                "G1a",
                null,
                List.of(t.id()),
                "an element of aborted transaction " + t.id() + " was read or survived"));
      }
    }
    for (Transaction t : nodes) {
      for (Map.Entry<String, String> a : t.appends().entrySet()) {
        if (t.status() == Status.COMMITTED
            && !finalState.getOrDefault(a.getKey(), List.of()).contains(a.getValue())) {
          out.add(
              new Anomaly(
                  "lost update",
                  a.getKey(),
                  List.of(t.id()),
                  "committed append " + a.getValue() + " is missing from the final list"));
        }
      }
    }
    List<List<Edge>> graph = new ArrayList<>();
    nodes.forEach(n -> graph.add(new ArrayList<>()));
    for (Map.Entry<String, List<String>> f : finalState.entrySet()) {
      List<String> order = f.getValue();
      for (int i = 0; i + 1 < order.size(); i++) {
        edge(
            graph,
            index,
            appender.get(order.get(i)),
            appender.get(order.get(i + 1)),
            WW,
            f.getKey());
      }
    }
    for (Transaction t : nodes) {
      for (Map.Entry<String, List<String>> r : t.reads().entrySet()) {
        String key = r.getKey();
        List<String> read = r.getValue();
        List<String> order = finalState.getOrDefault(key, List.of());
        if (read.size() > order.size() || !order.subList(0, read.size()).equals(read)) {
          out.add(
              new Anomaly(
                  "incompatible order",
                  key,
                  List.of(t.id()),
                  "read " + read + " is not a prefix of the final list " + order));
          continue;
        }
        if (!read.isEmpty()) {
          edge(graph, index, appender.get(read.get(read.size() - 1)), t, WR, key);
        }
        if (read.size() < order.size()) {
          edge(graph, index, t, appender.get(order.get(read.size())), RW, key);
        }
      }
    }
    cycles(graph, nodes, out);
    return new Result(out);
  }

  private static void edge(
      List<List<Edge>> graph,
      Map<String, Integer> index,
      @Nullable Transaction from,
      @Nullable Transaction to,
      String kind,
      String key) {
    if (from == null || to == null || from == to) {
      return;
    }
    Integer f = index.get(from.id());
    Integer t = index.get(to.id());
    if (f != null && t != null) {
      graph.get(f).add(new Edge(t, kind, key));
    }
  }

  /** Tarjan's strongly connected components, then one classified cycle per component. */
  private static void cycles(List<List<Edge>> graph, List<Transaction> nodes, List<Anomaly> out) {
    int n = graph.size();
    int[] low = new int[n];
    int[] num = new int[n];
    boolean[] on = new boolean[n];
    int[] comp = new int[n];
    java.util.Arrays.fill(num, -1);
    Deque<Integer> stack = new ArrayDeque<>();
    int[] counter = {0};
    int[] comps = {0};
    for (int s = 0; s < n; s++) {
      if (num[s] >= 0) {
        continue;
      }
      // iterative Tarjan: frames of (node, next edge index)
      Deque<int[]> frames = new ArrayDeque<>();
      frames.push(new int[] {s, 0});
      num[s] = low[s] = counter[0]++;
      stack.push(s);
      on[s] = true;
      while (!frames.isEmpty()) {
        int[] fr = frames.peek();
        int v = fr[0];
        if (fr[1] < graph.get(v).size()) {
          int w = graph.get(v).get(fr[1]++).to();
          if (num[w] < 0) {
            num[w] = low[w] = counter[0]++;
            stack.push(w);
            on[w] = true;
            frames.push(new int[] {w, 0});
          } else if (on[w]) {
            low[v] = Math.min(low[v], num[w]);
          }
        } else {
          frames.pop();
          if (!frames.isEmpty()) {
            int u = frames.peek()[0];
            low[u] = Math.min(low[u], low[v]);
          }
          if (low[v] == num[v]) {
            int w;
            do {
              w = stack.pop();
              on[w] = false;
              comp[w] = comps[0];
            } while (w != v);
            comps[0]++;
          }
        }
      }
    }
    Map<Integer, List<Integer>> members = new HashMap<>();
    for (int v = 0; v < n; v++) {
      members.computeIfAbsent(comp[v], c -> new ArrayList<>()).add(v);
    }
    for (List<Integer> m : members.values()) {
      if (m.size() > 1) {
        out.add(classify(graph, nodes, comp, m));
      }
    }
  }

  /** The worst anomaly a strongly connected component holds, with a cycle as evidence. */
  private static Anomaly classify(
      List<List<Edge>> graph, List<Transaction> nodes, int[] comp, List<Integer> m) {
    int c = comp[m.get(0)];
    for (String[] kinds : new String[][] {{WW}, {WW, WR}}) {
      Set<String> allowed = Set.of(kinds);
      for (int start : m) {
        List<Edge> path = path(graph, comp, c, start, start, allowed);
        if (path != null) {
          return anomaly(kinds.length == 1 ? "G0" : "G1c", nodes, start, path);
        }
      }
    }
    for (int u : m) {
      for (Edge e : graph.get(u)) {
        if (e.kind().equals(RW) && comp[e.to()] == c) {
          List<Edge> back = path(graph, comp, c, e.to(), u, Set.of(WW, WR));
          if (back != null) {
            List<Edge> cycle = new ArrayList<>();
            cycle.add(e);
            cycle.addAll(back);
            return anomaly("G-single", nodes, u, cycle);
          }
        }
      }
    }
    int start = m.get(0);
    List<Edge> any = path(graph, comp, c, start, start, Set.of(WW, WR, RW));
    return anomaly("G2", nodes, start, any == null ? List.of() : any);
  }

  /**
   * A shortest path (at least one edge) from {@code from} to {@code to} inside component {@code
   * c} over edges of {@code kinds}; null if none.
   */
  private static @Nullable List<Edge> path(
      List<List<Edge>> graph, int[] comp, int c, int from, int to, Set<String> kinds) {
    // The edge that reached each visited node, and the node it came from.
    Edge[] via = new Edge[graph.size()];
    int[] prev = new int[graph.size()];
    Deque<Integer> queue = new ArrayDeque<>();
    queue.add(from);
    Set<Integer> visited = new HashSet<>();
    while (!queue.isEmpty()) {
      int v = queue.poll();
      for (Edge e : graph.get(v)) {
        if (!kinds.contains(e.kind()) || comp[e.to()] != c) {
          continue;
        }
        if (e.to() == to) {
          List<Edge> out = new ArrayList<>();
          out.add(e);
          int x = v;
          while (x != from) {
            out.add(0, via[x]);
            x = prev[x];
          }
          return out;
        }
        if (visited.add(e.to())) {
          via[e.to()] = e;
          prev[e.to()] = v;
          queue.add(e.to());
        }
      }
    }
    return null;
  }

  private static Anomaly anomaly(
      String kind, List<Transaction> nodes, int start, List<Edge> cycle) {
    StringBuilder text = new StringBuilder(nodes.get(start).id());
    List<String> ids = new ArrayList<>();
    ids.add(nodes.get(start).id());
    for (Edge e : cycle) {
      text.append(" -")
          .append(e.kind())
          .append('(')
          .append(e.key())
          .append(")-> ")
          .append(nodes.get(e.to()).id());
      ids.add(nodes.get(e.to()).id());
    }
    return new Anomaly(kind, null, ids, "dependency cycle " + text);
  }
}
