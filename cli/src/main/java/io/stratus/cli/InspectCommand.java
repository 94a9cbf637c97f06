package io.stratus.cli;

import io.stratus.CorruptPageException;
import io.stratus.cloudapi.CloudFutures;
import io.stratus.cloudapi.QueueBacklog;
import io.stratus.cloudapi.StoredItem;
import io.stratus.cloudapi.SupportsQueueInspection;
import io.stratus.pagemanager.Page;
import io.stratus.pagemanager.PageCodec;
import io.stratus.protocols.checkpoint.CheckpointTimes;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.HexFormat;
import java.util.Optional;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.ParentCommand;

/**
 * {@code stratus inspect page <uri>} and {@code stratus inspect queue <uri>}: one stored page
 * decoded (header and the first entries), or one queue's backlog and a few of its messages,
 * peeked without hiding them. Read-only, like {@code verify}.
 */
@Command(
    name = "inspect",
    mixinStandardHelpOptions = true,
    subcommands = {InspectCommand.PageCommand.class, InspectCommand.QueueCommand.class},
    description = "Looks at one page or one queue.")
final class InspectCommand implements Runnable {
  /** Most bytes of a key or value shown. */
  static final int SHOWN_BYTES = 40;

  @ParentCommand StratusCli root;

  @Override
  public void run() {
    new CommandLine(this).usage(root.out);
  }

  /** {@code inspect page}. */
  @Command(
      name = "page",
      mixinStandardHelpOptions = true,
      description = "Decodes a stored page: header and the first entries.")
  static final class PageCommand implements Callable<Integer> {
    @ParentCommand InspectCommand inspect;

    @Mixin ConnectionOptions connection;

    @Parameters(paramLabel = "URI", description = "The page's URI, e.g. db/c/items/root.")
    String uri;

    @Option(
        names = "--limit",
        defaultValue = "20",
        paramLabel = "N",
        description = "Entries shown (default: ${DEFAULT-VALUE}).")
    int limit;

    @Override
    public Integer call() {
      PrintWriter out = inspect.root.out;
      try (StratusCli.Session s = inspect.root.open(connection)) {
        // Through the configuration's services: opened when the database is encrypted.
        Optional<StoredItem> item = CloudFutures.await(s.config().services().storage().get(uri));
        if (item.isEmpty()) {
          inspect.root.err.println("stratus: no item at " + uri);
          return StratusCli.EXIT_FAILED;
        }
        Page p;
        try {
          p = PageCodec.decode(uri, item.get().payload());
        } catch (CorruptPageException e) {
          out.printf(
              "%s: %d bytes, version %s, CORRUPT: %s%n",
              uri, item.get().size(), item.get().version(), e.getMessage());
          return 2;
        }
        out.printf(
            "%s: %s, level %d, %d entries, %d bytes stored, version %s%n",
            uri, p.kind(), p.level(), p.entryCount(), item.get().size(), item.get().version());
        out.printf(
            "  low key   %s%n  high key  %s%n  sibling   %s%n",
            show(p.lowKey()),
            p.highKey().map(InspectCommand::show).orElse("+infinity"),
            p.rightSibling().orElse("none"));
        // The queue protocols keep checkpoint times in the protocol state; other protocols none.
        Optional<CheckpointTimes> times = CheckpointTimes.ofAnyProtocol(p);
        out.printf(
            "  stamp %d, last checkpoint %s, tree checkpoint %s, protocol state %d bytes,"
                + " %d tombstones%n",
            p.versionStamp(),
            times.map(t -> time(t.pageMillis())).orElse("-"),
            times.map(t -> time(t.treeMillis())).orElse("-"),
            p.protocolState().length,
            p.tombstoneCount());
        int shown = Math.min(limit, p.entryCount());
        for (int i = 0; i < shown; i++) {
          out.printf("  [%d] %s = %s%n", i, show(p.key(i)), show(p.value(i)));
        }
        if (shown < p.entryCount()) {
          out.printf("  ... %d more entries%n", p.entryCount() - shown);
        }
        return 0;
      }
    }
  }

  /** {@code inspect queue}. */
  @Command(
      name = "queue",
      mixinStandardHelpOptions = true,
      description = "A queue's backlog, oldest message age and a few peeked messages.")
  static final class QueueCommand implements Callable<Integer> {
    @ParentCommand InspectCommand inspect;

    @Mixin ConnectionOptions connection;

    @Parameters(paramLabel = "URI", description = "The queue's URI, e.g. db/pu/t/db/c/items/root.")
    String uri;

    @Option(
        names = "--peek",
        defaultValue = "5",
        paramLabel = "N",
        description = "Messages peeked, 0 to 10 (default: ${DEFAULT-VALUE}).")
    int peek;

    @Override
    public Integer call() {
      PrintWriter out = inspect.root.out;
      try (StratusCli.Session s = inspect.root.open(connection)) {
        SupportsQueueInspection q = SupportsQueueInspection.of(s.services().simpleQueues());
        if (q == null) {
          inspect.root.err.println(
              "stratus: these simple queues cannot be inspected without" + " receiving from them");
          return StratusCli.EXIT_FAILED;
        }
        QueueBacklog b = CloudFutures.await(q.inspect(uri, peek));
        Instant now = s.config().clock().instant();
        out.printf(
            "%s: %d messages (%d visible, %d in flight), oldest %s, retention %s%n",
            uri,
            b.messages(),
            b.visible(),
            b.inFlight(),
            b.oldestAge(now).map(VerifyCommand::age).orElse("-"),
            b.retention());
        for (QueueBacklog.PeekedMessage m : b.peeked()) {
          out.printf(
              "  %s: sent %s (%s ago), %d deliveries, %d bytes: %s%n",
              m.messageId(),
              m.sentAt(),
              VerifyCommand.age(m.sentAt(), now),
              m.deliveries(),
              m.size(),
              show(m.payload()));
        }
        return 0;
      }
    }
  }

  /** Bytes for a person: text when printable, else hex; cut after {@value #SHOWN_BYTES}. */
  static String show(byte[] bytes) {
    if (bytes.length == 0) {
      return "(empty)";
    }
    int n = Math.min(bytes.length, SHOWN_BYTES);
    boolean text = true;
    for (int i = 0; i < n; i++) {
      if (bytes[i] < 0x20 || bytes[i] == 0x7f) {
        text = false;
        break;
      }
    }
    String shown =
        text
            ? "\"" + new String(bytes, 0, n, StandardCharsets.UTF_8) + "\""
            : "0x" + HexFormat.of().formatHex(bytes, 0, n);
    return shown + (n < bytes.length ? "... (" + bytes.length + " bytes)" : "");
  }

  private static String time(long millis) {
    return millis == 0 ? "never" : Instant.ofEpochMilli(millis).toString();
  }
}
