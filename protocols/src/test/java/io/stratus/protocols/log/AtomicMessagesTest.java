package io.stratus.protocols.log;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.stratus.CorruptLogMessageException;
import io.stratus.protocols.LogicalChange;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** The ATOMIC queue's message kinds: log records, commit record, complete transaction. */
class AtomicMessagesTest {

  private static List<LogRecord> records(int n, int valueBytes) {
    List<LogRecord> out = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      LogicalChange c =
          new LogicalChange(
              LogicalChange.Kind.UPDATE,
              "db/c/items/root",
              new byte[] {(byte) i},
              new byte[valueBytes],
              Optional.of("db/c/items/p" + i));
      out.add(
          new LogRecord(c, "w#1", i + 1, "tx-7", 1_700_000_000_000L, 0)
              .withWriteStamp((1_700_000_000_000_000L << 8) + i));
    }
    return out;
  }

  @Test
  void aTransactionThatFitsIsOneCompleteMessageThatIsItsOwnCommitRecord() {
    List<LogRecord> rs = records(5, 100);
    byte[] m = AtomicMessages.complete("n/tx-7", 42, rs, 8 * 1024).orElseThrow();
    assertThat(m.length).isLessThanOrEqualTo(8 * 1024);
    AtomicMessages.Entry e = AtomicMessages.decode(m);
    assertThat(e.commitRecord()).isTrue();
    assertThat(e.complete()).isTrue();
    assertThat(e.commitKey()).isEqualTo("n/tx-7");
    assertThat(e.commitTimeMillis()).isEqualTo(42);
    assertThat(e.recordCount()).isEqualTo(5);
    assertThat(e.records()).isEqualTo(rs); // counters included
  }

  @Test
  void aTransactionThatDoesNotFitTakesTwoSteps() {
    List<LogRecord> rs = records(20, 1000);
    assertThat(AtomicMessages.complete("n/tx-7", 42, rs, 8 * 1024)).isEmpty();
    List<byte[]> logs = AtomicMessages.pack("n/tx-7", 42, rs, 8 * 1024);
    assertThat(logs.size()).isGreaterThan(1);
    AtomicMessages.Entry first = AtomicMessages.decode(logs.get(0));
    assertThat(first.commitRecord()).isFalse();
    assertThat(first.complete()).isFalse();
    AtomicMessages.Entry commit =
        AtomicMessages.decode(AtomicMessages.commitRecord("n/tx-7", 42, logs.size(), rs.size()));
    assertThat(commit.commitRecord()).isTrue();
    assertThat(commit.complete()).isFalse();
    assertThat(commit.messageCount()).isEqualTo(logs.size());
  }

  @Test
  void aDamagedCompleteMessageIsRejected() {
    byte[] m = AtomicMessages.complete("n/tx-7", 42, records(3, 10), 8 * 1024).orElseThrow();
    m[m.length - 1] ^= 1;
    assertThatThrownBy(() -> AtomicMessages.decode(m))
        .isInstanceOf(CorruptLogMessageException.class);
  }
}
