package io.stratus.aws;

import io.stratus.cloudapi.BadRequestException;
import io.stratus.cloudapi.CloudException;
import io.stratus.cloudapi.IndexItem;
import io.stratus.cloudapi.IndexLimits;
import io.stratus.cloudapi.IndexPage;
import io.stratus.cloudapi.IndexQuery;
import io.stratus.cloudapi.IndexService;
import io.stratus.cloudapi.IndexSortKeys;
import io.stratus.cloudapi.NotFoundException;
import io.stratus.cloudapi.OutcomeUnknownException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import software.amazon.awssdk.awscore.exception.AwsServiceException;
import software.amazon.awssdk.services.dynamodb.DynamoDbAsyncClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeDefinition;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.BatchWriteItemResponse;
import software.amazon.awssdk.services.dynamodb.model.BillingMode;
import software.amazon.awssdk.services.dynamodb.model.CreateTableRequest;
import software.amazon.awssdk.services.dynamodb.model.GlobalSecondaryIndex;
import software.amazon.awssdk.services.dynamodb.model.GlobalSecondaryIndexDescription;
import software.amazon.awssdk.services.dynamodb.model.KeySchemaElement;
import software.amazon.awssdk.services.dynamodb.model.KeyType;
import software.amazon.awssdk.services.dynamodb.model.ProjectionType;
import software.amazon.awssdk.services.dynamodb.model.QueryRequest;
import software.amazon.awssdk.services.dynamodb.model.ScalarAttributeType;
import software.amazon.awssdk.services.dynamodb.model.TableDescription;
import software.amazon.awssdk.services.dynamodb.model.TableStatus;
import software.amazon.awssdk.services.dynamodb.model.WriteRequest;

/**
 * The index service on DynamoDB: one table per domain, and one global secondary index (GSI) per
 * query attribute.
 *
 * <p>Table design, and why (docs/cloud-api.md has the costs):
 *
 * <ul>
 *   <li>The table's partition key {@value #NAME} is the item name, so put, get and delete are one
 *       request on one item, and a put replaces the whole item, as the contract asks.
 *   <li>Each attribute {@code A} is stored as {@code "a." + A} holding the sort key of the
 *       contract's order ({@link IndexSortKeys}: value, U+0001, item name); get and query strip
 *       the item name again. Storing the item name inside the value makes DynamoDB's order of the
 *       GSI (sort key in UTF-8 byte order) exactly the contract's order, ties included, and makes
 *       a continuation token independent of DynamoDB's paging keys.
 *   <li>The GSI {@code "q." + A} has partition key {@value #BUCKET} (one value for every item) and
 *       sort key {@code "a." + A}, and projects every attribute: a query page is one Query
 *       request, never a Scan and never followed by reads of the items. One partition value per
 *       GSI keeps the whole index in one ordered range; it also bounds its throughput (about
 *       1,000 written items per second per GSI), beyond which DynamoDB throttles. An item without
 *       the attribute is not in that GSI (a sparse index), so it costs nothing there.
 *   <li>Tables are on-demand (PAY_PER_REQUEST): no capacity to plan, billed per request unit.
 * </ul>
 *
 * <p>Consistency: gets read strongly consistently; a GSI is updated asynchronously, so queries are
 * eventually consistent ({@link #isStronglyConsistent()} is false). Batches go through
 * BatchWriteItem; items it leaves unprocessed (when throttled) are sent again a few times with a
 * growing pause, after which the batch fails with {@link OutcomeUnknownException}.
 *
 * <p>Thread-safe; every call is asynchronous on the shared SDK client.
 */
final class DynamoIndex implements IndexService {
  /** The table's partition key: the item name. */
  static final String NAME = "n";

  /** The partition key of every GSI: one bucket for the whole domain. */
  static final String BUCKET = "b";

  /** The one bucket value. */
  static final String THE_BUCKET = "0";

  /** Prefix of the DynamoDB attribute that stores an item attribute's sort key. */
  static final String ATTRIBUTE = "a.";

  /** Prefix of the GSI of a query attribute. */
  static final String QUERY_INDEX = "q.";

  /** Times BatchWriteItem's unprocessed items are sent again before the batch fails. */
  private static final int BATCH_RESENDS = 5;

  private static final Duration FIRST_RESEND_PAUSE = Duration.ofMillis(50);

