package io.stratus.cloudapi.decorate;

import static io.stratus.cloudapi.Operation.ADVANCED_QUEUE_CREATE;
import static io.stratus.cloudapi.Operation.ADVANCED_QUEUE_DELETE;
import static io.stratus.cloudapi.Operation.ADVANCED_QUEUE_DELETE_BY_KEY;
import static io.stratus.cloudapi.Operation.ADVANCED_QUEUE_DELETE_MESSAGE;
import static io.stratus.cloudapi.Operation.ADVANCED_QUEUE_LIST;
import static io.stratus.cloudapi.Operation.ADVANCED_QUEUE_RECEIVE;
import static io.stratus.cloudapi.Operation.ADVANCED_QUEUE_SEND;
import static io.stratus.cloudapi.Operation.COUNTER_HIGHEST_VALIDATED;
import static io.stratus.cloudapi.Operation.COUNTER_INCREMENT;
import static io.stratus.cloudapi.Operation.COUNTER_SET_TIMEOUT;
import static io.stratus.cloudapi.Operation.COUNTER_VALIDATE;
import static io.stratus.cloudapi.Operation.INDEX_CREATE_DOMAIN;
import static io.stratus.cloudapi.Operation.INDEX_DELETE;
import static io.stratus.cloudapi.Operation.INDEX_DELETE_BATCH;
import static io.stratus.cloudapi.Operation.INDEX_DELETE_DOMAIN;
import static io.stratus.cloudapi.Operation.INDEX_GET;
import static io.stratus.cloudapi.Operation.INDEX_PUT;
import static io.stratus.cloudapi.Operation.INDEX_PUT_BATCH;
import static io.stratus.cloudapi.Operation.INDEX_QUERY;
import static io.stratus.cloudapi.Operation.LOCK_ACQUIRE_EXCLUSIVE;
import static io.stratus.cloudapi.Operation.LOCK_ACQUIRE_INTENTION;
import static io.stratus.cloudapi.Operation.LOCK_ACQUIRE_SHARED;
import static io.stratus.cloudapi.Operation.LOCK_GET_TIMEOUT;
import static io.stratus.cloudapi.Operation.LOCK_RELEASE;
import static io.stratus.cloudapi.Operation.LOCK_SET_TIMEOUT;
import static io.stratus.cloudapi.Operation.MACHINE_DESCRIBE;
import static io.stratus.cloudapi.Operation.MACHINE_LIST;
import static io.stratus.cloudapi.Operation.MACHINE_START;
import static io.stratus.cloudapi.Operation.MACHINE_STOP;
import static io.stratus.cloudapi.Operation.QUEUE_CHANGE_VISIBILITY;
import static io.stratus.cloudapi.Operation.QUEUE_CHANGE_VISIBILITY_BATCH;
import static io.stratus.cloudapi.Operation.QUEUE_CREATE;
import static io.stratus.cloudapi.Operation.QUEUE_DELETE;
import static io.stratus.cloudapi.Operation.QUEUE_DELETE_BATCH;
import static io.stratus.cloudapi.Operation.QUEUE_DELETE_MESSAGE;
import static io.stratus.cloudapi.Operation.QUEUE_INSPECT;
import static io.stratus.cloudapi.Operation.QUEUE_LIST;
import static io.stratus.cloudapi.Operation.QUEUE_RECEIVE;
import static io.stratus.cloudapi.Operation.QUEUE_SEND;
import static io.stratus.cloudapi.Operation.QUEUE_SEND_BATCH;
import static io.stratus.cloudapi.Operation.STORAGE_DELETE;
import static io.stratus.cloudapi.Operation.STORAGE_GET;
import static io.stratus.cloudapi.Operation.STORAGE_GET_IF_CHANGED;
import static io.stratus.cloudapi.Operation.STORAGE_GET_IF_MODIFIED_SINCE;
import static io.stratus.cloudapi.Operation.STORAGE_GET_METADATA;
import static io.stratus.cloudapi.Operation.STORAGE_LIST;
import static io.stratus.cloudapi.Operation.STORAGE_PUT;
import static io.stratus.cloudapi.Operation.STORAGE_PUT_IF_ABSENT;
import static io.stratus.cloudapi.Operation.STORAGE_PUT_IF_VERSION;

import io.stratus.cloudapi.Operation;
import io.stratus.cloudapi.decorate.PriceTable.Billing;

/**
 * The two standard price tables: the paper's 2008 AWS prices, to reproduce its cost figures, and
 * today's AWS list prices. Both share the same price classes (named by the constants below), so
 * cost breakdowns under the two tables line up.
 */
public final class PriceTables {
  /** Price class of storage writes and listings: put, conditional puts, list. */
  public static final String STORAGE_WRITE = "storage put/list";

  /** Price class of storage reads: get, metadata, conditional gets. */
  public static final String STORAGE_READ = "storage get";

  /** Price class of storage deletes. */
  public static final String STORAGE_DELETES = "storage delete";

  /** Price class of every simple-queue call. */
  public static final String SIMPLE_QUEUE = "simple queue";

