/** A Micrometer binder of a database handle's counters and its cloud requests and cost. */
@SuppressWarnings({
  "requires-automatic",
  "requires-transitive-automatic"
}) // Micrometer names its module in its manifest
module io.stratus.micrometer {
  requires transitive io.stratus.core;
  requires transitive micrometer.core;

  exports io.stratus.micrometer;
}
