/** A record codec that stores values as JSON through Jackson. */
module io.stratus.codec.jackson {
  requires transitive io.stratus.core;
  requires transitive com.fasterxml.jackson.databind;

  exports io.stratus.codec.jackson;
}