  private final DynamoDbAsyncClient dynamo;
  private final String tablePrefix;
  private final IndexLimits limits;

  DynamoIndex(DynamoDbAsyncClient dynamo, String tablePrefix, IndexLimits limits) {
    this.dynamo = dynamo;
    this.tablePrefix = tablePrefix;
    this.limits = limits;
  }

  @Override
  public CompletableFuture<Void> createDomain(String domain, Set<String> queryAttributes) {
    return checked(
        () -> {
          limits.checkDomain(domain);
          limits.checkQueryAttributes(queryAttributes);
          String table = table(domain);
          String what = "create index domain " + domain + " (table " + table + ")";
          CompletableFuture<Optional<TableDescription>> created =
              dynamo
                  .createTable(createTable(table, queryAttributes))
                  .thenApply(r -> Optional.of(r.tableDescription()));
          return AwsErrors.<Optional<TableDescription>>recover(
                  created,
                  what,
                  true,
                  (t, e) ->
                      "ResourceInUseException".equals(AwsErrors.errorCode(e))
                          ? Optional.empty()
                          : null)
              .thenCompose(
                  made ->
                      made.isPresent()
                          ? awaitActive(table, made.get(), what)
                          : AwsErrors.guard(
                                  what, false, () -> dynamo.describeTable(r -> r.tableName(table)))
                              .thenCompose(
                                  d -> {
                                    Set<String> existing = queryAttributes(d.table());
                                    if (!existing.equals(new TreeSet<>(queryAttributes))) {
                                      throw new BadRequestException(
                                          "domain "
                                              + domain
                                              + " exists with query attributes "
                                              + existing
                                              + ", not "
                                              + new TreeSet<>(queryAttributes)
                                              + "; delete it first or use another name");
                                    }
                                    return awaitActive(table, d.table(), what);
                                  }));
        });
  }

  @Override
  public CompletableFuture<Void> deleteDomain(String domain) {
    return checked(
        () -> {
          limits.checkDomain(domain);
          String table = table(domain);
          String what = "delete index domain " + domain + " (table " + table + ")";
          CompletableFuture<Boolean> deleted =
              dynamo.deleteTable(r -> r.tableName(table)).thenApply(r -> Boolean.TRUE);
          return AwsErrors.recover(
                  deleted,
                  what,
                  true,
                  (t, e) ->
                      "ResourceNotFoundException".equals(AwsErrors.errorCode(e))
                          ? Boolean.FALSE
                          : null)
              .thenCompose(
                  wasThere ->
                      wasThere
                          ? AwsErrors.guard(
                                  what,
                                  true,
                                  () ->
                                      dynamo
                                          .waiter()
                                          .waitUntilTableNotExists(r -> r.tableName(table)))
                              .thenApply(w -> (Void) null)
                          : CompletableFuture.completedFuture(null));
        });
  }

  @Override
  public CompletableFuture<Void> put(String domain, IndexItem item) {
    return checked(
        () -> {
          limits.checkDomain(domain);
          limits.checkItem(item);
          String table = table(domain);
          return onDomain(
                  domain,
                  "put item into index domain " + domain,
                  true,
                  () -> dynamo.putItem(r -> r.tableName(table).item(toDynamo(item))))
              .thenApply(r -> null);
        });
  }

  @Override
  public CompletableFuture<Void> putBatch(String domain, List<IndexItem> items) {
    return checked(
        () -> {
          limits.checkDomain(domain);
          limits.checkItemBatch(items);
          List<WriteRequest> writes = new ArrayList<>();
          for (IndexItem item : items) {
            writes.add(WriteRequest.builder().putRequest(p -> p.item(toDynamo(item))).build());
          }
          return writeBatch(domain, writes, "put a batch into index domain " + domain);
        });
  }

  @Override
  public CompletableFuture<Optional<IndexItem>> get(String domain, String itemName) {
    return checked(
        () -> {
          limits.checkDomain(domain);
          limits.checkItemName(itemName);
          String table = table(domain);
          return onDomain(
                  domain,
                  "get item from index domain " + domain,
                  false,
                  () ->
                      dynamo.getItem(
                          r -> r.tableName(table).key(key(itemName)).consistentRead(true)))
              .thenApply(r -> r.hasItem() ? Optional.of(fromDynamo(r.item())) : Optional.empty());
        });
  }

