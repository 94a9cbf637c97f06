package io.stratus.bench.tpcw.rbe;

import io.stratus.bench.tpcw.rbe.InteractionAttribution.Ending;
import io.stratus.bench.tpcw.workload.Bookstore;
import io.stratus.bench.tpcw.workload.BrowserSession;
import io.stratus.bench.tpcw.workload.Interaction;
import io.stratus.bench.tpcw.workload.InteractionOutcome;
import java.time.Duration;
import java.util.SplittableRandom;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * One emulated browser: a thread that walks the mix's Markov chain, executing each page as an
 * interaction against the bookstore, then waiting the end-user round trip and a think time.
 *
 * <p>User sessions (TPC-W clause 5.3.1.2): each session gets a minimum duration drawn from a
 * truncated negative exponential. The session's clock is the user's time: each interaction adds
 * its response time and the think time that follows it. Without think time (the papers' runs) it
 * adds instead a think time drawn as the specification's (mean 7 s, capped at 70 s; {@link
 * Emulator.Builder#sessionThinkTimeMean}), which the browser does not wait: so sessions last as
 * many interactions as the specification's would, and new visitors (new customers at Buy Request)
 * appear at its rate rather than once in fifteen minutes of a browser that never pauses. Once the
 * minimum duration has passed, the session ends at
 * the next transition to Home: the browser calls {@link BrowserSession#restart()} and that Home is
 * the new visitor's first page. Waiting for a transition the chain makes anyway (as the public
 * reference emulator does) leaves the chain's steady state, and so the mix, exactly as the
 * specification's matrix makes it. After an interaction fails, the browser also starts a new
 * session at Home, like the reference emulator: its page state may be broken.
 *
 * <p>Stopping: the browser stops before starting an interaction once the run's end has passed, its
 * interaction budget is spent (test mode) or the emulator asks it to. A browser is never
 * interrupted while it executes an interaction (that could fail a commit half-way); it can be
 * interrupted only while it waits. {@link #state} makes that safe: the browser announces {@code
 * WAITING} before it waits and must win a compare-and-set back to {@code RUNNING}; the emulator
 * interrupts it only after winning the compare-and-set from {@code WAITING} to {@code STOPPING}.
 * Whichever wins, the browser stops without starting another interaction.
 */
final class EmulatedBrowser implements Runnable {
  /** The specification's mean think time (clause 5.3.2.1), for the session clock. */
  static final long SPEC_THINK_TIME_MEAN_NANOS = Duration.ofSeconds(7).toNanos();

  static final int RUNNING = 0;
  static final int WAITING = 1;
  static final int STOPPING = 2;

  private final int index;
  private final long seed;
  private final Bookstore bookstore;
  private final Navigation navigation;
  private final RunControl control;
  private final InteractionAttribution.Tap tap;
  private final Waiter waiter;
  private final NegativeExponential thinkTime;
  private final NegativeExponential sessionThinkTime;
  private final NegativeExponential sessionLength;
  private final long endUserRoundTripNanos;
  private final long interactionLimit;
  private final CountDownLatch finished;
  private final BrowserTally tally;
  private final AtomicInteger state = new AtomicInteger(RUNNING);
  private volatile Thread thread;
  private volatile long finishedAtNanos;
  private volatile boolean ended;
  private volatile Throwable fatal;

  EmulatedBrowser(
      int index,
      long seed,
      Bookstore bookstore,
      Navigation navigation,
      RunControl control,
      InteractionAttribution attribution,
      Waiter waiter,
      NegativeExponential thinkTime,
      NegativeExponential sessionLength,
      NegativeExponential sessionThinkTime,
      long endUserRoundTripNanos,
      long interactionLimit,
      ResponseTimes responseTimes,
      CountDownLatch finished) {
    this.index = index;
    this.seed = seed;
    this.bookstore = bookstore;
    this.navigation = navigation;
    this.control = control;
    this.tap = attribution.newTap();
    this.waiter = waiter;
    this.thinkTime = thinkTime;
    this.sessionThinkTime = sessionThinkTime;
    this.sessionLength = sessionLength;
    this.endUserRoundTripNanos = endUserRoundTripNanos;
    this.interactionLimit = interactionLimit;
    this.finished = finished;
    this.tally = new BrowserTally(responseTimes, control.windows());
  }

  /** Starts the browser's thread (a daemon platform thread). */
  void start() {
    Thread t = new Thread(this, "stratus-eb-" + index);
    t.setDaemon(true);
    thread = t;
    t.start();
  }

  @Override
  public void run() {
    try {
      browse();
    } catch (Throwable t) { // a bug in the bookstore's session code or an Error: the run reports it
      fatal = t;
    } finally {
      finishedAtNanos = control.now();
      ended = true;
      finished.countDown();
    }
  }

  private void browse() {
    // Separate streams, so that the page sequence does not depend on when sessions end (which
    // depends on the clock) and think times do not depend on failures.
    SplittableRandom random = new SplittableRandom(seed);
    SplittableRandom thinking = random.split();
    SplittableRandom sessions = random.split();
    BrowserSession session = bookstore.newSession(random.nextLong());
    long sessionClock = 0;
    long sessionEnds = sessionLength.draw(sessions);
    boolean newSessionAtNextPage = false;
    Interaction page = Navigation.start();
    long done = 0;
    while (done < interactionLimit && !control.isStopping()) {
      long start = control.now();
      int phase = control.phaseAt(start);
      if (phase == InteractionAttribution.AFTER) {
        return;
      }
      boolean restart =
          newSessionAtNextPage || (page == Interaction.HOME && sessionClock >= sessionEnds);
      boolean measured = phase == InteractionAttribution.MEASURE;
      InteractionOutcome outcome = null;
      Throwable failure = null;
      tap.enter(page, measured);
      try {
        if (restart) {
          session.restart();
          sessionClock = 0;
          sessionEnds = sessionLength.draw(sessions);
          newSessionAtNextPage = false;
        }
        outcome = bookstore.execute(page, session);
        if (outcome == null || outcome.interaction() != page) {
          throw new IllegalStateException("the bookstore reported " + outcome + " for " + page);
        }
      } catch (RuntimeException e) {
        failure = e;
      } finally {
        tap.exit(
            failure != null
                ? Ending.FAILED
                : outcome != null && outcome.wrote() ? Ending.WROTE : Ending.READ_ONLY);
      }
      long responseNanos = control.now() - start + endUserRoundTripNanos;
      tally.record(
          page, measured, measured ? control.windowAt(start) : 0, responseNanos, outcome, failure);
      done++;
      if (failure != null) {
        newSessionAtNextPage = true;
        page = Navigation.start();
      } else {
        page = navigation.next(page, random);
      }
      if (done == interactionLimit) {
        return;
      }
      long think = thinkTime.draw(thinking);
      sessionClock += responseNanos + think + sessionThinkTime.draw(sessions);
      if (!pause(endUserRoundTripNanos) || !pause(think)) {
        return;
      }
    }
  }

  /** Waits {@code nanos} through the waiter; false when the browser must stop. */
  private boolean pause(long nanos) {
    if (nanos <= 0) {
      return true;
    }
    state.set(WAITING);
    boolean interrupted = false;
    if (!control.isStopping()) {
      try {
        waiter.pause(Duration.ofNanos(nanos));
      } catch (InterruptedException e) {
        interrupted = true;
      }
    }
    if (!state.compareAndSet(WAITING, RUNNING)) {
      // The emulator claimed this browser and interrupts it (or has): the flag is of no use now.
      Thread.interrupted();
      return false;
    }
    if (interrupted) {
      Thread.currentThread().interrupt(); // not the emulator's: keep it and stop
      return false;
    }
    return !control.isStopping();
  }

  /** Cuts a wait short so that the browser sees the stop; one in an interaction finishes it. */
  void wakeToStop() {
    Thread t = thread;
    if (t != null && state.compareAndSet(WAITING, STOPPING)) {
      t.interrupt();
    }
  }

  BrowserTally tally() {
    return tally;
  }

  /** The browser's tap of the attribution. */
  InteractionAttribution.Tap tap() {
    return tap;
  }

  /** Whether the thread has ended. */
  boolean hasEnded() {
    return ended;
  }

  /** When the thread ended, on the emulator's clock; meaningful once {@link #hasEnded()}. */
  long finishedAtNanos() {
    return finishedAtNanos;
  }

  /** The throwable that ended the browser outside an interaction, or null. */
  Throwable fatal() {
    return fatal;
  }

  int index() {
    return index;
  }
}
