/**
 * The record manager (paper 000, section 3.2) and the public API of Stratus: the database handle,
 * its catalog, collections, secondary indexes, transactions, typed views and sequences.
 * Applications use {@link io.stratus.core.Database#open} and what it returns; the other classes
 * here are package-private.
 *
 * <pre>{@code
 * record Book(String title, long priceCents) {}
 * TypedCollection<Book> books = TypedCollection.of("books", JacksonCodec.of(Book.class));
 * try (Database db = Database.open(DatabaseConfig.builder(cloud, "db/shop").build())) {
 *   db.createCollection("books");                      // idempotent, at start-up
 *   long id = db.sequence("bookIds").next();
 *   db.run(tx -> books.put(tx, Key.of(id), new Book("Dune", 999)));   // retried while safe
 *   Optional<Book> b = db.read(tx -> books.get(tx, Key.of(id)));
 * }
 * }</pre>
 *
 * <h2>Commit protocols</h2>
 *
 * Chosen per database with {@link io.stratus.core.DatabaseConfig.Builder#protocol} (every client
 * of one database uses the same); what each promises is {@link
 * io.stratus.protocols.ProtocolKind#guarantees()}:
 *
 * <ul>
 *   <li><b>monotonic</b> (the default): commit sends log records to pending-update queues in
 *       about one queue round trip; checkpoints apply them. Durable and converging, with
 *       monotonic writes and reads and read-your-writes;
 *   <li><b>basic</b> (paper 000, section 4): the same queues without ordering per writer or
 *       read-your-writes;
 *   <li><b>atomic</b> (section 5.1): monotonic's guarantees, and a transaction becomes visible
 *       whole or not at all;
 *   <li><b>naive</b>: the papers' baseline, for comparison: commit writes the pages, and
 *       concurrent clients lose each other's updates on shared pages.
 * </ul>
 *
 * No protocol isolates concurrent transactions yet: two transactions that read and write the
 * same record both commit. {@link io.stratus.core.DatabaseAdmin#checkpointAll()} applies what is
 * pending now (an operator call). See {@code docs/protocols.md} and {@code docs/using.md}.
 *
 * <h2>Public types</h2>
 *
 * {@link io.stratus.core.Database} ({@code run}, {@code read}, {@code begin}, {@code sequence}),
 * {@link io.stratus.core.DatabaseConfig} and {@link io.stratus.core.DatabaseProperties}, {@link
 * io.stratus.core.Transaction}, {@link io.stratus.core.TransactionFunction}, {@link
 * io.stratus.core.RetryPolicy}, {@link io.stratus.core.TypedCollection} with {@link
 * io.stratus.core.Codec}, {@link io.stratus.core.Sequence}, {@link io.stratus.core.Key} (with
 * {@link io.stratus.core.KeyBuilder} and {@link io.stratus.core.KeyDecoder}), {@link
 * io.stratus.core.KeyRange}, {@link io.stratus.core.Record}, {@link
 * io.stratus.core.RecordCursor}, {@link io.stratus.core.IndexKeyExtractor}, {@link
 * io.stratus.core.DatabaseStats}.
 *
 * <h2>Exceptions</h2>
 *
 * Every exception a database call throws is a {@link io.stratus.StratusException} from package
 * {@code io.stratus}, which tells the caller what to do ({@code isRetryable()}, {@code
 * isOutcomeUnknown()}):
 *
 * <pre>
 * StratusException (unchecked)
 * ├─ CommitFailedException          nothing visible happened; re-run the transaction if retryable
 * ├─ CommitStateUnknownException    the commit may have happened; read before acting
 * ├─ CloudServiceException          a cloud service failed under the call (cause: its exception)
 * ├─ StalePageException             storage lags behind a write this client knows of; retryable
 * ├─ CorruptPageException           a stored page failed its checks; nothing of it was used
 * ├─ CorruptLogMessageException     a queued log record failed its checks; it was not applied
 * ├─ CodecException                 a codec could not encode or decode a value
 * └─ InvalidRequestException        the request is wrong; repeating it fails again
 *    ├─ InvalidConfigurationException  a setting is out of range or not for the protocol
 *    ├─ NoSuchCollectionException   retryable where storage reads lag (created moments ago?)
 *    ├─ NoSuchIndexException
 *    ├─ DuplicateKeyException       create of a key that exists
 *    ├─ RecordTooLargeException     record or index entry does not fit a page; nothing changed
 *    ├─ IndexNotAttachedException   write to a collection with an index lacking its extractor
 *    ├─ ConcurrentTransactionUseException  two threads inside one transaction at once
 *    ├─ TransactionClosedException  call on a committed, aborted or closed transaction
 *    └─ DatabaseClosedException     call on a closed handle or a transaction it began
 * </pre>
 *
 * Failures of the cloud services are translated where they leave the record manager: commits end
 * with the two commit exceptions, everything else with {@link io.stratus.CloudServiceException}.
 */
package io.stratus.core;
