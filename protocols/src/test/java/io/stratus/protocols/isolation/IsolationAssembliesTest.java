package io.stratus.protocols.isolation;

import static org.assertj.core.api.Assertions.assertThat;

import io.stratus.btree.KeyRange;
import io.stratus.protocols.Guarantee;
import io.stratus.protocols.ProtocolKind;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Each isolating protocol is the assembly its guarantees call for. */
class IsolationAssembliesTest {
  private static final byte[] KEY = "k".getBytes(StandardCharsets.UTF_8);

  @Test
  void eachProtocolNamesItsKind() {
    assertThat(SnapshotIsolationProtocol.ASSEMBLY.kind())
        .isEqualTo(ProtocolKind.SNAPSHOT_ISOLATION);
    assertThat(SerializableSnapshotProtocol.ASSEMBLY.kind())
        .isEqualTo(ProtocolKind.SERIALIZABLE_SNAPSHOT);
    assertThat(LockingProtocol.ASSEMBLY.kind()).isEqualTo(ProtocolKind.TWO_PHASE_LOCKING);
  }

  /**
   * Only the serializable snapshot keeps what its transactions read: snapshot isolation checks
   * writes alone, and two-phase locking holds locks on what it read instead.
   */
  @Test
  void onlyTheSerializableSnapshotKeepsItsReads() {
    for (IsolationEngine.Assembly a :
        List.of(
            SnapshotIsolationProtocol.ASSEMBLY,
            SerializableSnapshotProtocol.ASSEMBLY,
            LockingProtocol.ASSEMBLY)) {
      ReadSet reads = a.validation().newReadSet();
      reads.add("tree", KeyRange.singleton(KEY));
      boolean keeps = a.kind() == ProtocolKind.SERIALIZABLE_SNAPSHOT;
      assertThat(reads.contains("tree", KEY)).as(a.kind().toString()).isEqualTo(keeps);
      assertThat(reads.roots()).as(a.kind().toString()).hasSize(keeps ? 1 : 0);
      assertThat(a.kind().guarantees(Guarantee.SERIALIZABLE))
          .as("%s is serializable by its reads or its locks", a.kind())
          .isEqualTo(keeps || a.kind() == ProtocolKind.TWO_PHASE_LOCKING);
    }
  }

  @Test
  void aRecordingReadSetContainsTheKeysOfItsRangesOnly() {
    ReadSet reads = ReadSet.recording();
    reads.add("tree", KeyRange.singleton(KEY));
    assertThat(reads.contains("tree", KEY)).isTrue();
    assertThat(reads.contains("tree", "l".getBytes(StandardCharsets.UTF_8))).isFalse();
    assertThat(reads.contains("other", KEY)).isFalse();
  }
}
