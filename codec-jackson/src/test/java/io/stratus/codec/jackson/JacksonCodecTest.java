package io.stratus.codec.jackson;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.stratus.CodecException;
import io.stratus.cloudapi.inprocess.InProcessCloud;
import io.stratus.core.Database;
import io.stratus.core.DatabaseConfig;
import io.stratus.core.Key;
import io.stratus.core.TypedCollection;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class JacksonCodecTest {
  record Book(String title, int price, List<String> authors) {}

  @Test
  void recordsRoundTripThroughADatabaseAsJson() {
    JacksonCodec<Book> codec = JacksonCodec.of(Book.class);
    try (Database db =
        Database.open(
            DatabaseConfig.builder(InProcessCloud.create().services(), "db/shop").build())) {
      db.createCollection("books");
      TypedCollection<Book> books = TypedCollection.of("books", codec);
      Book dune = new Book("Dune", 10, List.of("Frank Herbert"));
      db.run(tx -> books.put(tx, Key.of(1L), dune));
      Optional<Book> back = db.read(tx -> books.get(tx, Key.of(1L)));
      assertThat(back).contains(dune);
      Optional<byte[]> raw = db.read(tx -> tx.read("books", Key.of(1L)));
      assertThat(new String(raw.orElseThrow(), StandardCharsets.UTF_8))
          .contains("\"title\":\"Dune\"");
    }
  }

  @Test
  void genericTypesAndBadPayloads() {
    JacksonCodec<List<Integer>> ints =
        JacksonCodec.of(new ObjectMapper(), new TypeReference<List<Integer>>() {});
    assertThat(ints.decode(ints.encode(List.of(1, 2, 3)))).containsExactly(1, 2, 3);
    assertThatThrownBy(() -> ints.decode("{not json".getBytes(StandardCharsets.UTF_8)))
        .isInstanceOf(CodecException.class)
        .hasMessageContaining("not a JSON");
  }
}
