package io.stratus.protocols;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.stratus.InvalidConfigurationException;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** The table of settings, and the documentation's copy of it. */
class SettingsTableTest {
  static final String BEGIN =
      "<!-- settings table: generated from io.stratus.protocols.Settings.markdownTable(),"
          + " checked by SettingsTableTest -->\n";
  static final String END = "<!-- end of settings table -->";

  /**
   * docs/using.md shows the table as {@link Settings#markdownTable()} makes it. To update it,
   * run this test with {@code -Dstratus.writeDocs=true}: it writes the table into the file.
   */
  @Test
  void theGuideShowsTheTableAsTheCodeHasIt() throws IOException {
    Path doc = Path.of("").toAbsolutePath().getParent().resolve("docs/using.md");
    String text = Files.readString(doc);
    int begin = text.indexOf(BEGIN);
    int end = text.indexOf(END);
    assertThat(begin).as("the table's start marker in %s", doc).isNotNegative();
    assertThat(end).as("the table's end marker in %s", doc).isGreaterThan(begin);
    // Blank lines around the table keep the markers out of it.
    String table = "\n" + Settings.markdownTable() + "\n";
    if (Boolean.getBoolean("stratus.writeDocs")) {
      Files.writeString(
          doc, text.substring(0, begin + BEGIN.length()) + table + text.substring(end));
      return;
    }
    assertThat(text.substring(begin + BEGIN.length(), end)).isEqualTo(table);
  }

  @Test
  void everySettingHasOneKeyOneNameAndADefaultThatItAccepts() {
    Set<String> keys = new HashSet<>();
    Set<String> names = new HashSet<>();
    Setting.Values defaults = Setting.given(Map.of());
    for (Setting<?> s : Settings.all()) {
      assertThat(keys.add(s.key())).as("key %s once", s.key()).isTrue();
      assertThat(names.add(s.name())).as("name %s once", s.name()).isTrue();
      assertThat(s.key()).startsWith("stratus.");
      assertThat(s.doc()).isNotBlank();
      if (s != Settings.DATABASE_URI) {
        acceptsItsDefault(s, defaults);
      }
    }
    assertThat(Settings.keys()).hasSize(Settings.all().size());
  }

  private static <T> void acceptsItsDefault(Setting<T> s, Setting.Values defaults) {
    T value = s.defaultIn(defaults);
    assertThat(s.check(value)).as("%s accepts its default", s).isEqualTo(value);
    // What the documentation writes parses back to the same value.
    assertThat(s.parse(s.type().format(value))).as("%s round trip", s).isEqualTo(value);
  }

  @Test
  void aRequiredSettingNotGivenIsRefusedWhereItsValueIsAskedFor() {
    Setting.Values none = Setting.given(Map.of());
    assertThatThrownBy(() -> none.get(Settings.DATABASE_URI))
        .isInstanceOf(InvalidConfigurationException.class)
        .hasMessage("the database URI is required: set databaseUri");
    assertThat(Setting.given(Map.of(Settings.DATABASE_URI, "db/shop")).get(Settings.DATABASE_URI))
        .isEqualTo("db/shop");
  }

  @Test
  void aValueOutOfRangeIsRefusedNamingTheSettingAndWhatItAccepts() {
    assertThatThrownBy(() -> Settings.CHECKPOINT_INTERVAL.check(Duration.ZERO))
        .isInstanceOf(InvalidConfigurationException.class)
        .hasMessage("the checkpoint interval must be positive, at most 365 days, got PT0S");
    assertThatThrownBy(() -> Settings.WRITER_LANES.parse("0"))
        .isInstanceOf(InvalidConfigurationException.class)
        .hasMessageContaining("between 1 and " + Settings.MAX_WRITER_LANES);
    assertThatThrownBy(() -> Settings.TTL.parse("soon"))
        .isInstanceOf(InvalidConfigurationException.class)
        .hasMessageContaining("not a duration");
    assertThat(Settings.PAGE_SIZE.parse("64k")).isEqualTo(64 * 1024);
    assertThat(Settings.CHECKPOINT_WRITES.parse("timing-only"))
        .isEqualTo(CheckpointWrites.TIMING_ONLY);
  }

  @Test
  void eachProtocolsRecordDeclaresTheServicesOfItsKindAndRefusesABrokenRule() {
    for (ProtocolKind kind : ProtocolKind.values()) {
      ProtocolSettings s = ProtocolSettings.defaults(kind);
      assertThat(s.kind()).isEqualTo(kind);
      assertThat(s.services()).isEqualTo(kind.services());
    }
    CheckpointSettings c = CheckpointSettings.defaults();
    CheckpointSettings short2s =
        new CheckpointSettings(
            c.interval(),
            Duration.ofSeconds(2),
            Duration.ofSeconds(1),
            c.maxRecordsPerCheckpoint(),
            c.writes(),
            c.seed(),
            c.atomicTimeout(),
            c.closeTimeout());
    assertThatThrownBy(() -> new ProtocolSettings.Atomic(ProtocolKind.ATOMIC, short2s, 32))
        .isInstanceOf(InvalidConfigurationException.class)
        .hasMessageContaining("at least PT5S");
    assertThatThrownBy(
            () ->
                new ProtocolSettings.Isolating(
                    ProtocolKind.SNAPSHOT_ISOLATION,
                    c,
                    new IsolationSettings(
                        Duration.ofSeconds(10), Duration.ofSeconds(60), Duration.ZERO)))
        .isInstanceOf(InvalidConfigurationException.class)
        .hasMessageContaining("2 x transaction timeout");
  }
}
