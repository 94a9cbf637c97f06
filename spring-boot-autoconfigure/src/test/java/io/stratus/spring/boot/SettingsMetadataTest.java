package io.stratus.spring.boot;

import static org.assertj.core.api.Assertions.assertThat;

import io.stratus.protocols.Setting;
import io.stratus.protocols.Settings;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/**
 * The IDE metadata of the database properties (description, default) is the table of {@link
 * Settings}: META-INF/additional-spring-configuration-metadata.json, which Spring's
 * configuration processor merges into what it derives from {@link StratusProperties}, is
 * generated from it. Run with {@code -Dstratus.writeDocs=true} to write the file.
 */
class SettingsMetadataTest {
  private static final Path FILE =
      Path.of("src/main/resources/META-INF/additional-spring-configuration-metadata.json");

  @Test
  void theMetadataIsTheSettingsTable() throws IOException {
    String expected = metadata();
    if (Boolean.getBoolean("stratus.writeDocs")) {
      Files.writeString(FILE, expected);
    }
    assertThat(Files.readString(FILE)).isEqualTo(expected);
  }

  private static String metadata() {
    StringBuilder b = new StringBuilder("{\n  \"properties\": [");
    String separator = "\n";
    for (Setting<?> s : Settings.all()) {
      b.append(separator).append("    {\n");
      b.append("      \"name\": ").append(json(s.key())).append(",\n");
      b.append("      \"description\": ")
          .append(
              json(
                  capitalized(s.doc())
                      + (s == Settings.DATABASE_URI
                          ? ". Required."
                          : ". Default: " + s.defaultText() + ".")));
      if (s.defaultValue() != null) {
        b.append(",\n      \"defaultValue\": ").append(json(formatted(s)));
      }
      b.append("\n    }");
      separator = ",\n";
    }
    return b.append("\n  ]\n}\n").toString();
  }

  private static <T> String formatted(Setting<T> s) {
    return s.type().format(s.defaultValue());
  }

  private static String capitalized(String text) {
    return Character.toUpperCase(text.charAt(0)) + text.substring(1);
  }

  private static String json(String text) {
    StringBuilder b = new StringBuilder("\"");
    for (char c : text.toCharArray()) {
      if (c == '"' || c == '\\') {
        b.append('\\');
      }
      b.append(c);
    }
    return b.append('"').toString();
  }
}
