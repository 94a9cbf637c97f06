package io.stratus.cloudapi;

import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletableFuture;

/**
 * An index service (the papers' SimpleDB role, paper 000 section 2.2.4; DynamoDB today): named
 * items with string attributes in domains, and ordered, paged range queries over one attribute.
 * A secondary index maps onto it as one item per entry: the item name is the record's primary key,
 * an attribute the index key, both in a sortable encoding ({@link IndexKeys}).
 *
 * <p>Guarantees every implementation MUST give:
 *
 * <ul>
 *   <li><b>Durability and atomic items.</b> A put whose future completed normally is never lost;
 *       only a later put or delete of the same item name replaces it. A put replaces all the
 *       item's attributes at once: a get or a query returns the attributes of exactly one put.
 *   <li><b>Read-after-write for items.</b> A {@link #get} that starts after a put or delete
 *       completed reflects it.
 *   <li><b>Queries.</b> A query returns the items of the domain that have the query's attribute
 *       with a value in its range, ordered by the value in UTF-8 byte order and, among equal
 *       values, by item name ({@link IndexQuery.Order}), at most the query's limit per page. A
 *       page MAY hold fewer items than the limit although more follow; then, and whenever more
 *       items of the range follow, it carries a continuation token. Continuing with the token
 *       returns the items strictly after the page's last item in the query's order, so an item
 *       that is in the range and unchanged during the whole walk is returned exactly once, and
 *       items written during the walk appear when they sort after the position reached.
 *   <li><b>Consistency of queries.</b> Either strong (a query that starts after a put or delete
 *       completed reflects it) or eventual: for a bounded time after a write a query may still
 *       answer from the state before it, and later queries reflect it. Every page reflects whole
 *       puts, never half of one. {@link #isStronglyConsistent()} says which.
 *   <li><b>Idempotence.</b> Put, delete and their batches may be repeated: repeating a put of the
 *       same item, or a delete of a deleted item, leaves the same state and succeeds.
 *   <li><b>Domains.</b> A domain exists from its {@link #createDomain} until its {@link
 *       #deleteDomain}; every other call on a domain that does not exist fails with {@link
 *       NotFoundException}. Queries may use only the attributes named when the domain was
 *       created; another attribute fails with {@link BadRequestException}.
 *   <li><b>Limits.</b> A request that breaks the service's {@link #limits()} MUST fail with {@link
 *       LimitExceededException} (a size or count) or {@link BadRequestException} (a malformed
 *       name, value or token) and have no effect.
 *   <li><b>Failures</b> use the {@link CloudException} hierarchy only: a throttled request fails
 *       with {@link ServiceUnavailableException} and had no effect; a lost reply with {@link
 *       OutcomeUnknownException}; a batch that failed part-way with {@link
 *       OutcomeUnknownException} (some entries may be written: repeat the batch).
 * </ul>
 *
 * <p>What is <em>not</em> promised: atomicity of a batch or across items, an order of items
 * beyond the one above, and that an item whose value changes during a paged walk is returned once
 * (it may be returned at its old and its new place, or at neither). Implementations MUST be
 * thread-safe.
 */
public interface IndexService extends AutoCloseable {

  /**
   * Creates a domain whose items may be queried by {@code queryAttributes} (at most {@link
   * IndexLimits#maxQueryAttributes()}). Succeeds when the domain exists with the same query
   * attributes; fails with {@link BadRequestException} when it exists with others.
   */
  CompletableFuture<Void> createDomain(String domain, Set<String> queryAttributes);

  /** Deletes the domain and its items; succeeds when it does not exist. */
  CompletableFuture<Void> deleteDomain(String domain);

  /** Stores {@code item}, replacing every attribute of an item of the same name. */
  CompletableFuture<Void> put(String domain, IndexItem item);

  /**
   * Stores up to {@link IndexLimits#maxBatchSize()} items of distinct names, each as {@link #put}
   * would, in as few requests as the service allows. Not atomic: when the future fails with
   * {@link OutcomeUnknownException}, any of the items may be stored.
   */
  CompletableFuture<Void> putBatch(String domain, List<IndexItem> items);

  /** Reads the item named {@code itemName}, or empty when there is none. */
  CompletableFuture<Optional<IndexItem>> get(String domain, String itemName);

  /** Deletes the item named {@code itemName}; succeeds when there is none. */
  CompletableFuture<Void> delete(String domain, String itemName);

  /**
   * Deletes up to {@link IndexLimits#maxBatchSize()} items of distinct names, each as {@link
   * #delete} would. Not atomic, as {@link #putBatch}.
   */
  CompletableFuture<Void> deleteBatch(String domain, List<String> itemNames);

  /** One page of the items {@code query} selects (see the class comment); one request per page. */
  CompletableFuture<IndexPage> query(String domain, IndexQuery query);

  /** Whether queries reflect every completed write at once (see the class comment). */
  boolean isStronglyConsistent();

  /** The limits this service enforces. */
  IndexLimits limits();

  /** Releases client resources (connections, threads). The default holds none. */
  @Override
  default void close() {}
}
