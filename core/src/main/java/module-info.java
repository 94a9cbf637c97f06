/**
 * The Stratus database: the handle, its configuration, transactions, typed collections and codecs,
 * queries, and the operator calls.
 */
module io.stratus.core {
  requires transitive io.stratus.api;
  requires transitive io.stratus.cloudapi;
  requires transitive io.stratus.protocols;
  requires io.stratus.pagemanager;
  requires io.stratus.btree;

  exports io.stratus.core;
  exports io.stratus.core.query;
}
