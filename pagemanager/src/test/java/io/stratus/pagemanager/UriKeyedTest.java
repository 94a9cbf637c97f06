package io.stratus.pagemanager;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** An entry kept under an equal string moves to that string object and stays the only one. */
class UriKeyedTest {
  @Test
  void theEntryMovesToTheStringObjectThatFoundIt() {
    String held = new String("db/c/items/7".toCharArray());
    String finder = new String(held.toCharArray());
    Map<String, Integer> map = new HashMap<>();
    map.put(held, 1);
    map.put("db/c/items/8", 2);

    assertThat(UriKeyed.keepUnder(map, finder, 3)).isEqualTo(3);

    assertThat(map).hasSize(2).containsEntry(held, 3).containsEntry("db/c/items/8", 2);
    String key = map.keySet().stream().filter(finder::equals).findFirst().orElseThrow();
    assertThat(key).isSameAs(finder);
  }

  @Test
  void aMissingUriIsAdded() {
    Map<String, Integer> map = new HashMap<>();
    UriKeyed.keepUnder(map, "db/c/items/1", 1);
    assertThat(map).containsExactly(Map.entry("db/c/items/1", 1));
  }
}
