/**
 * Page format, TTL buffer pool and page writer. Internal: exported only to the Stratus modules
 * built on it.
 */
// "module": the modules named in the exports are compiled after this one;
// "requires-automatic": protobuf names its module only in its manifest.
@SuppressWarnings({"module", "requires-automatic"})
module io.stratus.pagemanager {
  requires transitive io.stratus.api;
  requires transitive io.stratus.cloudapi;
  requires com.google.protobuf;

  exports io.stratus.pagemanager to
      io.stratus.btree,
      io.stratus.protocols,
      io.stratus.core;
}
