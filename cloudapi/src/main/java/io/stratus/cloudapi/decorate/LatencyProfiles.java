package io.stratus.cloudapi.decorate;

import java.time.Duration;
import java.util.Locale;
import java.util.Objects;

/**
 * The latency settings of the paper's two client locations, and none.
 *
 * <p>Sizes are in decimal kilobytes (1 KB = 1,000 bytes), as the paper's tables give them. Figures
 * marked "assumption" are not measurements: the paper gives none for those calls, so they are
 * plausible settings to be varied in experiments.
 */
public final class LatencyProfiles {
  /** Bytes per KB in the paper's tables. */
  static final long KB = 1_000;

  private static final long[] CURVE_BYTES = {10 * KB, 100 * KB, 1_000 * KB};

  private static final LatencyModel EU =
      new TableLatencyModel(
          "eu",
          CURVE_BYTES,
          // 000 Table 1: S3 from a client in Europe, 10 / 100 / 1,000 KB.
          new Duration[] {ms(140), ms(450), ms(2_870)},
          ms(310), // 000 Table 3: SQS send (batch send the same)
          ms(160), // 000 Table 3: SQS receive
          ms(160), // 000 Table 3: SQS delete (batch delete the same)
          ms(160), // assumption: create/list/delete queue as a receive
          ms(100), // assumption: advanced queues, locks, counters on EC2, reached from Europe
          ms(160), // assumption: machine reservation calls as an SQS receive
          // 000 section 7.3.1: updating SimpleDB takes about as long as sending a log record to
          // SQS (0.31 s, Table 3); Table 4's 672.7 s for 1,000 products is about two such puts
          // each.
          ms(310),
          ms(160)); // assumption: an index get or query page as an SQS receive

  private static final LatencyModel EC2 =
      new TableLatencyModel(
          "ec2",
          CURVE_BYTES,
          // 000 Table 2: S3 from an EC2 client, 10 / 100 / 1,000 KB.
          new Duration[] {ms(35), ms(46), ms(128)},
          ms(20), // assumption: SQS send from inside the region
          ms(15), // assumption: SQS receive from inside the region
          ms(15), // assumption: SQS delete from inside the region
          ms(15), // assumption: create/list/delete queue as a receive
          ms(2), // assumption: advanced services on EC2 in the same region
          ms(15), // assumption: machine reservation calls as an SQS receive
          ms(20), // assumption: an index write from inside the region as an SQS send
          ms(15)); // assumption: an index get or query page as an SQS receive

  private static final LatencyModel NONE = (op, requestBytes, responseBytes) -> Duration.ZERO;

  private LatencyProfiles() {}

  /**
   * A client in Europe, outside the cloud (000 section 2.2): storage 0.14 s up to 10 KB, 0.45 s at
   * 100 KB, 2.87 s at 1,000 KB, linear in between and beyond (000 Table 1; writes as reads, since
   * "writing data to S3 takes not much more time as reading data"); SQS send 0.31 s, receive and
   * delete 0.16 s (000 Table 3), batch calls as single ones, queue creation, listing and deletion
   * 0.16 s; advanced queues, locks and counters 0.10 s (assumption: a service on EC2 reached from
   * Europe); machine calls 0.16 s (assumption); index writes 0.31 s (000 section 7.3.1 says an
   * update of SimpleDB takes about as long as an SQS send; Table 4's bulk load, 0.67 s per
   * product, agrees), index gets and query pages 0.16 s (assumption: as an SQS receive).
   */
  public static LatencyModel eu() {
    return EU;
  }

  /**
   * A client on EC2, next to the storage: storage 0.035 s up to 10 KB, 0.046 s at 100 KB, 0.128 s
   * at 1,000 KB (000 Table 2); SQS send 0.020 s, receive, delete and other queue calls 0.015 s
   * (assumption: the paper measured SQS only from Europe); advanced services 0.002 s (assumption: a
   * service on EC2 in the same region); machine calls 0.015 s (assumption); index writes 0.020 s
   * and index gets and query pages 0.015 s (assumption: as SQS from inside the region).
   */
  public static LatencyModel ec2() {
    return EC2;
  }

  /** Every call instantaneous. */
  public static LatencyModel none() {
    return NONE;
  }

  /**
   * The profile named {@code name}: {@code "eu"}, {@code "ec2"} or {@code "none"} (case and
   * surrounding blanks ignored).
   *
   * @throws IllegalArgumentException for any other name
   */
  public static LatencyModel byName(String name) {
    Objects.requireNonNull(name, "name");
    switch (name.trim().toLowerCase(Locale.ROOT)) {
      case "eu":
        return EU;
      case "ec2":
        return EC2;
      case "none":
        return NONE;
      default:
        throw new IllegalArgumentException(
            "unknown latency profile \"" + name + "\"; expected one of: eu, ec2, none");
    }
  }

  private static Duration ms(long millis) {
    return Duration.ofMillis(millis);
  }
}
