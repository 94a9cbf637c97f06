package io.stratus.core.contract;

import static io.stratus.core.contract.ContractCloud.COLLECTION;
import static io.stratus.core.contract.ContractCloud.bytes;
import static io.stratus.core.contract.ContractCloud.read;
import static org.assertj.core.api.Assertions.assertThat;

import io.stratus.RecordTooLargeException;
import io.stratus.cloudapi.CloudLimits;
import io.stratus.core.Database;
import io.stratus.core.Key;
import io.stratus.core.Transaction;
import io.stratus.protocols.Guarantee;
import io.stratus.protocols.ProtocolKind;
import io.stratus.protocols.ProtocolOption;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * The contract's refused commit: with pages larger than a queue message (the AWS limits, 1 MiB
 * messages, and 2 MiB pages), a record that fits its page but not one queue message is refused at
 * commit with a {@link RecordTooLargeException} that names the queue message limit, and the
 * refused commit leaves nothing behind — no record of it is applied (not even the small one of
 * another tree that fitted), no lock it took stays held (a create of the same key goes through at
 * once), no commit id stays unvalidated (the handle's later snapshots do not wait for it), and no
 * counter of a writer lane is lost (the handle's later commits are applied). The naive protocol
 * writes pages, not messages: there the commit may go through, and then all of it.
 */
final class RejectedCommitContract {
  /** Twice the message limit: a record of just over one message fits a page. */
  static final int PAGE_SIZE = 2 * CloudLimits.DEFAULT_MAX_MESSAGE_SIZE;

  /** Just over one message (simple and advanced queues have the same default limit). */
  static final int TOO_LARGE = CloudLimits.DEFAULT_MAX_MESSAGE_SIZE + 1024;

  static final String OTHER = "other";

  private RejectedCommitContract() {}

  static void check(ProtocolKind kind, long seed) {
    boolean throughQueues = kind.accepts(ProtocolOption.CHECKPOINTS);
    byte[] large = new byte[TOO_LARGE];
    Arrays.fill(large, (byte) 'x');
    try (ContractCloud c = new ContractCloud(kind, seed)) {
      Database w = c.open(c.config("w").pageSize(PAGE_SIZE));
      w.createCollection(COLLECTION);
      w.createCollection(OTHER);

      // A small record of one tree and a too large one of another, in one transaction.
      Transaction mixed = w.begin();
      mixed.create(COLLECTION, Key.of(5L), bytes("small-5"));
      mixed.create(OTHER, Key.of(1L), large);
      boolean mixedRefused = commitOrRefuse(mixed);
      // A too large record alone.
      Transaction alone = w.begin();
      alone.create(OTHER, Key.of(2L), large);
      boolean aloneRefused = commitOrRefuse(alone);
      if (throughQueues) {
        assertThat(mixedRefused).as("seed %d: %s refuses the mixed commit", seed, kind).isTrue();
        assertThat(aloneRefused).as("seed %d: %s refuses the large record", seed, kind).isTrue();
      }

      // Nothing of a refused commit is held: its keys are created at once, and later commits of
      // the handle are applied and seen.
      if (mixedRefused) {
        create(w, OTHER, 1, "small-1");
      }
      if (aloneRefused) {
        create(w, OTHER, 2, "small-2");
      }
      create(w, COLLECTION, 1, "later");
      if (kind.guarantees(Guarantee.READ_YOUR_WRITES)) {
        assertThat(read(w, 1))
            .as("seed %d: the writer reads its later commit", seed)
            .isEqualTo("later");
      }
      c.settle(w);
      Database reader = c.open(c.config("reader").pageSize(PAGE_SIZE));
      assertThat(read(reader, 1))
          .as("seed %d: %s applies the commits after a refused one", seed, kind)
          .isEqualTo("later");
      assertThat(read(reader, 5))
          .as("seed %d: %s applies no record of a refused commit", seed, kind)
          .isEqualTo(mixedRefused ? null : "small-5");
      String largeText = new String(large, StandardCharsets.UTF_8);
      assertThat(readOther(reader, 1)).isEqualTo(mixedRefused ? "small-1" : largeText);
      assertThat(readOther(reader, 2)).isEqualTo(aloneRefused ? "small-2" : largeText);
    }
  }

  /** Commits {@code tx}; returns whether the commit was refused as too large. */
  private static boolean commitOrRefuse(Transaction tx) {
    try (tx) {
      tx.commit();
      return false;
    } catch (RecordTooLargeException e) {
      assertThat(e.getMessage())
          .as("the message names the queue message limit")
          .contains("queue message")
          .doesNotContain("at the configured page size");
      return true;
    }
  }

  private static void create(Database db, String tree, long key, String value) {
    try (Transaction tx = db.begin()) {
      tx.create(tree, Key.of(key), bytes(value));
      tx.commit();
    }
  }

  private static String readOther(Database db, long key) {
    try (Transaction tx = db.begin()) {
      return tx.read(OTHER, Key.of(key)).map(ContractCloud::string).orElse(null);
    }
  }
}
