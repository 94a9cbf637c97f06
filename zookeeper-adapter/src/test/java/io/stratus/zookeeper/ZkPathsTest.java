package io.stratus.zookeeper;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;

import java.util.HashSet;
import java.util.List;
import java.util.Random;
import java.util.Set;
import org.apache.zookeeper.common.PathUtils;
import org.junit.jupiter.api.Test;

/** The URI-to-znode-name mapping: valid for ZooKeeper, reversible, collision-free. */
class ZkPathsTest {
  private static final List<String> TRICKY =
      List.of(
          "a",
          "a/b",
          "a%2Fb",
          "a%2fb",
          "/",
          "//",
          ".",
          "..",
          "...",
          "zookeeper",
          "a b",
          "ü",
          "€/€",
          "\u0000x",
          "\u007f",
          "\ud83d\ude00",
          "%",
          "%%",
          "x?y=1&z=2#f",
          "~-._",
          "A",
          "a\u0301");

  @Test
  void everyNameIsAValidZnodeNameAndDecodesToItsUri() {
    for (String uri : TRICKY) {
      String name = ZkPaths.encode(uri);
      assertThatCode(() -> PathUtils.validatePath("/ns/" + name))
          .as(uri)
          .doesNotThrowAnyException();
      assertThat(name).as(uri).doesNotContain("/").isNotIn(".", "..");
      assertThat(ZkPaths.decode(name)).isEqualTo(uri);
    }
  }

  @Test
  void distinctUrisGetDistinctNames() {
    Set<String> names = new HashSet<>();
    for (String uri : TRICKY) {
      assertThat(names.add(ZkPaths.encode(uri))).as(uri).isTrue();
    }
    Random rnd = new Random(42);
    char[] alphabet = "a/%.2F_~ü€ ".toCharArray();
    Set<String> uris = new HashSet<>();
    Set<String> encoded = new HashSet<>();
    for (int i = 0; i < 20_000; i++) {
      StringBuilder sb = new StringBuilder();
      for (int n = 1 + rnd.nextInt(6); n > 0; n--) {
        sb.append(alphabet[rnd.nextInt(alphabet.length)]);
      }
      String uri = sb.toString();
      if (uris.add(uri)) {
        String name = ZkPaths.encode(uri);
        assertThat(encoded.add(name)).as(uri + " -> " + name).isTrue();
        assertThat(ZkPaths.decode(name)).isEqualTo(uri);
      }
    }
  }

  @Test
  void commonUrisStayReadable() {
    assertThat(ZkPaths.encode("db/shop/page-17")).isEqualTo("db%2Fshop%2Fpage-17");
    assertThat(new ZkPaths("prod/shop").queue("q/1")).isEqualTo("/prod/shop/queues/q%2F1");
    assertThat(ZkPaths.messagePrefix("/ns/queues/q", -5, 36)).isEqualTo("/ns/queues/q/-5_10_");
  }
}
