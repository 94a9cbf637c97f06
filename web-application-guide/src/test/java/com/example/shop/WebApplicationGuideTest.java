package com.example.shop;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.stratus.protocols.ProtocolKind;
import java.io.IOException;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.boot.web.context.WebServerApplicationContext;
import org.springframework.context.ConfigurableApplicationContext;

/**
 * docs/using-in-a-web-application.md, followed: the guide shows this module's sources and
 * properties as they are, its pom names the same dependencies, and the application answers over
 * HTTP as the guide says — on the in-process cloud, and on LocalStack and ZooKeeper started with
 * the project's launchers and configured by the guide's properties — including what a new instance
 * sees of the previous one's writes.
 */
class WebApplicationGuideTest {
  private static final Path MODULE = Path.of("").toAbsolutePath();
  private static final Path ROOT = MODULE.getParent();
  private static final Path GUIDE = ROOT.resolve("docs/using-in-a-web-application.md");

  /** Bounds a launcher command: a first LocalStack install takes minutes, a start seconds. */
  private static final long LAUNCHER_TIMEOUT_SECONDS = 600;

  private final HttpClient http =
      HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(10)).build();
  private final ObjectMapper json = new ObjectMapper();

  @Test
  void theGuideShowsTheApplicationAsItIs() throws IOException {
    String guide = Files.readString(GUIDE);
    for (String file :
        List.of(
            "src/main/java/com/example/shop/ShopApplication.java",
            "src/main/java/com/example/shop/Book.java",
            "src/main/java/com/example/shop/BookController.java",
            "src/main/resources/application.properties")) {
      String source = Files.readString(MODULE.resolve(file)).strip();
      assertThat(guide).as("the guide shows " + file + " as it is").contains(source + "\n```");
    }
    Matcher pom =
        Pattern.compile("```xml\n(<project.*?</project>)\n```", Pattern.DOTALL).matcher(guide);
    assertThat(pom.find()).as("the guide shows a pom").isTrue();
    assertThat(dependencies(pom.group(1)))
        .as("the guide's pom and this module's name the same dependencies")
        .containsExactlyElementsOf(dependencies(Files.readString(MODULE.resolve("pom.xml"))))
        .containsExactly("stratus-spring-boot-starter", "spring-boot-starter-web");
  }

  @Test
  void theGuideAndUsingMdListEveryProtocol() throws IOException {
    List<String> protocols =
        Arrays.stream(ProtocolKind.values()).map(p -> p.name().toLowerCase(Locale.ROOT)).toList();
    Path usingMd = ROOT.resolve("docs/using.md");
    String row =
        Files.readString(usingMd)
            .lines()
            .filter(l -> l.startsWith("| `stratus.protocol` |"))
            .findFirst()
            .orElseThrow(() -> new AssertionError(usingMd + " has no stratus.protocol row"));
    // The settings table's columns: key, builder method, default, protocols, accepted values, doc.
    List<String> cells = Arrays.stream(row.split("\\|")).map(String::strip).toList();
    List<String> accepted = Arrays.stream(cells.get(5).split(",")).map(String::strip).toList();
    assertThat(accepted).as(usingMd + ", accepted values").containsExactlyElementsOf(protocols);
    assertThat(Files.readString(GUIDE))
        .as("the guide points to the one settings table")
        .contains("using.md#configuration-from-properties");
  }

  /** The artifacts of a pom's own dependencies (not managed ones), test scope left out. */
  private static List<String> dependencies(String pom) {
    String own = pom.substring(pom.lastIndexOf("</dependencyManagement>") + 1);
    own = own.substring(own.indexOf("<dependencies>"), own.indexOf("</dependencies>"));
    List<String> artifacts = new ArrayList<>();
    Matcher d = Pattern.compile("<dependency>(.*?)</dependency>", Pattern.DOTALL).matcher(own);
    while (d.find()) {
      if (!d.group(1).contains("<scope>test</scope>")) {
        Matcher a = Pattern.compile("<artifactId>(.*?)</artifactId>").matcher(d.group(1));
        assertThat(a.find()).isTrue();
        artifacts.add(a.group(1));
      }
    }
    return artifacts;
  }

  @Test
  void onTheInProcessCloudANewInstanceStartsEmpty() throws Exception {
    String location;
    try (ConfigurableApplicationContext app = start()) {
      URI base = baseOf(app);
      location = addDune(base);
      assertThat(location).as("the guide's curl example").isEqualTo("/books/1");
      HttpResponse<String> missing = get(base.resolve("/books/999999"));
      assertThat(missing.statusCode()).isEqualTo(404);

      assertThat(get(base.resolve("/actuator/health")).body()).isEqualTo("{\"status\":\"UP\"}");
      assertThat(json.readTree(get(base.resolve("/actuator/metrics")).body()).path("names"))
          .extracting(JsonNode::asText)
          .contains("stratus.commits", "stratus.cloud.requests");
      HttpResponse<String> commits = get(base.resolve("/actuator/metrics/stratus.commits"));
      assertThat(commits.statusCode()).as(commits.body()).isEqualTo(200);
      assertThat(json.readTree(commits.body()).path("measurements").get(0).path("value").asDouble())
          .isGreaterThanOrEqualTo(1);
      HttpResponse<String> cost = get(base.resolve("/actuator/metrics/stratus.cloud.cost"));
      assertThat(cost.statusCode()).as(cost.body()).isEqualTo(200);
    }
    try (ConfigurableApplicationContext app = start()) {
      assertThat(get(baseOf(app).resolve(location)).statusCode())
          .as("the in-process cloud went with the previous instance")
          .isEqualTo(404);
    }
  }

  @Test
  void onLocalStackAndZooKeeperANewInstanceSeesThePreviousInstancesWrites() throws Exception {
    int localstackPort = freePort();
    int zookeeperPort = freePort();
    try {
      String endpoint = launch("localstack", localstackPort);
      String connect = launch("zookeeper", zookeeperPort);
      assertThat(endpoint).isEqualTo("http://127.0.0.1:" + localstackPort);
      assertThat(connect).isEqualTo("127.0.0.1:" + zookeeperPort);
      // The guide's properties for LocalStack + ZooKeeper, with the launchers' ports.
      String[] cloud = {
        "--stratus.cloud.kind=localstack",
        "--stratus.cloud.endpoint=" + endpoint,
        "--stratus.cloud.bucket=shop",
        "--stratus.cloud.zookeeper.connect-string=" + connect
      };
      String location;
      try (ConfigurableApplicationContext app = start(cloud)) {
        location = addDune(baseOf(app));
      }
      // The first instance closed gracefully (its close checkpointed what it committed): the
      // next one reads the book at once.
      try (ConfigurableApplicationContext app = start(cloud)) {
        HttpResponse<String> read = get(baseOf(app).resolve(location));
        assertThat(read.statusCode()).as(read.body()).isEqualTo(200);
        assertThat(json.readTree(read.body()).path("title").asText()).isEqualTo("Dune");
      }
    } finally {
      run("zookeeper", "stop", "--port", Integer.toString(zookeeperPort));
      // LocalStack takes up to 10 s to shut down: let the launcher finish that on its own.
      new ProcessBuilder(
              ROOT.resolve("bin/localstack").toString(),
              "stop",
              "--port",
              Integer.toString(localstackPort))
          .redirectErrorStream(true)
          .redirectOutput(MODULE.resolve("target/localstack-stop.log").toFile())
          .start();
    }
  }

  /** Posts the guide's book; returns its location. */
  private String addDune(URI base) throws Exception {
    HttpResponse<String> created =
        http.send(
            HttpRequest.newBuilder(base.resolve("/books"))
                .header("Content-Type", "application/json")
                .POST(
                    HttpRequest.BodyPublishers.ofString("{\"title\":\"Dune\",\"priceCents\":999}"))
                .build(),
            HttpResponse.BodyHandlers.ofString());
    assertThat(created.statusCode()).as(created.body()).isEqualTo(201);
    String location = created.headers().firstValue("Location").orElseThrow();
    HttpResponse<String> read = get(base.resolve(location));
    assertThat(read.statusCode()).isEqualTo(200);
    JsonNode book = json.readTree(read.body());
    assertThat(book.path("title").asText()).isEqualTo("Dune");
    assertThat(book.path("priceCents").asLong()).isEqualTo(999);
    return location;
  }

  private HttpResponse<String> get(URI uri) throws Exception {
    return http.send(
        HttpRequest.newBuilder(uri).GET().build(), HttpResponse.BodyHandlers.ofString());
  }

  /** The guide's application, as {@code java -jar} would run it, on a free port. */
  private static ConfigurableApplicationContext start(String... args) {
    List<String> all = new ArrayList<>(List.of("--server.port=0"));
    all.addAll(List.of(args));
    return new SpringApplicationBuilder(ShopApplication.class).run(all.toArray(String[]::new));
  }

  private static URI baseOf(ConfigurableApplicationContext app) {
    int port = ((WebServerApplicationContext) app).getWebServer().getPort();
    return URI.create("http://127.0.0.1:" + port);
  }

  private static int freePort() throws IOException {
    try (ServerSocket s = new ServerSocket(0)) {
      return s.getLocalPort();
    }
  }

  /** {@code bin/<launcher> start --port <port>}; returns the last line it printed. */
  private static String launch(String launcher, int port) throws Exception {
    String out = run(launcher, "start", "--port", Integer.toString(port));
    String[] lines = out.strip().split("\n");
    return lines[lines.length - 1].strip();
  }

  private static String run(String launcher, String... args) throws Exception {
    List<String> command = new ArrayList<>(List.of(ROOT.resolve("bin/" + launcher).toString()));
    command.addAll(List.of(args));
    Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
    // The servers write to logs of their own, so the output ends when the launcher exits.
    String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    if (!p.waitFor(LAUNCHER_TIMEOUT_SECONDS, TimeUnit.SECONDS)) {
      p.destroyForcibly();
      throw new AssertionError("bin/" + launcher + " " + String.join(" ", args) + " hung: " + out);
    }
    assertThat(p.exitValue())
        .as("bin/" + launcher + " " + String.join(" ", args) + ": " + out)
        .isZero();
    return out;
  }
}