  @Override
  public CompletableFuture<Void> delete(String domain, String itemName) {
    return checked(
        () -> {
          limits.checkDomain(domain);
          limits.checkItemName(itemName);
          String table = table(domain);
          return onDomain(
                  domain,
                  "delete item from index domain " + domain,
                  true,
                  () -> dynamo.deleteItem(r -> r.tableName(table).key(key(itemName))))
              .thenApply(r -> null);
        });
  }

  @Override
  public CompletableFuture<Void> deleteBatch(String domain, List<String> itemNames) {
    return checked(
        () -> {
          limits.checkDomain(domain);
          limits.checkNameBatch(itemNames);
          List<WriteRequest> writes = new ArrayList<>();
          for (String name : itemNames) {
            writes.add(WriteRequest.builder().deleteRequest(d -> d.key(key(name))).build());
          }
          return writeBatch(domain, writes, "delete a batch from index domain " + domain);
        });
  }

  @Override
  public CompletableFuture<IndexPage> query(String domain, IndexQuery query) {
    return checked(
        () -> {
          limits.checkDomain(domain);
          limits.checkQuery(query);
          if (IndexSortKeys.isEmptyRange(query)) {
            return CompletableFuture.completedFuture(new IndexPage(List.of(), Optional.empty()));
          }
          String attribute = ATTRIBUTE + query.attribute();
          String table = table(domain);
          QueryRequest request = queryRequest(table, attribute, query);
          String what = "query attribute " + query.attribute() + " of index domain " + domain;
          return onDomain(domain, what, false, () -> dynamo.query(request))
              .exceptionallyCompose(t -> notQueryable(domain, table, query.attribute(), what, t))
              .thenApply(
                  r -> {
                    List<IndexItem> items = new ArrayList<>(r.items().size());
                    for (Map<String, AttributeValue> it : r.items()) {
                      items.add(fromDynamo(it));
                    }
                    Optional<String> next =
                        r.hasLastEvaluatedKey() && !r.lastEvaluatedKey().isEmpty()
                            ? Optional.of(
                                IndexSortKeys.token(stringOf(r.lastEvaluatedKey(), attribute)))
                            : Optional.empty();
                    return new IndexPage(items, next);
                  });
        });
  }

  /**
   * Tells a query of an attribute without a GSI from one of a missing domain: DynamoDB answers
   * ValidationException for a missing index (a local server may answer ResourceNotFoundException
   * for both), so on either failure one DescribeTable tells which it is.
   */
  private CompletableFuture<software.amazon.awssdk.services.dynamodb.model.QueryResponse>
      notQueryable(String domain, String table, String attribute, String what, Throwable t) {
    Throwable c = io.stratus.cloudapi.CloudFutures.unwrap(t);
    boolean missingIndex =
        c instanceof BadRequestException
            && String.valueOf(c.getMessage()).contains("specified index");
    if (!(c instanceof NotFoundException) && !missingIndex) {
      return CompletableFuture.failedFuture(c);
    }
    return onDomain(domain, what, false, () -> dynamo.describeTable(r -> r.tableName(table)))
        .thenApply(
            d -> {
              throw new BadRequestException(
                  "attribute "
                      + attribute
                      + " of domain "
                      + domain
                      + " is not queryable (the domain was created with query attributes "
                      + queryAttributes(d.table())
                      + "); create the domain with it to query it");
            });
  }

  /** Queries read a GSI, which DynamoDB updates asynchronously. */
  @Override
  public boolean isStronglyConsistent() {
    return false;
  }

  @Override
  public IndexLimits limits() {
    return limits;
  }

  @Override
  public String toString() {
    return "DynamoIndex{tables " + tablePrefix + "*}";
  }

  // ---- requests ----

  String table(String domain) {
    return tablePrefix + domain;
  }

  private static CreateTableRequest createTable(String table, Set<String> queryAttributes) {
    List<AttributeDefinition> definitions = new ArrayList<>();
    definitions.add(definition(NAME));
    List<GlobalSecondaryIndex> indexes = new ArrayList<>();
    for (String a : new TreeSet<>(queryAttributes)) {
      definitions.add(definition(ATTRIBUTE + a));
      indexes.add(
          GlobalSecondaryIndex.builder()
              .indexName(QUERY_INDEX + a)
              .keySchema(keyElement(BUCKET, KeyType.HASH), keyElement(ATTRIBUTE + a, KeyType.RANGE))
              .projection(p -> p.projectionType(ProjectionType.ALL))
              .build());
    }
    if (!indexes.isEmpty()) {
      definitions.add(definition(BUCKET));
    }
    CreateTableRequest.Builder b =
        CreateTableRequest.builder()
            .tableName(table)
            .billingMode(BillingMode.PAY_PER_REQUEST)
            .keySchema(keyElement(NAME, KeyType.HASH))
            .attributeDefinitions(definitions);
    if (!indexes.isEmpty()) {
      b.globalSecondaryIndexes(indexes);
    }
    return b.build();
  }

