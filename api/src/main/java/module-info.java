/**
 * The exceptions every Stratus layer throws, under one root ({@link io.stratus.StratusException}),
 * and the reports operator calls return.
 */
module io.stratus.api {
  exports io.stratus;
}
