package io.stratus.codec.jackson;

import static org.assertj.core.api.Assertions.assertThat;

import io.stratus.cloudapi.CloudServices;
import io.stratus.cloudapi.inprocess.InProcessCloud;
import io.stratus.core.Database;
import io.stratus.core.DatabaseConfig;
import io.stratus.core.Key;
import io.stratus.core.TypedCollection;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/**
 * The README's example, as written there: this test runs the lines between the markers and
 * checks that the README shows exactly those lines, so the example can neither stop compiling
 * nor drift from what runs.
 */
class ReadmeExampleTest {
  record Book(String title, long priceCents) {}

  private static final String BEGIN = "// README example begins";
  private static final String END = "// README example ends";

  @Test
  void theReadmeExampleRunsAsWritten() throws IOException {
    // spotless:off (the README shows these lines as laid out here, comments aligned)
    // README example begins
    CloudServices cloud = InProcessCloud.create().services();   // or the AWS / ZooKeeper adapters
    TypedCollection<Book> books = TypedCollection.of("books", JacksonCodec.of(Book.class));
    try (Database db = Database.open(DatabaseConfig.builder(cloud, "db/shop").build())) {
      db.createCollection("books");                              // idempotent, at start-up
      long id = db.sequence("bookIds").next();                   // unique ids, no hot spot
      db.run(tx -> books.put(tx, Key.of(id), new Book("Dune", 999)));  // retried while safe
      Optional<Book> book = db.read(tx -> books.get(tx, Key.of(id)));  // a read-only transaction
    }
    // README example ends
    // spotless:on

    try (Database db = Database.open(DatabaseConfig.builder(cloud, "db/shop").build())) {
      db.admin().checkpointAll();
      List<Book> stored =
          db.read(tx -> books.scan(tx, io.stratus.core.KeyRange.all())).stream()
              .map(TypedCollection.Entry::value)
              .collect(Collectors.toList());
      assertThat(stored).containsExactly(new Book("Dune", 999));
    }
    assertThat(readme()).as("the README shows the example as it runs here").contains(snippet());
  }

  /** The lines between the markers of this file, without their common indentation. */
  private static String snippet() throws IOException {
    List<String> lines =
        Files.readAllLines(
            Path.of("src/test/java/io/stratus/codec/jackson/ReadmeExampleTest.java"));
    int from = -1;
    int to = -1;
    for (int i = 0; i < lines.size(); i++) {
      String t = lines.get(i).trim();
      if (t.equals(BEGIN)) {
        from = i + 1;
      } else if (t.equals(END)) {
        to = i;
      }
    }
    List<String> body = lines.subList(from, to);
    int indent =
        body.stream()
            .filter(l -> !l.isBlank())
            .mapToInt(l -> l.length() - l.stripLeading().length())
            .min()
            .orElse(0);
    return body.stream()
        .map(l -> l.isBlank() ? "" : l.substring(indent))
        .collect(Collectors.joining("\n"));
  }

  private static String readme() throws IOException {
    return Files.readString(Path.of("../README.md"));
  }
}
