package io.stratus.bench.tpcw.harness;

import io.stratus.core.Database;
import io.stratus.core.DatabaseConfig;
import io.stratus.core.Key;
import io.stratus.core.RetryPolicy;
import io.stratus.core.Transaction;
import io.stratus.protocols.ProtocolKind;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Locale;
import java.util.Optional;
import java.util.SplittableRandom;

/**
 * One client process of {@link MultiProcessIsolationTest}: opens the bank database on LocalStack
 * and ZooKeeper under a protocol and moves money between its accounts, auditing the total with
 * read-only transactions now and then. Prints one line, {@code transfers T audits A bad B}, and
 * exits 0; a bad audit (a total other than the expected one) is counted, not thrown, so that the
 * test sees every one.
 *
 * <p>Arguments: endpoint, bucket, ZooKeeper connect string, run id, protocol, client id, seed,
 * transactions, accounts, expected total.
 */
public final class BankClient {
  static final String COLLECTION = "accounts";

  private BankClient() {}

  /** The database every client of a run opens. */
  static DatabaseConfig.Builder config(
      CloudConnection cloud, String runId, ProtocolKind kind, String clientId) {
    return DatabaseConfig.builder(cloud.services(), "bank/" + runId)
        .protocol(kind)
        .clientId(clientId)
        .pageSize(8 * 1024);
  }

  /** The connection of a run: LocalStack for storage, ZooKeeper for coordination. */
  static CloudConnection connect(URI endpoint, String bucket, String zookeeper, String runId) {
    CloudTarget target =
        new CloudTarget(
            CloudTarget.Kind.LOCALSTACK,
            Optional.of(endpoint),
            CloudTarget.DEFAULT_REGION,
            bucket,
            Optional.of(zookeeper));
    return CloudConnection.open(target, runId, 1);
  }

  static byte[] amount(long v) {
    return Long.toString(v).getBytes(StandardCharsets.UTF_8);
  }

  static long amount(Transaction tx, long account) {
    return tx.read(COLLECTION, Key.of(account))
        .map(b -> Long.parseLong(new String(b, StandardCharsets.UTF_8)))
        .orElseThrow();
  }

  public static void main(String[] args) {
    URI endpoint = URI.create(args[0]);
    String bucket = args[1];
    String zookeeper = args[2];
    String runId = args[3];
    ProtocolKind kind = ProtocolKind.valueOf(args[4].toUpperCase(Locale.ROOT));
    String clientId = args[5];
    long seed = Long.parseLong(args[6]);
    int transactions = Integer.parseInt(args[7]);
    int accounts = Integer.parseInt(args[8]);
    long expected = Long.parseLong(args[9]);
    RetryPolicy retries =
        RetryPolicy.builder()
            .maxAttempts(200)
            .initialBackoff(Duration.ofMillis(2))
            .maxBackoff(Duration.ofMillis(50))
            .seed(seed)
            .build();
    int transfers = 0;
    int audits = 0;
    int bad = 0;
    try (CloudConnection cloud = connect(endpoint, bucket, zookeeper, runId);
        Database db = Database.open(config(cloud, runId, kind, clientId).build())) {
      SplittableRandom random = new SplittableRandom(seed);
      for (int i = 0; i < transactions; i++) {
        if (i % 4 == 3) {
          long total =
              db.read(
                  retries,
                  tx -> {
                    long sum = 0;
                    for (long a = 0; a < accounts; a++) {
                      sum += amount(tx, a);
                    }
                    return sum;
                  });
          audits++;
          if (total != expected) {
            bad++;
            System.err.println(clientId + ": an audit saw " + total + ", not " + expected);
          }
          continue;
        }
        long from = random.nextInt(accounts);
        long to = (from + 1 + random.nextInt(accounts - 1)) % accounts;
        long moved = 1 + random.nextInt(20);
        db.run(
            retries,
            tx -> {
              tx.update(COLLECTION, Key.of(from), amount(amount(tx, from) - moved));
              tx.update(COLLECTION, Key.of(to), amount(amount(tx, to) + moved));
              return null;
            });
        transfers++;
      }
    }
    System.out.println("transfers " + transfers + " audits " + audits + " bad " + bad);
    System.exit(0);
  }
}
