/**
 * The exceptions every Stratus layer throws, under one root ({@link io.stratus.StratusException}),
 * and the reports operator calls return.
 */
module io.stratus.api {
  requires static transitive org.jspecify;

  exports io.stratus;
}