  /** Price class of advanced queues, locks and counters. */
  public static final String ADVANCED = "advanced queue/lock/counter";

  /** Price class of machine reservation calls (machines are billed per hour, not modelled). */
  public static final String MACHINES = "machine";

  /** Price class of index puts and deletes of one item. */
  public static final String INDEX_WRITES = "index put/delete";

  /** Price class of index batch puts and deletes (priced as full batches of 25 items). */
  public static final String INDEX_BATCHES = "index batch";

  /** Price class of index gets and query pages. */
  public static final String INDEX_READS = "index get/query";

  /** Price class of creating and deleting index domains. */
  public static final String INDEX_DOMAINS = "index domain";

  private static final Operation[] WRITES = {
    STORAGE_PUT, STORAGE_PUT_IF_ABSENT, STORAGE_PUT_IF_VERSION, STORAGE_LIST
  };
  private static final Operation[] READS = {
    STORAGE_GET, STORAGE_GET_METADATA, STORAGE_GET_IF_CHANGED, STORAGE_GET_IF_MODIFIED_SINCE
  };
  private static final Operation[] QUEUE = {
    QUEUE_CREATE,
    QUEUE_DELETE,
    QUEUE_LIST,
    QUEUE_SEND,
    QUEUE_SEND_BATCH,
    QUEUE_RECEIVE,
    QUEUE_DELETE_MESSAGE,
    QUEUE_DELETE_BATCH,
    QUEUE_INSPECT,
    QUEUE_CHANGE_VISIBILITY,
    QUEUE_CHANGE_VISIBILITY_BATCH
  };
  private static final Operation[] ADVANCED_OPS = {
    ADVANCED_QUEUE_CREATE,
    ADVANCED_QUEUE_DELETE,
    ADVANCED_QUEUE_LIST,
    ADVANCED_QUEUE_SEND,
    ADVANCED_QUEUE_RECEIVE,
    ADVANCED_QUEUE_DELETE_MESSAGE,
    ADVANCED_QUEUE_DELETE_BY_KEY,
    LOCK_SET_TIMEOUT,
    LOCK_ACQUIRE_EXCLUSIVE,
    LOCK_ACQUIRE_SHARED,
    LOCK_ACQUIRE_INTENTION,
    LOCK_RELEASE,
    LOCK_GET_TIMEOUT,
    COUNTER_SET_TIMEOUT,
    COUNTER_INCREMENT,
    COUNTER_VALIDATE,
    COUNTER_HIGHEST_VALIDATED
  };
  private static final Operation[] MACHINE_OPS = {
    MACHINE_START, MACHINE_STOP, MACHINE_DESCRIBE, MACHINE_LIST
  };
  private static final Operation[] INDEX_WRITE_OPS = {INDEX_PUT, INDEX_DELETE};
  private static final Operation[] INDEX_BATCH_OPS = {INDEX_PUT_BATCH, INDEX_DELETE_BATCH};
  private static final Operation[] INDEX_READ_OPS = {INDEX_GET, INDEX_QUERY};
  private static final Operation[] INDEX_DOMAIN_OPS = {INDEX_CREATE_DOMAIN, INDEX_DELETE_DOMAIN};

  /**
   * AWS prices of 2008 as paper 000 uses them (US prices; the paper quotes Europe at $0.012 where
   * the US price is $0.01):
   *
   * <ul>
   *   <li>storage put and list: $0.01 per 1,000 requests (000 section 2.2.1; LIST was billed as a
   *       PUT-class request). Conditional puts did not exist in 2008; they are priced as puts.
   *   <li>storage get and metadata: $0.01 per 10,000 requests (000 sections 2.2.1 and 2.2.2);
   *       conditional gets (getIfModifiedSince is in the paper's API) are priced as gets.
   *   <li>storage delete: free (AWS has never charged for DELETE; the paper gives no price).
   *   <li>simple queues: $0.01 per 10,000 requests, every call one request (000 section 2.2.3,
   *       an inspection, which SQS answers with two, included;
   *       prices as of 2008-10-01).
   *   <li>advanced queues, locks, counters: $0.01 per 1,000 requests (000 section 7.1).
   *   <li>machine start/stop/describe: free; EC2 machines cost $0.10 to $0.80 per hour (000 section
   *       2.2.2), which these tables do not model.
   *   <li>index (SimpleDB): $0.14 per machine hour of the BoxUsage SimpleDB reports for a request
   *       (000 section 2.2.4). SimpleDB reported fixed BoxUsage figures in 2008, as published
   *       measurements of the time show: 0.0000219909 machine hours for a put of one attribute (a
   *       few nano-hours more per further attribute, left out), so $0.000003078726 per put; deletes,
   *       gets and query pages are priced the same (assumption: the paper gives no figure, and
   *       query BoxUsage varied with the work done); creating or deleting a domain 0.0055590278
   *       machine hours, $0.000778263892. SimpleDB had no batch put in 2008; a batch is priced as
   *       25 puts. Storage ($1.50 per GB and month) is not modelled.
   *   <li>transfer: $0.10 per GB in and out, the heavy-user minimum of the quoted $0.10 to $0.17
   *       (000 sections 2.2.1 and 2.2.3); use {@link PriceTable#withoutTransfer()} for an EC2
   *       client, whose transfer to S3 and SQS is free (000 section 2.2.2).
   * </ul>
   */
  public static PriceTable paper2008() {
    return PAPER_2008;
  }