  private static AttributeDefinition definition(String name) {
    return AttributeDefinition.builder()
        .attributeName(name)
        .attributeType(ScalarAttributeType.S)
        .build();
  }

  private static KeySchemaElement keyElement(String name, KeyType type) {
    return KeySchemaElement.builder().attributeName(name).keyType(type).build();
  }

  /** The query attributes a table was made with, from its GSIs' names. */
  private static Set<String> queryAttributes(TableDescription d) {
    Set<String> attributes = new TreeSet<>();
    if (d.hasGlobalSecondaryIndexes()) {
      for (GlobalSecondaryIndexDescription g : d.globalSecondaryIndexes()) {
        if (g.indexName().startsWith(QUERY_INDEX)) {
          attributes.add(g.indexName().substring(QUERY_INDEX.length()));
        }
      }
    }
    return attributes;
  }

  /** Waits until a new table can take requests (at once on most local servers). */
  private CompletableFuture<Void> awaitActive(String table, TableDescription d, String what) {
    if (d.tableStatus() == TableStatus.ACTIVE) {
      return CompletableFuture.completedFuture(null);
    }
    return AwsErrors.guard(
            what, true, () -> dynamo.waiter().waitUntilTableExists(r -> r.tableName(table)))
        .thenApply(w -> null);
  }

  /**
   * The Query of one page: the GSI of the attribute, the bucket, the range of sort keys as one
   * key condition (both bounds inclusive, as {@link IndexSortKeys} gives them), the order, the
   * limit and where to start.
   */
  static QueryRequest queryRequest(String table, String attribute, IndexQuery query) {
    Map<String, String> names = new HashMap<>();
    Map<String, AttributeValue> values = new HashMap<>();
    names.put("#b", BUCKET);
    values.put(":b", string(THE_BUCKET));
    StringBuilder condition = new StringBuilder("#b = :b");
    Optional<String> lo = IndexSortKeys.lowest(query);
    Optional<String> hi = IndexSortKeys.highest(query);
    if (lo.isPresent() || hi.isPresent()) {
      names.put("#s", attribute);
    }
    if (lo.isPresent() && hi.isPresent()) {
      condition.append(" AND #s BETWEEN :lo AND :hi");
      values.put(":lo", string(lo.get()));
      values.put(":hi", string(hi.get()));
    } else if (lo.isPresent()) {
      condition.append(" AND #s >= :lo");
      values.put(":lo", string(lo.get()));
    } else if (hi.isPresent()) {
      condition.append(" AND #s <= :hi");
      values.put(":hi", string(hi.get()));
    }
    QueryRequest.Builder b =
        QueryRequest.builder()
            .tableName(table)
            .indexName(QUERY_INDEX + query.attribute())
            .keyConditionExpression(condition.toString())
            .expressionAttributeNames(names)
            .expressionAttributeValues(values)
            .scanIndexForward(query.order() == IndexQuery.Order.ASCENDING)
            .limit(query.limit());
    if (query.continuation().isPresent()) {
      String after = IndexSortKeys.fromToken(query.continuation().get());
      b.exclusiveStartKey(
          Map.of(
              NAME,
              string(IndexSortKeys.itemNameOf(after)),
              BUCKET,
              string(THE_BUCKET),
              attribute,
              string(after)));
    }
    return b.build();
  }

  /** Writes a batch, sending again what DynamoDB left unprocessed, a bounded number of times. */
  private CompletableFuture<Void> writeBatch(
      String domain, List<WriteRequest> writes, String what) {
    String table = table(domain);
    return onDomain(
            domain,
            what,
            true,
            () -> dynamo.batchWriteItem(r -> r.requestItems(Map.of(table, writes))))
        .thenCompose(r -> resend(domain, table, r, what, 0));
  }

