package io.stratus.bench.tpcw.rbe;

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
 * truncated negative exponential on the emulator's clock. Once it has passed, the session ends at
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
  static final int RUNNING = 0;
  static final int WAITING = 1;
  static final int STOPPING = 2;

  private final int index;
  private final long seed;
  private final Bookstore bookstore;
  private final Navigation navigation;
  private final RunControl control;
  private final InteractionAttribution attribution;
  private final Waiter waiter;
  private final NegativeExponential thinkTime;
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
      int index, long seed, Bookstore bookstore, Navigation navigation, RunControl control,
      InteractionAttribution attribution, Waiter waiter, NegativeExponential thinkTime,
      NegativeExponential sessionLength, long endUserRoundTripNanos, long interactionLimit,
      ResponseTimes responseTimes, CountDownLatch finished) {
    this.index = index;
    this.seed = seed;
    this.bookstore = bookstore;
    this.navigation = navigation;
    this.control = control;
    this.attribution = attribution;
    this.waiter = waiter;
    this.thinkTime = thinkTime;
    this.sessionLength = sessionLength;
    this.endUserRoundTripNanos = endUserRoundTripNanos;
    this.interactionLimit = interactionLimit;
    this.finished = finished;
    this.tally = new BrowserTally(responseTimes);
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
    long sessionEnds = control.elapsed(control.now()) + sessionLength.draw(sessions);
    boolean newSessionAtNextPage = false;
    Interaction page = Navigation.start();
    long done = 0;
    while (done < interactionLimit && !control.isStopping()) {
      long start = control.now();
      int phase = control.phaseAt(start);
      if (phase == InteractionAttribution.AFTER) {
        return;
      }
      long elapsed = control.elapsed(start);
      boolean restart =
          newSessionAtNextPage || (page == Interaction.HOME && elapsed >= sessionEnds);
      boolean measured = phase == InteractionAttribution.MEASURE;
      InteractionOutcome outcome = null;
      Throwable failure = null;
      attribution.enter(page, measured);
      try {
        if (restart) {
          session.restart();
          sessionEnds = elapsed + sessionLength.draw(sessions);
          newSessionAtNextPage = false;
        }
        outcome = bookstore.execute(page, session);
        if (outcome == null || outcome.interaction() != page) {
          throw new IllegalStateException("the bookstore reported " + outcome + " for " + page);
        }
      } catch (RuntimeException e) {
        failure = e;
      } finally {
        attribution.exit();
      }
      long responseNanos = control.now() - start + endUserRoundTripNanos;
      tally.record(page, measured, responseNanos, outcome, failure);
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
      if (!pause(endUserRoundTripNanos) || !pause(thinkTime.draw(thinking))) {
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
