package io.stratus.core.contract;

import io.stratus.CheckpointSummary;
import io.stratus.CorruptPageException;
import io.stratus.StratusException;
import io.stratus.cloudapi.CloudFutures;
import io.stratus.cloudapi.ItemSummary;
import io.stratus.cloudapi.PreconditionFailedException;
import io.stratus.cloudapi.StoredItem;
import io.stratus.cloudapi.SupportsConditionalPut;
import io.stratus.core.Database;
import io.stratus.core.DatabaseAdmin;
import io.stratus.core.Finding;
import io.stratus.core.VerificationReport;
import io.stratus.protocols.StorageLayout;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Random;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.CompletionException;
import java.util.function.LongFunction;

/**
 * The damaged-pages axis of the fault soak: pages of the workload's collection or of its index
 * (a leaf, an inner page, or the collection's root) overwritten with garbage in storage, as bit
 * rot or a truncated upload would leave them, and later repaired as docs/operations.md tells an
 * operator to: the verifier names each corrupt page, and a good copy (the bytes the damage
 * replaced, kept as a backup) is written back.
 *
 * <p>Every page is damaged on the version last stored (a conditional put on the version read, so
 * that a stale read cannot make the backup an older page than the one destroyed), and repaired
 * only while it still holds the garbage: a client that wrote the page anew meanwhile (a naive
 * commit from a cached copy) repaired it already, and putting the backup over its page would
 * lose its write, which no operator would do either. Not thread-safe: the soak's main thread
 * uses it while request threads run, and only it.
 */
final class PageDamage {
  /** How many pages one damage overwrites, at most. */
  static final int MAX_PAGES = 2;

  private final SupportsConditionalPut storage;
  private final StorageLayout layout = new StorageLayout(ContractCloud.DB);
  private final Random random;

  /** The bytes each damaged page held before, by URI. */
  private final Map<String, byte[]> backups = new LinkedHashMap<>();

  /** The garbage each damaged page was given, by URI. */
  private final Map<String, byte[]> garbage = new HashMap<>();

  private boolean repaired;

  PageDamage(ContractCloud cloud, long seed) {
    this.storage = SupportsConditionalPut.of(cloud.services().storage());
    if (storage == null) {
      throw new IllegalStateException("the soak's in-process storage offers conditional puts");
    }
    this.random = new Random(seed * 0x2545F4914F6CDD1DL + 0xDA3A6E);
  }

  /** Whether pages are damaged now (struck and not yet repaired). */
  boolean active() {
    return !backups.isEmpty() && !repaired;
  }

  /** The URIs of the pages damaged. */
  Set<String> pages() {
    return backups.keySet();
  }

  /**
   * Overwrites one or {@link #MAX_PAGES} pages with garbage: each a drawn page of the collection's
   * tree other than its root (a leaf or an inner page), of the index's tree when {@code indexed},
   * or the collection's root (then nothing of the collection can be read until the repair).
   */
  void strike(boolean indexed) {
    String collection = layout.collectionRoot(ContractCloud.COLLECTION);
    String index = layout.indexRoot(ContractCloud.COLLECTION, SoakSettings.INDEX);
    int pages = 1 + random.nextInt(MAX_PAGES);
    for (int i = 0; i < pages; i++) {
      int what = random.nextInt(4);
      String uri;
      if (what == 3) {
        uri = collection;
      } else {
        String root = what == 2 && indexed ? index : collection;
        List<String> beside = besideRoot(root);
        uri = beside.isEmpty() ? root : beside.get(random.nextInt(beside.size()));
      }
      if (!backups.containsKey(uri)) {
        damage(uri);
      }
    }
  }

  /** The pages of the tree of {@code root} other than the root, in URI order. */
  private List<String> besideRoot(String root) {
    String dir = root.substring(0, root.length() - "root".length());
    List<String> out = new ArrayList<>();
    for (ItemSummary s : CloudFutures.await(storage.listAll(dir))) {
      if (!s.uri().equals(root) && !s.uri().substring(dir.length()).contains("/")) {
        out.add(s.uri());
      }
    }
    out.sort(null);
    return out;
  }

  /** Flips a byte of the page's latest stored version, keeping that version as its backup. */
  private void damage(String uri) {
    for (int attempt = 0; attempt < 20; attempt++) {
      Optional<StoredItem> item = CloudFutures.await(storage.get(uri));
      if (item.isEmpty()) {
        continue; // a stale read of a page written moments ago
      }
      byte[] good = item.get().payload();
      byte[] bad = good.clone();
      bad[random.nextInt(bad.length)] ^= 0x5a;
      try {
        CloudFutures.await(
            storage.putIfVersionMatches(uri, bad, item.get().metadata(), item.get().version()));
      } catch (PreconditionFailedException e) {
        continue; // a stale copy, or a checkpoint wrote it meanwhile: read it again
      } catch (CompletionException e) {
        if (e.getCause() instanceof PreconditionFailedException) {
          continue;
        }
        throw e;
      }
      backups.put(uri, good);
      garbage.put(uri, bad);
      return;
    }
  }

