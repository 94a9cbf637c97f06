package io.stratus.bench.tpcw.harness;

import java.util.Locale;

/**
 * Where a run's application servers ({@link RunSettings#clients()}) run: all in the harness's
 * JVM, or each in an operating-system process of its own, as the papers ran one per EC2 server
 * (paper 000 section 7.4). Processes share no memory, so they need a cloud that processes share:
 * LocalStack or AWS, with locks and counters on ZooKeeper.
 */
public enum ClientPlacement {
  /** Every client in this JVM, sharing its cores, heap and JIT-compiled code. */
  JVM("jvm"),
  /** One child JVM per client, each with its own handle, browsers and modelled latency. */
  PROCESS("process");

  private final String id;

  ClientPlacement(String id) {
    this.id = id;
  }

  /** The command-line name. */
  public String id() {
    return id;
  }

  /**
   * Refuses a cloud this placement cannot use: client processes share no memory, so neither the
   * in-process cloud nor the in-process locks and counters a real cloud falls back to without
   * ZooKeeper.
   *
   * @throws IllegalArgumentException naming what to add
   */
  public void check(CloudTarget target) {
    if (this == JVM) {
      return;
    }
    if (target.kind() == CloudTarget.Kind.IN_PROCESS) {
      throw new IllegalArgumentException(
          "--client-placement process runs each client in a JVM of its own, and the in-process"
              + " cloud lives in one JVM: add --cloud localstack (bin/localstack start runs one)"
              + " and --zookeeper (bin/zookeeper start runs one)");
    }
    if (target.zookeeper().isEmpty()) {
      throw new IllegalArgumentException(
          "--client-placement process needs locks and counters that processes share: add"
              + " --zookeeper HOST:PORT (bin/zookeeper start runs one)");
    }
  }

  /** Parses a command-line name. */
  public static ClientPlacement parse(String name) {
    String n = name.trim().toLowerCase(Locale.ROOT);
    for (ClientPlacement p : values()) {
      if (p.id.equals(n)) {
        return p;
      }
    }
    throw new IllegalArgumentException(
        "unknown client placement '" + name + "' (expected jvm or process)");
  }
}
