package io.stratus.example.bookstore;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import org.openqa.selenium.OutputType;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.chrome.ChromeDriverService;
import org.openqa.selenium.chrome.ChromeOptions;

/**
 * A headless Chromium driven through chromedriver, both from the system (Debian's {@code
 * chromium} and {@code chromium-driver} packages, which {@code bin/chromium} installs), never
 * downloaded: the paths are given to Selenium, so its driver manager has nothing to look up.
 *
 * <p>Why it fails instead of skipping: this is the only test of the pages in a real browser. When
 * a binary is missing, {@link #start} throws saying how to install it.
 */
final class Chromium implements AutoCloseable {
  /** Environment variables naming the binaries, for machines where they live elsewhere. */
  static final String BROWSER_VARIABLE = "STRATUS_CHROMIUM";

  static final String DRIVER_VARIABLE = "STRATUS_CHROMEDRIVER";

  final ChromeDriver driver;
  private final Path profile;
  private final Path screenshots;
  private int shots;

  private Chromium(ChromeDriver driver, Path profile, Path screenshots) {
    this.driver = driver;
    this.profile = profile;
    this.screenshots = screenshots;
  }

  /** Starts a browser with a fresh profile; screenshots go to {@code screenshots}. */
  static Chromium start(Path screenshots) throws IOException {
    installIfMissing();
    Path browser =
        find(BROWSER_VARIABLE, "/usr/bin/chromium", "/usr/bin/chromium-browser", "chromium");
    Path chromedriver = find(DRIVER_VARIABLE, "/usr/bin/chromedriver", "chromedriver");
    Path profile = Files.createTempDirectory("stratus-chromium-profile");
    ChromeOptions options = new ChromeOptions();
    options.setBinary(browser.toFile());
    options.addArguments(
        "--headless",
        "--no-sandbox", // the tests run as root in CI, where Chromium's sandbox cannot start
        "--disable-gpu",
        "--disable-quic",
        "--no-first-run",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
        "--disable-dev-shm-usage",
        "--window-size=1280,1000",
        "--user-data-dir=" + profile);
    ChromeDriverService service =
        new ChromeDriverService.Builder()
            .usingDriverExecutable(chromedriver.toFile())
            .usingAnyFreePort()
            .build();
    ChromeDriver driver = new ChromeDriver(service, options);
    driver.manage().timeouts().pageLoadTimeout(Duration.ofSeconds(30));
    Files.createDirectories(screenshots);
    return new Chromium(driver, profile, screenshots);
  }

  /**
   * Runs the project's {@code bin/chromium install} when no browser is configured or found, as the
   * LocalStack tests start LocalStack: a fresh machine needs nothing installed by hand. What it
   * prints goes to the test's output; when it fails, {@link #find} says what is missing.
   */
  private static void installIfMissing() throws IOException {
    if (System.getenv(BROWSER_VARIABLE) != null || isFound("chromium", "chromedriver")) {
      return;
    }
    Path script = projectRoot().resolve("bin").resolve("chromium");
    if (!Files.isExecutable(script)) {
      return;
    }
    Process p = new ProcessBuilder(script.toString(), "install").inheritIO().start();
    try {
      p.waitFor();
    } catch (InterruptedException e) {
      p.destroy();
      Thread.currentThread().interrupt();
    }
  }

  private static boolean isFound(String... commands) {
    for (String c : commands) {
      boolean found = Files.isExecutable(Path.of("/usr/bin", c));
      for (String dir : System.getenv().getOrDefault("PATH", "").split(":")) {
        found |= !dir.isEmpty() && Files.isExecutable(Path.of(dir, c));
      }
      if (!found) {
        return false;
      }
    }
    return true;
  }

  /** The repository's root: the nearest directory up from the module holding {@code bin/}. */
  private static Path projectRoot() {
    Path dir = Path.of("").toAbsolutePath();
    while (dir != null && !Files.isDirectory(dir.resolve("bin"))) {
      dir = dir.getParent();
    }
    return dir == null ? Path.of("").toAbsolutePath() : dir;
  }

  /** Saves what the window shows as {@code NN-name.png}. */
  void screenshot(String name) throws IOException {
    byte[] png = driver.getScreenshotAs(OutputType.BYTES);
    Files.write(screenshots.resolve(String.format("%02d-%s.png", ++shots, name)), png);
  }

  static Path find(String variable, String... candidates) {
    List<String> tried = new ArrayList<>();
    String fromEnv = System.getenv(variable);
    if (fromEnv != null && !fromEnv.isBlank()) {
      Path p = Path.of(fromEnv.trim());
      if (Files.isExecutable(p)) {
        return p;
      }
      tried.add(variable + "=" + p);
    }
    for (String c : candidates) {
      if (c.startsWith("/")) {
        Path p = Path.of(c);
        if (Files.isExecutable(p)) {
          return p;
        }
        tried.add(c);
      } else {
        for (String dir : System.getenv().getOrDefault("PATH", "").split(":")) {
          Path p = Path.of(dir, c);
          if (!dir.isEmpty() && Files.isExecutable(p)) {
            return p;
          }
        }
        tried.add(c + " on PATH");
      }
    }
    throw new IllegalStateException(
        "no "
            + candidates[candidates.length - 1]
            + " found (tried "
            + String.join(", ", tried)
            + "): the browser test needs Debian's chromium and chromium-driver packages;"
            + " bin/chromium install (apt-get install -y chromium chromium-driver) failed or"
            + " could not run here; install them, or set "
            + variable);
  }

  @Override
  public void close() throws IOException {
    try {
      driver.quit();
    } finally {
      try (var files = Files.walk(profile)) {
        files.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
      }
    }
  }
}
