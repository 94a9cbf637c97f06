package io.stratus.protocols;

import io.stratus.CommitFailedException;
import io.stratus.CommitStateUnknownException;
import io.stratus.cloudapi.CloudException;
import io.stratus.cloudapi.CloudFutures;
import io.stratus.cloudapi.CrashPoints;
import io.stratus.cloudapi.ItemVersion;
import io.stratus.cloudapi.OutcomeUnknownException;
import io.stratus.cloudapi.StorageService;
import io.stratus.pagemanager.PageCodec;
import io.stratus.pagemanager.PageWrite;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;

/**
 * The naive protocol, the papers' baseline (paper 000, section 7.1; [7]): commit writes every
 * modified and new page straight to storage with a plain put, the way storage services are used
 * without a database. No queues, no log, no conditions.
 *
 * <p><b>Lost updates, by design.</b> Two clients that change different records on the same page
 * each put their whole copy of the page; the later put wins and the other change disappears. This
 * protocol must not use conditional puts to prevent that: it is the baseline that shows why the
 * queue-based protocols exist.
 *
 * <p><b>Write order</b> (what the B-link trees need for concurrent readers, see {@code
 * BLinkTree}): all new pages first, concurrently (nothing refers to them yet), then the modified
 * pages in ascending level, the pages of one level concurrently, each level after the one below
 * has completed; so a split node is written after its new sibling and a parent after its children.
 * Crash points: {@code naive.before-pages}, {@code naive.after-new-pages}, {@code
 * naive.after-pages}.
 *
 * <p><b>Failures</b> (a level's calls are all awaited before deciding, so it is known which puts
 * took effect):
 *
 * <ul>
 *   <li>nothing was written and every failure is retryable (it had no effect):
 *       {@link CommitFailedException}, retryable;
 *   <li>nothing was written and a failure is neither retryable nor outcome-unknown (a malformed
 *       request, a limit): {@link CommitFailedException}, not retryable, with the cause;
 *   <li>a put's outcome is unknown, or any failure after some page was written: {@link
 *       CommitStateUnknownException} (new pages written so far are unreachable, but modified pages
 *       may have been overwritten).
 * </ul>
 *
 * Failures that are not {@link CloudException}s (a simulated process death, a bug) propagate
 * unchanged: they are not cloud errors and must not be handled as such.
 *
 * <p>Stateless apart from its storage reference; thread-safe.
 */
final class NaiveProtocol implements CommitProtocol {
  private final StorageService storage;
  private final CrashPoints crashPoints;

  NaiveProtocol(ProtocolContext context) {
    this.storage = context.services().storage();
    this.crashPoints = context.crashPoints();
  }

  @Override
  public ProtocolKind kind() {
    return ProtocolKind.NAIVE;
  }

  @Override
  public CommitResult commit(WriteSet ws) {
    if (ws.pages().isEmpty()) {
      return CommitResult.empty();
    }
    List<PageWrite> fresh = new ArrayList<>();
    TreeMap<Integer, List<PageWrite>> modifiedByLevel = new TreeMap<>();
    for (PageWrite w : ws.pages()) {
      if (w.isNew()) {
        fresh.add(w);
      } else {
        modifiedByLevel.computeIfAbsent(w.page().level(), l -> new ArrayList<>()).add(w);
      }
    }
    Progress progress = new Progress(ws);
    crashPoints.reach("naive.before-pages");
    putAll(fresh, progress);
    crashPoints.reach("naive.after-new-pages");
    for (List<PageWrite> level : modifiedByLevel.values()) {
      putAll(level, progress);
    }
    crashPoints.reach("naive.after-pages");
    return new CommitResult(progress.versions, progress.versions.size(), fresh.size(), 0);
  }

  /** Puts one batch concurrently, waits for all of it, and maps a failure. */
  private void putAll(List<PageWrite> batch, Progress progress) {
    if (batch.isEmpty()) {
      return;
    }
    List<CompletableFuture<ItemVersion>> calls = new ArrayList<>(batch.size());
    for (PageWrite w : batch) {
      byte[] bytes = PageCodec.encode(w.page());
      CompletableFuture<ItemVersion> f;
      try {
        f = storage.put(w.uri(), bytes, Map.of());
      } catch (RuntimeException e) {
        f = CompletableFuture.failedFuture(e);
      }
      calls.add(f);
    }
    List<RuntimeException> failures = new ArrayList<>();
    RuntimeException fatal = null;
    for (int i = 0; i < calls.size(); i++) {
      try {
        ItemVersion v = CloudFutures.await(calls.get(i));
        progress.versions.put(batch.get(i).uri(), v.version());
      } catch (CloudException e) {
        failures.add(e);
        if (e instanceof OutcomeUnknownException) {
          progress.maybeWritten = true;
        }
      } catch (RuntimeException e) {
        if (fatal == null) {
          fatal = e;
        } else {
          fatal.addSuppressed(e);
        }
      }
    }
    if (fatal != null) {
      throw fatal; // not a cloud error (e.g. the process died): not ours to interpret
    }
    if (!failures.isEmpty()) {
      throw progress.failure(failures);
    }
  }

  /** What a commit has written so far. */
  private static final class Progress {
    final WriteSet ws;
    final Map<String, String> versions = new HashMap<>();
    boolean maybeWritten;

    Progress(WriteSet ws) {
      this.ws = ws;
    }

    RuntimeException failure(List<RuntimeException> failures) {
      RuntimeException first = failures.get(0);
      String what = "naive commit of transaction " + ws.transaction().transactionId() + " ("
          + ws.pages().size() + " pages): ";
      RuntimeException mapped;
      if (maybeWritten || !versions.isEmpty()) {
        mapped = new CommitStateUnknownException(
            what + versions.size() + " pages written, " + failures.size()
                + " failed or unknown; the commit may have taken effect in part", first);
      } else {
        boolean retryable = failures.stream()
            .allMatch(f -> f instanceof CloudException && ((CloudException) f).isRetryable());
        mapped = new CommitFailedException(
            what + "no page was written (" + first.getMessage() + ")", retryable, first);
      }
      for (int i = 1; i < failures.size(); i++) {
        mapped.addSuppressed(failures.get(i));
      }
      return mapped;
    }
  }
}
