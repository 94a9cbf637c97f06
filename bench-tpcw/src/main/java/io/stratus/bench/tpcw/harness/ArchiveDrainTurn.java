package io.stratus.bench.tpcw.harness;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Objects;
import java.util.function.IntFunction;
import java.util.function.LongSupplier;
import java.util.stream.IntStream;

/**
 * Which client of a run drains the isolating protocols' snapshot archive, and when.
 *
 * <p>Why one client: a checkpoint-all pass visits every archive queue of the database whoever
 * runs it, so the passes of a second client find nothing left and only add their lock, receive
 * and release calls. When every client ran them, a run of eight clients paid eight times the
 * passes of a run of one for the same records (4,201 drain requests against 204 for one client
 * under snapshot isolation), and requests per interaction grew with the clients for that alone.
 *
 * <p>Why it waits: the passes must see every commit of the run, so the client that runs them
 * starts only once every other client's browsers have stopped. In one JVM the drains run in turn
 * after every browser stopped ({@link #firstInOneJvm}); client processes stop each on its own, so
 * each one marks its stop with a file and client 0 waits for the others' files ({@link
 * #ofClientProcess}).
 */
interface ArchiveDrainTurn {
  /** Whether this client runs the archive's checkpoint-all passes: exactly one client per run. */
  boolean drainsArchive();

  /**
   * Called by every client when its browsers have stopped, before its drain; the client that
   * drains the archive returns from it once every other client's browsers have stopped too (or
   * the wait has run out, which leaves the drain to find what it can).
   */
  void browsersStopped();

  /** Client {@code client} of a run in one JVM, whose drains run in turn after every browser. */
  static ArchiveDrainTurn firstInOneJvm(int client) {
    return new ArchiveDrainTurn() {
      @Override
      public boolean drainsArchive() {
        return client == 0;
      }

      @Override
      public void browsersStopped() {}
    };
  }

  /**
   * Client {@code client} of {@code clients} processes: each marks its stop with the file {@code
   * stoppedFile(k)}, and client 0 waits for every other one's, at most {@code patience} on the
   * clock {@code nanoTime}, looking every {@code pollMillis}.
   */
  static ArchiveDrainTurn ofClientProcess(
      int client,
      int clients,
      IntFunction<Path> stoppedFile,
      Duration patience,
      LongSupplier nanoTime,
      long pollMillis) {
    Objects.requireNonNull(stoppedFile, "stoppedFile");
    return new ArchiveDrainTurn() {
      @Override
      public boolean drainsArchive() {
        return client == 0;
      }

      @Override
      public void browsersStopped() {
        Path mine = stoppedFile.apply(client);
        try {
          Files.deleteIfExists(mine);
          Files.createFile(mine);
        } catch (IOException e) {
          throw new UncheckedIOException("cannot mark this client's stop in " + mine, e);
        }
        if (!drainsArchive()) {
          return;
        }
        List<Path> others =
            IntStream.range(0, clients).filter(k -> k != client).mapToObj(stoppedFile).toList();
        long deadline = nanoTime.getAsLong() + patience.toNanos();
        while (!others.stream().allMatch(Files::exists) && nanoTime.getAsLong() < deadline) {
          try {
            Thread.sleep(pollMillis);
          } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return; // the drain runs at once: it finds what it can
          }
        }
      }
    };
  }
}
