/** A record codec that stores protobuf messages. */
@SuppressWarnings({
  "requires-automatic",
  "requires-transitive-automatic"
}) // protobuf names its module in its manifest
module io.stratus.codec.protobuf {
  requires transitive io.stratus.core;
  requires transitive com.google.protobuf;

  exports io.stratus.codec.protobuf;
}