  /**
   * Today's AWS list prices (us-east-1, S3 Standard, SQS standard queues):
   *
   * <ul>
   *   <li>storage PUT, COPY, POST, LIST (and conditional puts, which are PUTs): $0.005 per 1,000
   *       requests (aws.amazon.com/s3/pricing).
   *   <li>storage GET and other reads (HEAD for metadata, conditional GETs): $0.0004 per 1,000
   *       requests (aws.amazon.com/s3/pricing).
   *   <li>storage DELETE: free (aws.amazon.com/s3/pricing).
   *   <li>simple queues: $0.40 per million requests beyond the free tier, each 64 KiB chunk of a
   *       request's payload billed as one request (aws.amazon.com/sqs/pricing).
   *   <li>advanced queues, locks, counters: $0 per request; they run on a ZooKeeper ensemble on
   *     EC2,
   *       which is paid per hour, not per request.
   *   <li>machine calls: free (the EC2 API has no per-request charge).
   *   <li>index (DynamoDB on-demand, us-east-1, after the November 2024 price cut): $0.625 per
   *       million write request units, $0.125 per million read request units
   *       (aws.amazon.com/dynamodb/pricing/on-demand). A put or delete of an item of up to 1 KB is
   *       one write unit for the table and one for each global secondary index the item is in; an
   *       index entry is in one, so a put or delete is priced as two units, $1.25 per million; a
   *       batch as 25 of them. A get (a strongly consistent read of up to 4 KB) is one read unit,
   *       and a query page is priced as one (an eventually consistent read of up to 8 KB: pages of
   *       larger items cost more on DynamoDB, which per-call pricing does not see). Creating and
   *       deleting tables is free. Storage ($0.25 per GB and month) is not modelled.
   *   <li>transfer: in free, out to the internet $0.09 per GB for the first 10 TB per month
   *       (aws.amazon.com/ec2/pricing/on-demand, data transfer). Use {@link
   *       PriceTable#withoutTransfer()} for a client in the same region.
   * </ul>
   */
  public static PriceTable aws2026() {
    return AWS_2026;
  }

  private static final PriceTable PAPER_2008 =
      PriceTable.builder("paper 2008")
          .priceClass(STORAGE_WRITE, "0.01", 1_000, Billing.PER_CALL, WRITES)
          .priceClass(STORAGE_READ, "0.01", 10_000, Billing.PER_CALL, READS)
          .free(STORAGE_DELETES, STORAGE_DELETE)
          .priceClass(SIMPLE_QUEUE, "0.01", 10_000, Billing.PER_CALL, QUEUE)
          .priceClass(ADVANCED, "0.01", 1_000, Billing.PER_CALL, ADVANCED_OPS)
          .free(MACHINES, MACHINE_OPS)
          .priceClass(INDEX_WRITES, "3.078726", 1_000_000, Billing.PER_CALL, INDEX_WRITE_OPS)
          .priceClass(INDEX_BATCHES, "76.96815", 1_000_000, Billing.PER_CALL, INDEX_BATCH_OPS)
          .priceClass(INDEX_READS, "3.078726", 1_000_000, Billing.PER_CALL, INDEX_READ_OPS)
          .priceClass(INDEX_DOMAINS, "778.263892", 1_000_000, Billing.PER_CALL, INDEX_DOMAIN_OPS)
          .transferPerGb("0.10", "0.10")
          .build();

  private static final PriceTable AWS_2026 =
      PriceTable.builder("aws 2026")
          .priceClass(STORAGE_WRITE, "0.005", 1_000, Billing.PER_CALL, WRITES)
          .priceClass(STORAGE_READ, "0.0004", 1_000, Billing.PER_CALL, READS)
          .free(STORAGE_DELETES, STORAGE_DELETE)
          .priceClass(SIMPLE_QUEUE, "0.40", 1_000_000, Billing.PER_64KIB_UNIT, QUEUE)
          .free(ADVANCED, ADVANCED_OPS)
          .free(MACHINES, MACHINE_OPS)
          .priceClass(INDEX_WRITES, "1.25", 1_000_000, Billing.PER_CALL, INDEX_WRITE_OPS)
          .priceClass(INDEX_BATCHES, "31.25", 1_000_000, Billing.PER_CALL, INDEX_BATCH_OPS)
          .priceClass(INDEX_READS, "0.125", 1_000_000, Billing.PER_CALL, INDEX_READ_OPS)
          .free(INDEX_DOMAINS, INDEX_DOMAIN_OPS)
          .transferPerGb("0", "0.09")
          .build();

  private PriceTables() {}
}
