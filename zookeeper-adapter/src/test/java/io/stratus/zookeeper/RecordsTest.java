package io.stratus.zookeeper;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.stratus.cloudapi.LockMode;
import io.stratus.cloudapi.SupportsIdempotentIncrement;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.OptionalLong;
import org.junit.jupiter.api.Test;

/** The znode records: exact round trips, lookups, lease and validation arithmetic. */
class RecordsTest {
  private static final Instant T = Instant.parse("2026-01-01T00:00:00.123456789Z");

  @Test
  void timeoutTablesLookUpTheLongestPrefixAndRememberTheLongestEver() {
    TimeoutTable t =
        TimeoutTable.EMPTY
            .with("a/", Duration.ofSeconds(5))
            .with("a/long", Duration.ofSeconds(90))
            .with("a/long", Duration.ofSeconds(20))
            .with("b", Duration.ofNanos(1_500_000_001));
    TimeoutTable back = TimeoutTable.decode(t.encode());
    Duration none = Duration.ofSeconds(60);
    for (TimeoutTable x : List.of(t, back)) {
      assertThat(x.lookup("a/x", none)).isEqualTo(Duration.ofSeconds(5));
      assertThat(x.lookup("a/lon", none)).isEqualTo(Duration.ofSeconds(5));
      assertThat(x.lookup("a/longer", none)).isEqualTo(Duration.ofSeconds(20));
      assertThat(x.lookup("a", none)).isEqualTo(none);
      assertThat(x.lookup("bz", none)).isEqualTo(Duration.ofNanos(1_500_000_001));
      assertThat(x.longestEver()).isEqualTo(Duration.ofSeconds(90));
    }
    assertThat(t.noting(Duration.ofSeconds(10))).isSameAs(t);
    assertThat(t.noting(Duration.ofMinutes(2)).longestEver()).isEqualTo(Duration.ofMinutes(2));
    assertThat(TimeoutTable.decode(new byte[0]).lookup("x", none)).isEqualTo(none);
  }

  @Test
  void lockRecordsKeepNanosecondsAndLapseAtGrantPlusTimeoutPlusSkew() {
    LockRecord r =
        new LockRecord(
            3,
            List.of(
                new LockRecord.Holder("A", LockMode.SHARED, T, Duration.ofSeconds(10)),
                new LockRecord.Holder(
                    "Bé", LockMode.EXCLUSIVE, T.plusSeconds(5), Duration.ofSeconds(10))));
    assertThat(LockRecord.decode(r.encode())).isEqualTo(r);
    Duration skew = Duration.ofMillis(500);
    Instant lapseA = T.plusSeconds(10).plus(skew);
    assertThat(LockRecord.live(r, 3, lapseA.minusNanos(1), skew)).hasSize(2);
    assertThat(LockRecord.live(r, 3, lapseA, skew))
        .extracting(LockRecord.Holder::clientId)
        .containsExactly("Bé");
    assertThat(LockRecord.live(r, 4, T, skew)).as("another generation").isEmpty();
    assertThat(LockRecord.live(null, 3, T, skew)).isEmpty();
  }

  @Test
  void lockRecordStampsFollowTheHoldersAndCountOnlyInTheirGeneration() {
    List<LockRecord.Holder> one =
        List.of(new LockRecord.Holder("A", LockMode.SHARED, T, Duration.ofSeconds(10)));
    LockRecord stamped = new LockRecord(3, one, OptionalLong.of(42));
    LockRecord unknown = new LockRecord(3, one);
    assertThat(LockRecord.decode(stamped.encode())).isEqualTo(stamped);
    assertThat(LockRecord.decode(unknown.encode())).isEqualTo(unknown);
    assertThat(unknown.encode()).as("no stamp, no bytes").hasSize(stamped.encode().length - 8);

    ServiceState third = new ServiceState(3, Instant.MIN);
    assertThat(LockRecord.stampOf(stamped, third)).isEqualTo(OptionalLong.of(42));
    assertThat(LockRecord.stampOf(unknown, third)).isEmpty();
    assertThat(LockRecord.stampOf(stamped, new ServiceState(4, Instant.MIN)))
        .as("another generation")
        .isEmpty();
    assertThat(LockRecord.stampOf(null, ServiceState.INITIAL))
        .as("untouched")
        .isEqualTo(OptionalLong.of(0));
    assertThat(LockRecord.stampOf(null, third)).as("untouched since a restart?").isEmpty();
    assertThat(LockRecord.stampOf(null, new ServiceState(0, T)))
        .as("untouched since the namespace was found dropped?")
        .isEmpty();
  }

  @Test
  void lockRecordModesKeepTheBytesOfTheFirstLayoutAndAddIntention() {
    LockMode[] byCode = {LockMode.SHARED, LockMode.EXCLUSIVE, LockMode.INTENTION};
    for (int code = 0; code < byCode.length; code++) {
      byte[] data = holderWithModeByte(code);
      LockRecord r = LockRecord.decode(data);
      assertThat(r.holders()).extracting(LockRecord.Holder::mode).containsExactly(byCode[code]);
      assertThat(r.encode()).as("written as read").isEqualTo(data);
    }
    assertThatThrownBy(() -> LockRecord.decode(holderWithModeByte(3)))
        .isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("mode 3");
  }

