/**
 * The commit protocols, checkpoints and log records. The engine, the log and each protocol's
 * package stay inside the module. {@code io.stratus.protocols} is exported to all: the database's
 * configuration names types of it ({@code ProtocolKind}, {@code CheckpointWrites}, {@code
 * IsolationSettings}, {@code CheckpointSettings}).
 */
@SuppressWarnings("requires-automatic") // protobuf names its module only in its manifest
module io.stratus.protocols {
  requires transitive io.stratus.api;
  requires transitive io.stratus.cloudapi;
  requires io.stratus.pagemanager;
  requires io.stratus.btree;
  requires com.google.protobuf;

  exports io.stratus.protocols;
}
