package io.stratus.aws;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.stratus.cloudapi.LimitExceededException;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The metadata encoding: plain metadata unchanged, anything else round-trips. */
class S3MetadataTest {
  @Test
  void plainMetadataIsStoredAsItIs() {
    Map<String, String> md = Map.of("lsn", "42", "kind", "page", "a.b_c-d", "x y=z");
    assertThat(S3Metadata.encode(md)).isEqualTo(md);
  }

  @Test
  void everythingElseRoundTrips() {
    Map<String, String> md =
        Map.of(
            "Upper",
            "v",
            "x-looks-encoded",
            "v",
            "spa ce",
            " lead",
            "k1",
            "trail ",
            "k2",
            "\u00e9\u4e2d\ud83d\ude00",
            "k3",
            "=?UTF-8?B?YQ==?=",
            "k4",
            "~b64~abc",
            "k5",
            "tab\there",
            "k6",
            "");
    Map<String, String> stored = S3Metadata.encode(md);
    stored.forEach(
        (k, v) -> {
          assertThat(k).matches("[a-z0-9][a-z0-9._-]*");
          assertThat(v).matches("[\\x21-\\x7e]([\\x20-\\x7e]*[\\x21-\\x7e])?|");
          assertThat(v).doesNotStartWith("=?");
        });
    assertThat(S3Metadata.decode(stored)).isEqualTo(md);
  }

  @Test
  void rfc2047ValuesFromS3OrOtherToolsAreDecoded() {
    assertThat(S3Metadata.decodeValue("=?UTF-8?Q?=C3=A9=E2=82=AC?=")).isEqualTo("\u00e9\u20ac");
    assertThat(S3Metadata.decodeValue("=?utf-8?b?w6k=?=")).isEqualTo("\u00e9");
    assertThat(S3Metadata.decodeValue("=?UTF-8?Q?a_b?=")).isEqualTo("a b");
    assertThat(S3Metadata.decodeValue("=?no-such-charset?B?YQ==?="))
        .isEqualTo("=?no-such-charset?B?YQ==?=");
    assertThat(S3Metadata.decodeKey("X-4C")).isEqualTo("L");
  }

  @Test
  void theStoredFormIsLimitedTo2KiB() {
    S3Metadata.encode(Map.of("k", "v".repeat(2047)));
    assertThatThrownBy(() -> S3Metadata.encode(Map.of("k", "\u00e9".repeat(800))))
        .isInstanceOf(LimitExceededException.class)
        .hasMessageContaining("stored in S3");
  }
}
