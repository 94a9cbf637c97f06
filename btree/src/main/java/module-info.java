/** Client-side B-link trees. Internal: exported only to the Stratus modules built on it. */
@SuppressWarnings("module") // the modules named in the exports are compiled after this one
module io.stratus.btree {
  requires transitive io.stratus.pagemanager;

  exports io.stratus.btree to
      io.stratus.protocols,
      io.stratus.core;
}
