package io.stratus.junit;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/**
 * docs/using.md shows {@code com.example.shop.StockTest}, which the build runs as one of this
 * module's tests, as it is: the example can neither stop compiling nor drift from what runs.
 */
class UsingGuideExampleTest {
  @Test
  void theGuideShowsTheExampleAsItRuns() throws IOException {
    Path module = Path.of("").toAbsolutePath();
    String example =
        Files.readString(module.resolve("src/test/java/com/example/shop/StockTest.java")).strip();
    assertThat(Files.readString(module.getParent().resolve("docs/using.md")))
        .contains("```java\n" + example + "\n```");
  }
}
