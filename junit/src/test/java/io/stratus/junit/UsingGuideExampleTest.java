package io.stratus.junit;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/**
 * docs/using.md shows {@code com.example.shop.StockTest} and {@code com.example.shop.BookQueryTest},
 * which the build runs as tests of this module, as they are: the examples can neither stop
 * compiling nor drift from what runs.
 */
class UsingGuideExampleTest {
  @Test
  void theGuideShowsTheTestingExampleAsItRuns() throws IOException {
    assertShown("StockTest");
  }

  @Test
  void theGuideShowsTheQueryExampleAsItRuns() throws IOException {
    assertShown("BookQueryTest");
  }

  private static void assertShown(String name) throws IOException {
    Path module = Path.of("").toAbsolutePath();
    String example =
        Files.readString(module.resolve("src/test/java/com/example/shop/" + name + ".java"))
            .strip();
    assertThat(Files.readString(module.getParent().resolve("docs/using.md")))
        .contains("```java\n" + example + "\n```");
  }
}
