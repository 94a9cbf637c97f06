package io.stratus.bench.tpcw.report;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import io.stratus.bench.tpcw.workload.Interaction;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class JsonWriterTest {

  @SuppressWarnings("unchecked")
  private static Map<String, Object> parse(SweepView view) {
    return (Map<String, Object>) MiniJson.parse(JsonWriter.toJson(view));
  }

  @SuppressWarnings("unchecked")
  private static Map<String, Object> obj(Object o) {
    return (Map<String, Object>) o;
  }

  @SuppressWarnings("unchecked")
  private static List<Object> list(Object o) {
    return (List<Object>) o;
  }

  @Test
  void containsEveryRunWithSettingsLoadInteractionsAndGroups() {
    Map<String, Object> doc = parse(new SweepView(Fixtures.protocolSweep()));

    assertThat(doc.keySet()).containsExactly("parameter", "numeric", "runs");
    assertThat(doc.get("parameter")).isEqualTo("protocol");
    assertThat(doc.get("numeric")).isEqualTo(false);
    List<Object> runs = list(doc.get("runs"));
    assertThat(runs).hasSize(4);
    assertThat(runs.stream().map(r -> obj(r).get("label")))
        .containsExactly("naive", "basic", "monotonic", "atomic");
    Map<String, Object> atomic = obj(runs.get(3));
    assertThat(atomic.keySet())
        .startsWith(
            "label", "name", "settings", "load", "perInteraction", "read", "update", "total");
    assertThat(obj(atomic.get("settings")).get("protocol")).isEqualTo("atomic");
    assertThat(obj(atomic.get("settings")).get("ttlMillis")).isEqualTo(100000.0);
    assertThat(obj(atomic.get("perInteraction")).keySet())
        .containsExactlyElementsOf(Arrays.stream(Interaction.values()).map(Enum::name).toList());
    Map<String, Object> buyConfirm = obj(obj(atomic.get("perInteraction")).get("BUY_CONFIRM"));
    assertThat(buyConfirm.get("label")).isEqualTo("Buy Confirm");
    assertThat(buyConfirm.get("update")).isEqualTo(true);
    assertThat(buyConfirm.get("meanMillis")).isEqualTo(100.0);
    assertThat(obj(atomic.get("total")).get("label")).isEqualTo("total");
    assertThat(obj(obj(atomic.get("load")).get("rowsPerTable")).keySet())
        .containsExactly("item", "customer");
    Map<String, Object> load = obj(atomic.get("load"));
    assertThat(load.get("itemTableRequests")).isEqualTo(110.0);
    assertThat((double) load.get("itemTableMilliDollars2008")).isCloseTo(0.4, within(1e-9));
    assertThat((double) load.get("itemTableMilliDollars2026")).isCloseTo(0.1, within(1e-9));
    assertThat(atomic.get("backgroundMilliDollars2008")).isEqualTo(20.0);
    // A row's cost per WI is its requests plus the machines, which the run reports by the hour.
    Map<String, Object> total = obj(atomic.get("total"));
    Map<String, Object> machines = obj(atomic.get("machines"));
    assertThat((double) total.get("milliDollars2008"))
        .isCloseTo(
            (double) total.get("requestMilliDollars2008")
                + (double) machines.get("milliDollarsPerWi2008"),
            within(1e-12));
    assertThat((double) machines.get("milliDollars2026"))
        .isCloseTo(
            (double) machines.get("milliDollarsPerWi2026") * (double) machines.get("interactions"),
            within(1e-9));
    assertThat((double) machines.get("coordinationRequests")).isPositive();
    assertThat(total)
        .containsKeys(
            "recordsWritten", "milliDollarsPerRecordWritten2008", "millisPerRecordWritten");
  }

  @Test
  void escapesStringsAndWritesNullForMissingNumbers() {
    String json = JsonWriter.toJson(new SweepView(Fixtures.awkward()));
    Map<String, Object> doc = obj(MiniJson.parse(json));

    assertThat(json).contains("\"basic, \\\"tuned\\\"\\nv2\"");
    assertThat(json).contains("C:\\\\path").contains("\\t").contains("\\u0001");
    assertThat(json).doesNotContain("NaN").doesNotContain("Infinity");
    List<Object> runs = list(doc.get("runs"));
    Map<String, Object> awkward = obj(runs.get(1));
    assertThat(awkward.get("label")).isEqualTo("basic, \"tuned\"\nv2");
    assertThat(list(awkward.get("errorSamples")))
        .containsExactly("IOException: \"timeout\" at C:\\path", "tab\there\u0001bell");
    Map<String, Object> home = obj(obj(awkward.get("perInteraction")).get("HOME"));
    assertThat(home).containsEntry("meanMillis", null);
    Map<String, Object> adminConfirm = obj(obj(awkward.get("perInteraction")).get("ADMIN_CONFIRM"));
    assertThat(adminConfirm.get("count")).isEqualTo(0.0);
    Map<String, Object> empty = obj(runs.get(2));
    assertThat(empty.get("load")).isNull();
    assertThat(empty.get("bufferPoolHitRate")).isNull();
    assertThat(list(empty.get("errorSamples"))).isEmpty();
  }

  @Test
  void isStableAndBalanced() {
    String first = JsonWriter.toJson(new SweepView(Fixtures.ebsSweep()));
    String second = JsonWriter.toJson(new SweepView(Fixtures.ebsSweep()));

    assertThat(first).isEqualTo(second).endsWith("}\n");
    assertThat(count(first, '{')).isEqualTo(count(first, '}'));
    assertThat(count(first, '[')).isEqualTo(count(first, ']'));
    assertThat(obj(MiniJson.parse(first)).get("numeric")).isEqualTo(true);
    assertThat(list(obj(MiniJson.parse(first)).get("runs"))).hasSize(6);
  }

  @Test
  void writerRejectsMisuse() {
    assertThatThrownBy(() -> new JsonWriter.Json().beginObject().value("x"))
        .isInstanceOf(IllegalStateException.class);
    assertThatThrownBy(() -> new JsonWriter.Json().beginArray().name("x"))
        .isInstanceOf(IllegalStateException.class);
    assertThatThrownBy(() -> new JsonWriter.Json().beginArray().endObject())
        .isInstanceOf(IllegalStateException.class);
    assertThatThrownBy(() -> new JsonWriter.Json().beginObject().toString())
        .isInstanceOf(IllegalStateException.class);
    assertThat(
            new JsonWriter.Json()
                .beginArray()
                .value(1)
                .value(0.5)
                .nullValue()
                .endArray()
                .toString()
                .replaceAll("\\s", ""))
        .isEqualTo("[1,0.5,null]");
    assertThat(new JsonWriter.Json().beginObject().endObject().toString()).isEqualTo("{}");
  }

  private static long count(String s, char c) {
    // braces inside strings would skew this; the fixture's strings have none
    return s.chars().filter(ch -> ch == c).count();
  }
}
