package io.stratus.codec.protobuf;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.google.protobuf.Struct;
import com.google.protobuf.Value;
import io.stratus.CodecException;
import io.stratus.cloudapi.inprocess.InProcessCloud;
import io.stratus.core.Database;
import io.stratus.core.DatabaseConfig;
import io.stratus.core.Key;
import io.stratus.core.TypedCollection;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class ProtobufCodecTest {
  private static final ProtobufCodec<Struct> CODEC = ProtobufCodec.of(Struct.getDefaultInstance());

  private static Struct book(String title, double price) {
    return Struct.newBuilder()
        .putFields("title", Value.newBuilder().setStringValue(title).build())
        .putFields("price", Value.newBuilder().setNumberValue(price).build())
        .build();
  }

  @Test
  void messagesRoundTripThroughADatabase() {
    try (Database db =
        Database.open(
            DatabaseConfig.builder(InProcessCloud.create().services(), "db/shop").build())) {
      db.createCollection("books");
      TypedCollection<Struct> books = TypedCollection.of("books", CODEC);
      db.run(tx -> books.put(tx, Key.of(1L), book("Dune", 9.5)));
      Optional<Struct> back = db.read(tx -> books.get(tx, Key.of(1L)));
      assertThat(back).contains(book("Dune", 9.5));
    }
  }

  @Test
  void aPayloadThatIsNoMessageOfTheTypeIsACodecError() {
    assertThatThrownBy(() -> CODEC.decode(new byte[] {(byte) 0xff, 0x01}))
        .isInstanceOf(CodecException.class)
        .hasMessageContaining("google.protobuf.Struct");
  }
}
