/**
 * The record manager (paper 000, section 3.2): the database handle, its catalog, collections,
 * secondary indexes and transactions. Applications use {@link io.stratus.core.Database#open} and
 * what it returns; everything else here is package-private.
 *
 * <pre>{@code
 * try (Database db = Database.open(DatabaseConfig.builder(cloud, "db/shop")
 *         .indexExtractor("orders", "byCustomer", (key, payload) -> Optional.of(customerOf(payload)))
 *         .build())) {
 *   db.createCollection("orders");
 *   try (Transaction tx = db.begin()) {
 *     tx.create("orders", Key.of(orderId), payload);
 *     tx.commit();
 *   }
 * }
 * }</pre>
 *
 * <h2>Commit protocols</h2>
 *
 * Chosen per database with {@link io.stratus.core.DatabaseConfig.Builder#protocol}:
 * <b>naive</b> (the default, the papers' baseline: commit writes the pages; concurrent clients
 * lose each other's updates on shared pages) or <b>basic</b> (paper 000, section 4: commit sends
 * log records to pending-update queues in about one queue round trip and writes no page;
 * checkpoints, run on the checkpoint executor when writers or readers find a page or tree not
 * checkpointed for the checkpoint interval, apply them). Under basic every committed record is
 * durable and eventually visible to all clients, including the writer (no read-your-writes before
 * its checkpoint), and a commit that fails part-way may be applied in part (no atomicity). {@link
 * io.stratus.core.Database#checkpointAll()} applies everything pending now (an operator call).
 * See {@code docs/protocols.md}.
 *
 * <h2>Public types</h2>
 *
 * {@link io.stratus.core.Database}, {@link io.stratus.core.DatabaseConfig}, {@link
 * io.stratus.core.Transaction}, {@link io.stratus.core.Key} (with {@link
 * io.stratus.core.KeyBuilder} and {@link io.stratus.core.KeyDecoder}), {@link
 * io.stratus.core.KeyRange}, {@link io.stratus.core.Record}, {@link io.stratus.core.RecordCursor},
 * {@link io.stratus.core.IndexKeyExtractor}, {@link io.stratus.core.DatabaseStats}.
 *
 * <h2>Exceptions</h2>
 *
 * All Stratus exceptions live in package {@code io.stratus} (whichever module defines them), so
 * an application imports one package and can tell from the type what to do:
 *
 * <pre>
 * StratusException (unchecked; isRetryable())
 * ├─ CommitFailedException          nothing visible happened; re-run the transaction if retryable
 * ├─ CommitStateUnknownException    the commit may have happened; read before acting
 * ├─ CorruptPageException           a stored page failed its checksum; nothing of it was used
 * └─ InvalidRequestException        the request is wrong; repeating it fails again
 *    ├─ NoSuchCollectionException
 *    ├─ NoSuchIndexException
 *    ├─ DuplicateKeyException       create of a key that exists
 *    ├─ RecordTooLargeException     record or index entry does not fit a page; nothing changed
 *    ├─ IndexNotAttachedException   write to a collection with an index lacking its extractor
 *    └─ TransactionClosedException  call on a committed, aborted or closed transaction
 * </pre>
 *
 * Failures of the cloud services that the record manager does not translate (a storage read that
 * fails during a read) surface as {@link io.stratus.cloudapi.CloudException}, whose subtypes say
 * the same things (retryable, outcome unknown, bad request). Builder settings out of range are
 * {@link IllegalArgumentException}s; using a closed database handle is an {@link
 * IllegalStateException}.
 */
package io.stratus.core;
