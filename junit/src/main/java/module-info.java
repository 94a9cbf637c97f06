/** {@code @StratusTest}: a JUnit 5 extension that gives each test an in-process database. */
module io.stratus.junit {
  requires transitive io.stratus.core;
  requires transitive org.junit.jupiter.api;

  exports io.stratus.junit;
}
