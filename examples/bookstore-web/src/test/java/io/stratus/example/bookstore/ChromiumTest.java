package io.stratus.example.bookstore;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/** Finding the browser: a missing one fails the browser test with how to install it. */
class ChromiumTest {

  @Test
  void aMissingBinaryFailsSayingHowToInstallIt() {
    assertThatThrownBy(
            () ->
                Chromium.find(
                    "STRATUS_TEST_UNSET_VARIABLE", "/no/such/dir/chromium", "no-such-chromium"))
        .isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("/no/such/dir/chromium")
        .hasMessageContaining("no-such-chromium on PATH")
        .hasMessageContaining("apt-get install -y chromium chromium-driver");
  }

  @Test
  void aBinaryOnThePathIsFound() {
    Path found = Chromium.find("STRATUS_TEST_UNSET_VARIABLE", "/no/such/dir/sh", "sh");
    assertThat(found).isExecutable();
    assertThat(found.getFileName()).hasToString("sh");
  }
}
