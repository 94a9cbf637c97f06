package io.stratus.cli;

import io.stratus.DeadLetter;
import io.stratus.core.Database;
import io.stratus.core.DatabaseAdmin;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.ParentCommand;

/**
 * {@code stratus dead-letters list|replay|skip|discard}: the damaged messages checkpoints and
 * recovery moved out of their queues ({@link DatabaseAdmin#deadLetters()}). {@code list} exits 0
 * when the area is empty and 1 when it is not (a script's alarm); the others act on the items named
 * (their storage item URIs, as {@code list} prints them) and exit 0 when each was done, 1 when
 * some was not (an unknown item, or a skip whose queue was busy: run it again).
 */
@Command(
    name = "dead-letters",
    mixinStandardHelpOptions = true,
    description = "Lists, replays, skips or discards damaged messages set aside from queues.",
    subcommands = {
      DeadLetterCommand.ListCommand.class,
      DeadLetterCommand.Replay.class,
      DeadLetterCommand.Skip.class,
      DeadLetterCommand.Discard.class
    })
final class DeadLetterCommand implements Runnable {
  @ParentCommand StratusCli root;

  @Override
  public void run() {
    root.out.println("Usage: stratus dead-letters list|replay|skip|discard [items] [options]");
  }

  /** What one action does to an entry; true when done. */
  @FunctionalInterface
  private interface Action {
    boolean apply(Database db, DeadLetter entry);
  }

  /** Runs {@code action} on each named item; 0 when every one was found and done, else 1. */
  private static int act(
      StratusCli root,
      ConnectionOptions connection,
      List<String> items,
      String verb,
      Action action) {
    MaintenanceCommands.warnWithoutCoordination(root, connection);
    try (StratusCli.Session s = root.open(connection);
        Database db = Database.open(s.config())) {
      List<DeadLetter> all = db.admin().deadLetters();
      int code = 0;
      for (String item : items) {
        Optional<DeadLetter> e = all.stream().filter(x -> x.item().equals(item)).findFirst();
        if (e.isEmpty()) {
          root.err.println("stratus: no dead letter " + item);
          code = 1;
        } else if (action.apply(db, e.get())) {
          root.out.println(verb + " " + item);
        } else {
          root.out.println("not " + verb + " " + item + " (its queue is busy: run again later)");
          code = 1;
        }
      }
      return code;
    }
  }

  @Command(
      name = "list",
      mixinStandardHelpOptions = true,
      description = "Lists the dead letters: item, queue, message id, time, size, reason.")
  static final class ListCommand implements Callable<Integer> {
    @ParentCommand DeadLetterCommand parent;

    @Mixin ConnectionOptions connection;

    @Override
    public Integer call() {
      StratusCli root = parent.root;
      try (StratusCli.Session s = root.open(connection);
          Database db = Database.open(s.config())) {
        List<DeadLetter> all = db.admin().deadLetters();
        for (DeadLetter e : all) {
          root.out.printf(
              "%s  queue=%s  message=%s  at=%s  bytes=%d  reason=%s%n",
              e.item(), e.queue(), e.messageId(), e.setAsideAt(), e.payload().length, e.reason());
        }
        root.out.println(all.size() + " dead letter(s) in " + connection.database);
        return all.isEmpty() ? 0 : 1;
      }
    }
  }

  /**
   * The actions on named items: the same flags, items and exit codes; each names its verb and
   * what it does to one entry (picocli reads the annotated fields of this superclass).
   */
  abstract static class ItemAction implements Callable<Integer> {
    @ParentCommand DeadLetterCommand parent;

    @Mixin ConnectionOptions connection;

    @Parameters(arity = "1..*", paramLabel = "ITEM", description = "dead-letter item URIs")
    List<String> items;

    abstract String verb();

    abstract boolean apply(Database db, DeadLetter entry);

    @Override
    public Integer call() {
      return act(parent.root, connection, items, verb(), this::apply);
    }
  }

  @Command(
      name = "replay",
      mixinStandardHelpOptions = true,
      description = "Sends dead letters back to their queues (a newer client reads them).")
  static final class Replay extends ItemAction {
    @Override
    String verb() {
      return "replayed";
    }

    @Override
    boolean apply(Database db, DeadLetter entry) {
      db.admin().replayDeadLetter(entry);
      return true;
    }
  }

  @Command(
      name = "skip",
      mixinStandardHelpOptions = true,
      description =
          "Gives dead letters up and lets what their writers committed after them be applied"
              + " (run it more than a checkpoint lock timeout after the queue's last"
              + " checkpoint).")
  static final class Skip extends ItemAction {
    @Override
    String verb() {
      return "skipped";
    }

    @Override
    boolean apply(Database db, DeadLetter entry) {
      return db.admin().skipDeadLetter(entry);
    }
  }

  @Command(
      name = "discard",
      mixinStandardHelpOptions = true,
      description = "Deletes dead letters for good.")
  static final class Discard extends ItemAction {
    @Override
    String verb() {
      return "discarded";
    }

    @Override
    boolean apply(Database db, DeadLetter entry) {
      db.admin().discardDeadLetter(entry);
      return true;
    }
  }
}
