package io.stratus.aws;

import static org.assertj.core.api.Assertions.assertThat;

import io.stratus.cloudapi.testing.Seed;
import io.stratus.cloudapi.testing.SeedExtension;
import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/** The URI-to-queue-name mapping: valid SQS names, no collisions, and prefix-preserving. */
@ExtendWith(SeedExtension.class)
class QueueNamesTest {
  private static final String PREFIX = AwsConfig.DEFAULT_QUEUE_NAME_PREFIX;
  private final QueueNames names = new QueueNames(PREFIX);

  /** A random URI: ASCII, separators, Latin, CJK and surrogate pairs, 1 to 400 characters. */
  private static String randomUri(SplittableRandom r) {
    String[] pieces = {
      "a",
      "Z",
      "7",
      "-",
      "_",
      "/",
      ".",
      " ",
      "~",
      "\u00e9",
      "\u4e2d",
      "\ud83d\ude00",
      "db",
      "page",
      "%"
    };
    int n = 1 + r.nextInt(r.nextInt(10) == 0 ? 400 : 40);
    StringBuilder sb = new StringBuilder();
    for (int i = 0; i < n; i++) {
      sb.append(pieces[r.nextInt(pieces.length)]);
    }
    return sb.toString();
  }

  @Test
  void everyNameIsAValidSqsName(@Seed long seed) {
    SplittableRandom r = new SplittableRandom(seed);
    for (int i = 0; i < 20_000; i++) {
      String name = names.nameFor(randomUri(r));
      assertThat(name).hasSizeLessThanOrEqualTo(80).matches("[A-Za-z0-9_-]+").startsWith(PREFIX);
      assertThat(names.isOurs(name)).isTrue();
    }
    String longest = "\ud83d\ude00".repeat(256); // 1,024 UTF-8 bytes
    assertThat(longest.getBytes(StandardCharsets.UTF_8)).hasSize(1024);
    assertThat(names.nameFor(longest)).hasSize(80);
  }

  @Test
  void distinctUrisGetDistinctNames(@Seed long seed) {
    SplittableRandom r = new SplittableRandom(seed);
    Map<String, String> byName = new HashMap<>();
    for (int i = 0; i < 100_000; i++) {
      String uri = randomUri(r);
      String before = byName.putIfAbsent(names.nameFor(uri), uri);
      assertThat(before == null || before.equals(uri)).as("collision of %s", uri).isTrue();
    }
    // URIs whose readable parts are equal, or equal once cut, still differ by their hash.
    List<String> lookAlike =
        List.of(
            "a/b", "a.b", "a b", "a_b", "a\u00e9b", "x".repeat(200) + "1", "x".repeat(200) + "2");
    assertThat(lookAlike.stream().map(names::nameFor).distinct()).hasSize(lookAlike.size());
  }

  @Test
  void namesOfUrisWithAPrefixStartWithTheNamePrefix(@Seed long seed) {
    SplittableRandom r = new SplittableRandom(seed);
    for (int i = 0; i < 20_000; i++) {
      String uri = randomUri(r);
      String prefix = uri.substring(0, r.nextInt(uri.length() + 1));
      assertThat(names.nameFor(uri)).startsWith(names.namePrefixFor(prefix));
    }
  }

  @Test
  void readableUrisAreRecoveredFromTheirNamesAndOthersAreNot() {
    for (String uri : new String[] {"db-shop-page-42", "Q_1", "x".repeat(51)}) {
      assertThat(names.uriIfReadable(names.nameFor(uri))).contains(uri);
    }
    for (String uri : new String[] {"a/b", "\u00e9", "x".repeat(52), "a.b"}) {
      assertThat(names.uriIfReadable(names.nameFor(uri))).isEmpty();
    }
    assertThat(names.uriIfReadable("foreign-queue")).isEmpty();
    assertThat(names.isOurs("stratus-some-queue")).isFalse();
    assertThat(names.isOurs("other-a-" + QueueNames.hash("a"))).isFalse();
  }

  @Test
  void theNamePrefixMayBeEmptyOrAsLongAsConfigurationAllows() {
    QueueNames none = new QueueNames("");
    QueueNames longest = new QueueNames("p".repeat(AwsConfig.MAX_QUEUE_NAME_PREFIX_LENGTH));
    String uri = "u".repeat(1000);
    assertThat(none.nameFor(uri)).hasSize(80);
    assertThat(longest.nameFor(uri)).hasSize(80);
    assertThat(none.nameFor("a")).isEqualTo("a-" + QueueNames.hash("a"));
  }

  @Test
  void utf8OrderIsByteOrder() {
    List<String> sorted = new java.util.ArrayList<>(List.of("\uff21", "\ud83d\ude00", "a", "B"));
    sorted.sort(QueueNames.UTF8_ORDER);
    assertThat(sorted).containsExactly("B", "a", "\uff21", "\ud83d\ude00");
  }
}
