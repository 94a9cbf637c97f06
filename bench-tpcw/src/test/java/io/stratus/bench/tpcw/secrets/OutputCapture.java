package io.stratus.bench.tpcw.secrets;

import java.io.ByteArrayOutputStream;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.logging.Formatter;
import java.util.logging.Handler;
import java.util.logging.Level;
import java.util.logging.LogRecord;
import java.util.logging.Logger;
import java.util.logging.SimpleFormatter;

/**
 * Everything logged while it is open: the project's own logging (System.Logger, which goes to
 * java.util.logging here) at every level, through a handler on the root logger, and what the
 * libraries log through SLF4J (slf4j-simple in the tests, which writes to System.err) and anything
 * printed, through copies of System.out and System.err. Restores all three on {@link #close()}.
 */
final class OutputCapture implements AutoCloseable {
  private final ByteArrayOutputStream captured = new ByteArrayOutputStream();
  private final PrintStream oldOut = System.out;
  private final PrintStream oldErr = System.err;
  private final Logger root = Logger.getLogger("");
  private final Level oldLevel = root.getLevel();
  private final Handler handler;
  private long julRecords;

  OutputCapture() {
    Formatter format = new SimpleFormatter();
    handler =
        new Handler() {
          @Override
          public void publish(LogRecord r) {
            // The formatted line (message, parameters, thrown with its stack trace), and the raw
            // parameters too: a formatter may leave out a parameter a later one would print.
            StringBuilder sb = new StringBuilder(format.format(r));
            if (r.getParameters() != null) {
              for (Object p : r.getParameters()) {
                sb.append(" param=").append(p);
              }
            }
            write(sb.append('\n').toString());
            synchronized (captured) {
              julRecords++;
            }
          }

          @Override
          public void flush() {}

          @Override
          public void close() {}
        };
    handler.setLevel(Level.ALL);
    root.addHandler(handler);
    root.setLevel(Level.ALL);
    System.setOut(new PrintStream(new Tee(oldOut), true, StandardCharsets.UTF_8));
    System.setErr(new PrintStream(new Tee(oldErr), true, StandardCharsets.UTF_8));
  }

  /** Everything captured so far. */
  String text() {
    synchronized (captured) {
      return captured.toString(StandardCharsets.UTF_8);
    }
  }

  /** Records the project logged through java.util.logging. */
  long julRecords() {
    synchronized (captured) {
      return julRecords;
    }
  }

  private void write(String s) {
    synchronized (captured) {
      captured.writeBytes(s.getBytes(StandardCharsets.UTF_8));
    }
  }

  @Override
  public void close() {
    System.setOut(oldOut);
    System.setErr(oldErr);
    root.removeHandler(handler);
    root.setLevel(oldLevel);
  }

  /** Writes to the original stream and to the capture. */
  private final class Tee extends OutputStream {
    private final PrintStream original;

    Tee(PrintStream original) {
      this.original = original;
    }

    @Override
    public void write(int b) {
      original.write(b);
      synchronized (captured) {
        captured.write(b);
      }
    }

    @Override
    public void write(byte[] b, int off, int len) {
      original.write(b, off, len);
      synchronized (captured) {
        captured.write(b, off, len);
      }
    }
  }
}
