package io.stratus.bench.tpcw.rbe;

import io.stratus.bench.tpcw.workload.Bookstore;
import io.stratus.bench.tpcw.workload.BrowserSession;
import io.stratus.bench.tpcw.workload.Interaction;
import io.stratus.bench.tpcw.workload.InteractionOutcome;
import java.util.List;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.BiFunction;

/**
 * A bookstore for emulator tests: each interaction runs a script (by default it does nothing and
 * reports a read of nothing), and every session logs what happened to it.
 */
final class ScriptedBookstore implements Bookstore {
  private final BiFunction<Interaction, Session, InteractionOutcome> script;
  private final ConcurrentLinkedQueue<Session> sessions = new ConcurrentLinkedQueue<>();

  ScriptedBookstore(BiFunction<Interaction, Session, InteractionOutcome> script) {
    this.script = script;
  }

  /** A bookstore whose interactions do nothing. */
  static ScriptedBookstore idle() {
    return new ScriptedBookstore((wi, s) -> nothing(wi));
  }

  static InteractionOutcome nothing(Interaction wi) {
    return new InteractionOutcome(wi, false, 0, 0, 0, -1);
  }

  @Override
  public BrowserSession newSession(long seed) {
    Session s = new Session(seed);
    sessions.add(s);
    return s;
  }

  @Override
  public InteractionOutcome execute(Interaction interaction, BrowserSession session) {
    Session s = (Session) session;
    s.log.add(interaction.name());
    return script.apply(interaction, s);
  }

  List<Session> sessions() {
    return List.copyOf(sessions);
  }

  /** One browser's session: a log of its pages and restarts ("RESTART"), in order. */
  static final class Session implements BrowserSession {
    final long seed;
    final ConcurrentLinkedQueue<String> log = new ConcurrentLinkedQueue<>();
    final AtomicLong restarts = new AtomicLong();

    Session(long seed) {
      this.seed = seed;
    }

    /** How many times {@code wi} ran in this session before the current page (0 the first). */
    int count(Interaction wi) {
      int n = 0;
      for (String page : log) {
        if (page.equals(wi.name())) {
          n++;
        }
      }
      return n - 1;
    }

    @Override
    public void restart() {
      restarts.incrementAndGet();
      log.add("RESTART");
    }
  }
}
