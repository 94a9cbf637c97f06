/** Transaction histories and checkers of each protocol's guarantees, for tests. */
module io.stratus.testkit {
  requires static transitive org.jspecify;

  exports io.stratus.testkit;
}
