/**
 * The Cloud API: the service interfaces a database is built on, the in-process cloud, the
 * decorators (metering, latency, faults), the schedulers and clocks, and client-side encryption.
 * Every package is for users: an application picks, wraps or implements the services it runs on.
 */
module io.stratus.cloudapi {
  requires static transitive org.jspecify;

  exports io.stratus.cloudapi;
  exports io.stratus.cloudapi.crypto;
  exports io.stratus.cloudapi.decorate;
  exports io.stratus.cloudapi.inprocess;
  exports io.stratus.cloudapi.time;
}
