package io.stratus.protocols.log;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.stratus.CorruptLogMessageException;
import io.stratus.RecordTooLargeException;
import io.stratus.btree.SecondaryKeys;
import io.stratus.btree.TreeChange;
import io.stratus.cloudapi.testing.Seed;
import io.stratus.cloudapi.testing.SeedExtension;
import io.stratus.protocols.LogicalChange;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

@ExtendWith(SeedExtension.class)
class LogMessagesTest {

  private static LogRecord randomRecord(Random random, int i) {
    LogicalChange.Kind kind = LogicalChange.Kind.values()[random.nextInt(3)];
    byte[] key = new byte[1 + random.nextInt(30)];
    random.nextBytes(key);
    byte[] value = new byte[kind == LogicalChange.Kind.DELETE ? 0 : random.nextInt(2000)];
    random.nextBytes(value);
    Optional<String> page =
        kind == LogicalChange.Kind.UPDATE ? Optional.of("db/c/items/p" + i) : Optional.empty();
    LogicalChange change = new LogicalChange(kind, "db/c/items/root", key, value, page);
    switch (random.nextInt(3)) { // no before image, a known absent key, a before value
      case 1 -> change = change.withBefore(Optional.empty());
      case 2 -> change = change.withBefore(Optional.of(new byte[] {(byte) i, 7}));
      default -> {}
    }
    return new LogRecord(
            change,
            "client-" + random.nextInt(3),
            random.nextInt(1000),
            "tx-" + i,
            1_700_000_000_000L + i,
            random.nextInt(10))
        .withWriteStamp(random.nextBoolean() ? 0 : random.nextLong() & Long.MAX_VALUE);
  }

  @Test
  void packsGreedilyUnderTheLimitAndRoundTrips(@Seed long seed) {
    Random random = new Random(seed);
    List<LogRecord> records = new ArrayList<>();
    for (int i = 0; i < 300; i++) {
      records.add(randomRecord(random, i));
    }
    int limit = 8 * 1024; // the 2008 SQS message limit

    List<byte[]> messages = LogMessages.pack(records, limit);

    List<LogRecord> back = new ArrayList<>();
    for (byte[] m : messages) {
      assertThat(m.length).isLessThanOrEqualTo(limit);
      back.addAll(LogMessages.unpack(m));
    }
    assertThat(back).isEqualTo(records);
    // Greedy: no two neighbouring messages could have been one.
    for (int i = 1; i < messages.size(); i++) {
      assertThat(messages.get(i - 1).length + messages.get(i).length)
          .isGreaterThan(limit - 2 * LogMessages.ENVELOPE_OVERHEAD);
    }
  }

  @Test
  void aLargeLimitPacksATransactionIntoOneMessage(@Seed long seed) {
    Random random = new Random(seed);
    List<LogRecord> records = new ArrayList<>();
    for (int i = 0; i < 20; i++) {
      records.add(randomRecord(random, i));
    }
    assertThat(LogMessages.pack(records, 1024 * 1024)).hasSize(1);
    assertThat(LogMessages.pack(List.of(), 1024)).isEmpty();
  }

  @Test
  void aRecordLargerThanAMessageIsRefused() {
    LogicalChange big =
        new LogicalChange(
            LogicalChange.Kind.INSERT, "t", new byte[] {1}, new byte[5000], Optional.empty());
    LogRecord r = new LogRecord(big, "c", 1, "tx", 0, 0);
    assertThatThrownBy(() -> LogMessages.pack(List.of(r), 4096))
        .isInstanceOf(RecordTooLargeException.class);
  }

  @Test
  void aDamagedMessageIsDetectedNeverApplied(@Seed long seed) {
    Random random = new Random(seed);
    List<LogRecord> records = List.of(randomRecord(random, 1), randomRecord(random, 2));
    byte[] message = LogMessages.pack(records, 1 << 20).get(0);
    for (int trial = 0; trial < 200; trial++) {
      byte[] damaged = message.clone();
      int at = random.nextInt(damaged.length);
      damaged[at] ^= (byte) (1 + random.nextInt(255));
      try {
        assertThat(LogMessages.unpack(damaged)).isEqualTo(records);
        // A flip can only pass when it hit nothing that matters (it cannot: every byte counts).
        throw new AssertionError("a damaged message at byte " + at + " was accepted");
      } catch (CorruptLogMessageException expected) {
        // detected
      }
    }
    assertThatThrownBy(() -> LogMessages.unpack(new byte[] {1, 2, 3}))
        .isInstanceOf(CorruptLogMessageException.class);
  }

  @Test
  void applyingARecordTwiceIsApplyingItOnce() {
    LogicalChange insert =
        new LogicalChange(
            LogicalChange.Kind.INSERT, "t", new byte[] {7}, new byte[] {1, 2}, Optional.empty());
    LogRecord r = new LogRecord(insert, "c", 1, "tx", 0, 0);
    assertThat(r.toTreeChange(false)).isEqualTo(TreeChange.put(new byte[] {7}, new byte[] {1, 2}));

    LogicalChange indexDelete =
        new LogicalChange(
            LogicalChange.Kind.DELETE, "i", new byte[] {5}, new byte[] {7}, Optional.empty());
    assertThat(new LogRecord(indexDelete, "c", 1, "tx", 0, 0).toTreeChange(true))
        .isEqualTo(TreeChange.delete(SecondaryKeys.compose(new byte[] {5}, new byte[] {7})));
  }
}
