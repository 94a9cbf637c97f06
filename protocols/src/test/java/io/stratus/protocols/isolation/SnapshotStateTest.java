package io.stratus.protocols.isolation;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.stratus.CorruptPageException;
import io.stratus.pagemanager.Page;
import io.stratus.pagemanager.PageKind;
import java.util.List;
import org.junit.jupiter.api.Test;

class SnapshotStateTest {

  @Test
  void roundTripsAndKeepsTheNewestOldMark() {
    SnapshotState s = SnapshotState.EMPTY.withCommitId(42);
    for (int i = 1; i <= 40; i++) {
      s = s.withMark(new SnapshotState.Mark(i * 1000L, i * 10L), 30_000);
    }
    SnapshotState back = SnapshotState.decode(s.encode());
    assertThat(back.commitId()).isEqualTo(42);
    assertThat(back.appliedThrough()).isEqualTo(400);
    // Marks before 30 s: only the newest (29 s) is kept, so the collection can still ask for it.
    assertThat(back.marks().get(0)).isEqualTo(new SnapshotState.Mark(29_000, 290));
    assertThat(back.appliedAt(29_500)).isEqualTo(290);
    assertThat(back.appliedAt(100)).isEqualTo(0);
    assertThat(back.marks()).hasSizeLessThanOrEqualTo(SnapshotState.MAX_MARKS);
  }

  @Test
  void aPageWithoutStateReflectsNothingAndGarbageIsCorruption() {
    Page plain = Page.builder("db/c/items/p1", PageKind.LEAF).level(0).build();
    assertThat(SnapshotState.of(plain).commitId()).isZero();
    assertThat(SnapshotState.of(plain).marks()).isEqualTo(List.of());
    Page garbage = plain.toBuilder().protocolState(new byte[] {9, 9, 9}).build();
    assertThatThrownBy(() -> SnapshotState.of(garbage)).isInstanceOf(CorruptPageException.class);
  }
}
