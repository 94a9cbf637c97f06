/** Transaction histories and checkers of each protocol's guarantees, for tests. */
module io.stratus.testkit {
  exports io.stratus.testkit;
}