  /**
   * The operator's repair, on a quiet database whose storage no longer serves stale copies: the
   * verifier ({@link DatabaseAdmin#verify()}) of {@code reader} names the corrupt pages, each gets
   * its backup written back, and the verifier runs again (it does not look behind a corrupt page,
   * so one below another shows only once the upper one is repaired), until it finds none. Judged:
   * the verifier reports only pages the soak damaged (any other corrupt page is the library's),
   * every page still damaged is reported, and the repair ends with none.
   */
  SoakResult.Judgement repair(ContractCloud cloud, Database reader) {
    repaired = true;
    Map<String, Integer> kinds = new TreeMap<>();
    List<String> descriptions = new ArrayList<>();
    Set<String> reported = corrupt(reader.admin().verify());
    for (int pass = 0; pass <= MAX_PAGES && !reported.isEmpty(); pass++) {
      for (String uri : reported) {
        byte[] backup = backups.get(uri);
        StoredItem now = CloudFutures.await(storage.get(uri)).orElse(null);
        if (backup == null || now == null || !Arrays.equals(now.payload(), garbage.get(uri))) {
          note(kinds, descriptions, "corrupt-page-not-damaged", uri + " is corrupt");
          continue;
        }
        CloudFutures.await(storage.putIfVersionMatches(uri, backup, now.metadata(), now.version()));
      }
      cloud.clock.advance(cloud.staleWindow.plusSeconds(1)); // no stale copy of the garbage
      reported = corrupt(reader.admin().verify());
    }
    if (!reported.isEmpty()) {
      note(kinds, descriptions, "corrupt-after-repair", reported.toString());
    }
    Set<String> unreachable = new TreeSet<>();
    for (Finding f : reader.admin().verify().findings()) {
      if (f.kind() == Finding.Kind.UNREACHABLE_PAGE) {
        unreachable.add(f.uri());
      }
    }
    for (String uri : backups.keySet()) {
      StoredItem now = CloudFutures.await(storage.get(uri)).orElse(null);
      if (now != null && Arrays.equals(now.payload(), garbage.get(uri))) {
        // A page no tree reaches (left by a split a crash cut short) is reported as such and not
        // decoded: its garbage harms nobody, and an operator has nothing to repair there.
        if (!unreachable.contains(uri)) {
          note(kinds, descriptions, "damage-not-verified", uri + " holds garbage, not reported");
        }
      }
    }
    return new SoakResult.Judgement(0, kinds, 0, descriptions);
  }

  /**
   * The counts of corrupt pages by the live {@code handles} after the passes that precede the
   * repair (the first handle ran them; {@code last} is its last pass): each damaged page counted
   * at most once per handle, and at least one counted by a handle whose checkpoints gave up on a
   * damaged page.
   */
  SoakResult.Judgement counted(List<Database> handles, CheckpointSummary last) {
    Map<String, Integer> kinds = new TreeMap<>();
    List<String> descriptions = new ArrayList<>();
    for (Database db : handles) {
      long counted = db.stats().corruptPages();
      if (counted > backups.size()) {
        note(kinds, descriptions, "corrupt-pages-counted-twice", counted + " of " + pages());
      }
    }
    if (last.failureReasons().stream().anyMatch(PageDamage::isDamage)
        && handles.get(0).stats().corruptPages() == 0) {
      note(kinds, descriptions, "damage-not-counted", "checkpoints failed: " + last);
    }
    return new SoakResult.Judgement(0, kinds, 0, descriptions);
  }

  private static Set<String> corrupt(VerificationReport report) {
    Set<String> out = new TreeSet<>();
    for (Finding f : report.findings()) {
      if (f.kind() == Finding.Kind.CORRUPT_PAGE) {
        out.add(f.uri());
      }
    }
    return out;
  }

  /**
   * Settling while pages are damaged: passes as {@link ContractCloud#settle} makes them (every
   * lease, visibility timeout and stale window lapsed before each, {@code others} run in each: the
   * other live handles' checkpoints) until three in a row applied and wrote nothing, at most {@link
   * ContractCloud#SETTLE_PASSES}. None is quiescent: the records for the damaged pages stay
   * queued, and the checkpoints that meet them give up. Returns the last pass's summary.
   */
  static CheckpointSummary settle(ContractCloud c, Database db, Runnable others) {
    c.runBackground();
    CheckpointSummary last = CheckpointSummary.NONE;
    int idle = 0;
    for (int pass = 1; pass <= ContractCloud.SETTLE_PASSES && idle < 3; pass++) {
      c.clock.advance(ContractCloud.LEASES.plus(c.staleWindow));
      others.run();
      try {
        db.admin().recoverAbandonedClients();
        last = db.admin().checkpointAll();
      } catch (StratusException e) {
        if (!e.isRetryable()) {
          throw e;
        }
        continue; // a restarted service still refusing: the next pass comes later
      }
      c.runBackground();
      // A pass that failed for another reason than the damage (a put that lost a race with the
      // other handles' checkpoints of this pass) may still make progress: not quiet.
      boolean quiet =
          last.recordsApplied() == 0 && last.pagesWritten() == 0 && failedOnlyOnDamage(last);
      idle = quiet ? idle + 1 : 0;
    }
    c.clock.advance(ContractCloud.TTL.plus(c.staleWindow).plusSeconds(1));
    return last;
  }

  /** Whether every failure of {@code s} (as far as it kept their reasons) met a damaged page. */
  private static boolean failedOnlyOnDamage(CheckpointSummary s) {
    return s.failures() == 0
        || (s.failureReasons().size() == s.failures()
            && s.failureReasons().stream().allMatch(PageDamage::isDamage));
  }

  /** Whether a checkpoint's failure reason is a damaged page. */
  private static boolean isDamage(String reason) {
    return reason.contains("corrupt");
  }

  /**
   * The value of {@code key} that {@code read} returns, or {@code damaged} when reading it meets
   * a corrupt page (the key's leaf, or a page on the way to it).
   */
  static <T> T readOr(LongFunction<T> read, long key, T damaged) {
    try {
      return read.apply(key);
    } catch (CorruptPageException e) {
      return damaged;
    }
  }

  static void note(Map<String, Integer> kinds, List<String> descriptions, String kind, String w) {
    kinds.merge(kind, 1, Integer::sum);
    descriptions.add(kind + ": " + w);
  }
}
