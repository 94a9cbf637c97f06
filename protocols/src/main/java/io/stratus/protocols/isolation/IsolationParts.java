package io.stratus.protocols.isolation;

import io.stratus.protocols.IsolationSettings;
import io.stratus.protocols.ProtocolContext;
import io.stratus.protocols.TransactionInfo;

/**
 * What the isolating engine hands a {@link ReadStrategy} when it assembles a protocol: the shared
 * parts, made once per handle. The strategy uses them; the engine owns and closes them.
 *
 * @param context the handle's protocol context
 * @param archive the per-tree archive of committed records
 * @param memo the handle's memo of pages rebuilt as of a snapshot
 * @param ids the commit-id counter: bases, ids, what the handle must see
 * @param locks the record locks: names and owners
 * @param commits the durable half of a commit
 * @param validation what a commit is checked by once it holds its commit id
 */
record IsolationParts(
    ProtocolContext context,
    SnapshotArchive archive,
    SnapshotView.Memo memo,
    CommitIds ids,
    RecordLocks locks,
    DurableCommit commits,
    Validation validation) {

  IsolationSettings settings() {
    return context.isolation();
  }

  /** The deadline of {@code info}'s transaction, begun now. */
  TransactionDeadline deadlineOf(TransactionInfo info) {
    return new TransactionDeadline(context.clock(), info, settings().transactionTimeout());
  }
}
