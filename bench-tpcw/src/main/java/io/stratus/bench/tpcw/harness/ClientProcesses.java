package io.stratus.bench.tpcw.harness;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.TimeUnit;

/**
 * The child JVMs of a run with one process per client: each runs {@code mainClass} with its own
 * arguments on the same java binary and class path as this JVM, its output going to a log file of
 * its own. A child that fails, or does not finish in time, fails the run with a message that names
 * the client, its exit code and the end of its log.
 *
 * <p>Not thread-safe: the run's thread starts, awaits and closes it.
 */
final class ClientProcesses implements AutoCloseable {
  /** Characters of a failed child's log quoted in the failure. */
  private static final int LOG_TAIL = 2_000;

  private final List<Process> processes;
  private final List<Path> logs;

  private ClientProcesses(List<Process> processes, List<Path> logs) {
    this.processes = processes;
    this.logs = logs;
  }

  /**
   * Starts one child per element of {@code argsPerClient}, client {@code k} with the {@code k}-th
   * arguments, logging to {@code client-k.log} in {@code logDir}.
   *
   * @throws IllegalStateException a child could not be started (those already started are ended)
   */
  static ClientProcesses start(String mainClass, List<List<String>> argsPerClient, Path logDir) {
    Objects.requireNonNull(mainClass, "mainClass");
    List<Process> started = new ArrayList<>();
    List<Path> logs = new ArrayList<>();
    ClientProcesses children = new ClientProcesses(started, logs);
    try {
      Files.createDirectories(logDir);
      for (int k = 0; k < argsPerClient.size(); k++) {
        Path log = logDir.resolve("client-" + k + ".log");
        logs.add(log);
        started.add(
            new ProcessBuilder(command(mainClass, argsPerClient.get(k)))
                .redirectErrorStream(true)
                .redirectOutput(log.toFile())
                .start());
      }
      return children;
    } catch (IOException e) {
      children.close();
      throw new IllegalStateException(
          "cannot start client process " + started.size() + " (" + mainClass + "): " + e, e);
    }
  }

  /** The command line of a child running {@code mainClass} with {@code args}. */
  static List<String> command(String mainClass, List<String> args) {
    String java =
        ProcessHandle.current()
            .info()
            .command()
            .orElse(Path.of(System.getProperty("java.home"), "bin", "java").toString());
    List<String> command = new ArrayList<>();
    command.add(java);
    command.add("-cp");
    command.add(System.getProperty("java.class.path"));
    command.add(mainClass);
    command.addAll(args);
    return command;
  }

  /**
   * Waits until every child has exited, at most {@code timeout} in all.
   *
   * @throws IllegalStateException a child exited with a non-zero code or was still running at the
   *     timeout (then every child is ended); the message names it and quotes the end of its log
   */
  void awaitAll(Duration timeout) {
    long deadline = System.nanoTime() + timeout.toNanos();
    try {
      for (int k = 0; k < processes.size(); k++) {
        Process p = processes.get(k);
        long left = Math.max(0, deadline - System.nanoTime());
        if (!p.waitFor(left, TimeUnit.NANOSECONDS)) {
          close();
          throw new IllegalStateException(
              "client process "
                  + k
                  + " did not finish within "
                  + Durations.format(timeout)
                  + " and was ended; the end of its log ("
                  + logs.get(k)
                  + "):\n"
                  + tail(logs.get(k)));
        }
        if (p.exitValue() != 0) {
          close();
          throw new IllegalStateException(
              "client process "
                  + k
                  + " failed (exit code "
                  + p.exitValue()
                  + "), so the run has no result; the end of its log ("
                  + logs.get(k)
                  + "):\n"
                  + tail(logs.get(k)));
        }
      }
    } catch (InterruptedException e) {
      close();
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted while waiting for the client processes", e);
    }
  }

  /**
   * Fails if a child has exited before it was expected to.
   *
   * @throws IllegalStateException naming the first child that has exited, its exit code and the
   *     end of its log (then every child is ended)
   */
  void failIfAnyExited(String expectation) {
    for (int k = 0; k < processes.size(); k++) {
      Process p = processes.get(k);
      if (!p.isAlive()) {
        close();
        throw new IllegalStateException(
            "client process "
                + k
                + " exited (exit code "
                + p.exitValue()
                + ") "
                + expectation
                + ", so the run has no result; the end of its log ("
                + logs.get(k)
                + "):\n"
                + tail(logs.get(k)));
      }
    }
  }

  /** Whether any child is still running. */
  boolean anyAlive() {
    return processes.stream().anyMatch(Process::isAlive);
  }

  /** Ends every child still running and waits for it to go. */
  @Override
  public void close() {
    for (Process p : processes) {
      if (p.isAlive()) {
        p.destroyForcibly();
      }
    }
    for (Process p : processes) {
      try {
        p.onExit().get(10, TimeUnit.SECONDS);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        return;
      } catch (java.util.concurrent.ExecutionException | java.util.concurrent.TimeoutException e) {
        // Ending it was asked for; a process the system cannot reap is beyond this run's reach.
      }
    }
  }

  private static String tail(Path log) {
    try {
      String text = Files.readString(log, StandardCharsets.UTF_8);
      return text.length() <= LOG_TAIL ? text : "..." + text.substring(text.length() - LOG_TAIL);
    } catch (IOException e) {
      return "(cannot read the log: " + e.getMessage() + ")";
    }
  }
}