  private CompletableFuture<Void> resend(
      String domain, String table, BatchWriteItemResponse r, String what, int resends) {
    List<WriteRequest> left =
        r.hasUnprocessedItems() ? r.unprocessedItems().getOrDefault(table, List.of()) : List.of();
    if (left.isEmpty()) {
      return CompletableFuture.completedFuture(null);
    }
    if (resends == BATCH_RESENDS) {
      return CompletableFuture.failedFuture(
          new OutcomeUnknownException(
              what
                  + " left "
                  + left.size()
                  + " items unprocessed after "
                  + BATCH_RESENDS
                  + " resends (DynamoDB is throttling); some items may be written: repeat the"
                  + " batch"));
    }
    long pauseMillis = FIRST_RESEND_PAUSE.toMillis() << resends;
    // Writing again what was not written is safe: puts and deletes are idempotent.
    return CompletableFuture.supplyAsync(
            () -> null, CompletableFuture.delayedExecutor(pauseMillis, TimeUnit.MILLISECONDS))
        .thenCompose(
            x ->
                onDomain(
                    domain,
                    what,
                    true,
                    () -> dynamo.batchWriteItem(b -> b.requestItems(Map.of(table, left)))))
        .thenCompose(next -> resend(domain, table, next, what, resends + 1));
  }

  /**
   * Runs a call on a domain's table; a missing table is {@link NotFoundException} naming the
   * domain, every other failure is mapped by {@link AwsErrors}.
   */
  private static <T> CompletableFuture<T> onDomain(
      String domain, String what, boolean mutating, Supplier<CompletableFuture<T>> call) {
    CompletableFuture<T> f;
    try {
      f = call.get();
    } catch (RuntimeException e) {
      return CompletableFuture.failedFuture(AwsErrors.map(e, what, mutating));
    }
    return f.handle(
            (v, t) -> {
              if (t == null) {
                return CompletableFuture.completedFuture(v);
              }
              Throwable c = io.stratus.cloudapi.CloudFutures.unwrap(t);
              if (c instanceof AwsServiceException e
                  && "ResourceNotFoundException".equals(AwsErrors.errorCode(e))) {
                return CompletableFuture.<T>failedFuture(
                    new NotFoundException(
                        what
                            + " failed: index domain "
                            + domain
                            + " does not exist; create it with createDomain first"));
              }
              return CompletableFuture.<T>failedFuture(AwsErrors.map(c, what, mutating));
            })
        .thenCompose(x -> x);
  }

  /** Runs {@code body}; a request rejected by a check becomes a failed future. */
  private static <T> CompletableFuture<T> checked(Supplier<CompletableFuture<T>> body) {
    try {
      return body.get();
    } catch (CloudException e) {
      return CompletableFuture.failedFuture(e);
    }
  }

  // ---- items ----

  static Map<String, AttributeValue> toDynamo(IndexItem item) {
    Map<String, AttributeValue> m = new HashMap<>();
    m.put(NAME, string(item.name()));
    m.put(BUCKET, string(THE_BUCKET));
    for (Map.Entry<String, String> a : item.attributes().entrySet()) {
      m.put(ATTRIBUTE + a.getKey(), string(IndexSortKeys.sortKey(a.getValue(), item.name())));
    }
    return m;
  }

  static IndexItem fromDynamo(Map<String, AttributeValue> m) {
    String name = stringOf(m, NAME);
    Map<String, String> attributes = new TreeMap<>();
    for (Map.Entry<String, AttributeValue> e : m.entrySet()) {
      if (e.getKey().startsWith(ATTRIBUTE)) {
        attributes.put(
            e.getKey().substring(ATTRIBUTE.length()), IndexSortKeys.valueOf(e.getValue().s()));
      }
    }
    return new IndexItem(name, attributes);
  }

  /**
   * The string {@code attribute} of an item or key DynamoDB returned: the table's key of every
   * item, and the index's key of a query's last evaluated key, which DynamoDB always includes.
   */
  private static String stringOf(Map<String, AttributeValue> m, String attribute) {
    AttributeValue v = m.get(attribute);
    if (v == null || v.s() == null) {
      throw new IllegalStateException(
          "DynamoDB returned a key or item without " + attribute + ": " + m.keySet());
    }
    return v.s();
  }

  private static Map<String, AttributeValue> key(String itemName) {
    return Map.of(NAME, string(itemName));
  }

  private static AttributeValue string(String s) {
    return AttributeValue.builder().s(s).build();
  }
}