  /** A record of one holder written field by field, as the first layout wrote it. */
  private static byte[] holderWithModeByte(int mode) {
    return new Codec.Writer()
        .writeLong(3)
        .writeInt(1)
        .writeString("A")
        .writeByte(mode)
        .writeInstant(T)
        .writeDuration(Duration.ofSeconds(10))
        .toBytes();
  }

  @Test
  void counterRecordsFoldTheirValidatedPrefix() {
    CounterRecord c =
        CounterRecord.fresh(7)
            .issue(T.plusSeconds(10))
            .issue(T.plusSeconds(11))
            .issue(T.plusSeconds(12));
    assertThat(CounterRecord.decode(c.encode())).isEqualTo(c);
    CounterRecord v = c.validate(2).advance(T, Duration.ZERO);
    assertThat(v.watermark()).isZero();
    assertThat(v.pendingOf(2).validated()).isTrue();
    CounterRecord later = v.advance(T.plusSeconds(10), Duration.ZERO);
    assertThat(later.watermark()).isEqualTo(2);
    assertThat(later.pending()).hasSize(1);
    assertThat(later.pendingOf(2)).isNull();
    assertThat(later.advance(T.plusSeconds(12), Duration.ofNanos(1)).watermark()).isEqualTo(2);
    assertThat(later.advance(T.plusSeconds(12), Duration.ZERO).watermark()).isEqualTo(3);
    assertThat(CounterRecord.decode(later.encode())).isEqualTo(later);
  }

  @Test
  void counterRecordsRememberRequestIdsAwaitingValidationAndTheLastFew() {
    int n = SupportsIdempotentIncrement.REMEMBERED;
    CounterRecord c = CounterRecord.fresh(7).issue(T, "held").issue(T, null);
    for (int i = 0; i < n + 5; i++) {
      c = c.issue(T.plusSeconds(100), "r" + i);
    }
    assertThat(CounterRecord.decode(c.encode())).isEqualTo(c);
    assertThat(c.sequenceOf("held")).isEqualTo(1);
    assertThat(c.sequenceOf("r0")).isEqualTo(3);
    assertThat(c.sequenceOf("nobody")).isNull();
    CounterRecord folded = c.advance(T, Duration.ZERO);
    assertThat(folded.watermark()).isEqualTo(2);
    assertThat(folded.sequenceOf("held")).as("folded, and enough later ids remembered").isNull();
    assertThat(folded.sequenceOf("r0")).as("still awaiting validation").isEqualTo(3);
    CounterRecord all = folded.advance(T.plusSeconds(100), Duration.ZERO);
    assertThat(all.requests()).hasSize(n);
    assertThat(all.sequenceOf("r4")).isNull();
    assertThat(all.sequenceOf("r5")).isEqualTo(8);
    assertThat(CounterRecord.decode(all.encode())).isEqualTo(all);
  }

  @Test
  void aCounterRecordWithoutRequestIdsKeepsItsEarlierLayout() {
    CounterRecord c = CounterRecord.fresh(3).issue(T).issue(T.plusSeconds(1));
    byte[] earlier =
        new Codec.Writer()
            .writeLong(3)
            .writeLong(2)
            .writeLong(0)
            .writeInt(2)
            .writeInstant(T)
            .writeByte(0)
            .writeInstant(T.plusSeconds(1))
            .writeByte(0)
            .toBytes();
    assertThat(c.encode()).isEqualTo(earlier);
    assertThat(CounterRecord.decode(earlier)).isEqualTo(c);
    byte[] disordered =
        new CounterRecord(
                3,
                2,
                0,
                c.pending(),
                List.of(new CounterRecord.Request("b", 2), new CounterRecord.Request("a", 1)))
            .encode();
    assertThatThrownBy(() -> CounterRecord.decode(disordered))
        .isInstanceOf(IllegalStateException.class);
  }

  @Test
  void serviceStatesRoundTripAndMalformedRecordsAreRejected() {
    ServiceState s = new ServiceState(12, T);
    assertThat(ServiceState.decode(s.encode())).isEqualTo(s);
    assertThat(ServiceState.decode(ServiceState.INITIAL.encode()).refusing(Instant.MIN)).isFalse();
    assertThat(s.refusing(T.minusNanos(1))).isTrue();
    assertThat(s.refusing(T)).isFalse();
    assertThatThrownBy(() -> ServiceState.decode(new byte[] {9, 1, 2}))
        .isInstanceOf(IllegalStateException.class);
    byte[] inconsistent = new CounterRecord(1, 5, 0, List.of()).encode();
    assertThatThrownBy(() -> CounterRecord.decode(inconsistent))
        .isInstanceOf(IllegalStateException.class);
  }
}
