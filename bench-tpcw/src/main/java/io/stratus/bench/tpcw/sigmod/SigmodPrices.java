package io.stratus.bench.tpcw.sigmod;

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
import io.stratus.cloudapi.decorate.PriceTable;
import io.stratus.cloudapi.decorate.PriceTable.Billing;
import io.stratus.cloudapi.decorate.PriceTables;
import java.math.BigDecimal;

/**
 * The AWS prices paper 001 (SIGMOD 2008) states and used for its cost experiments. They differ
 * from paper 000's 2008 table ({@link PriceTables#paper2008()}): SQS was then billed per message
 * sent, not per request, and the experiments paid the non-premium transfer rate.
 *
 * <ul>
 *   <li>storage put and list: $0.01 per 1,000 requests; get: $0.01 per 10,000 (001 section 2.1).
 *       Conditional puts and gets did not exist; they are priced as puts and gets. Deletes free.
 *   <li>SQS: $0.01 per 1,000 messages sent (001 section 2.2); receiving and deleting messages and
 *       managing queues cost nothing but transfer. A batch send is one request here: the paper's
 *       client sent messages one by one and had no batch to price.
 *   <li>locks: free. The paper locks a pending-update queue for a checkpoint by receiving the
 *       token message of its LOCK queue on SQS (001 section 4.3), a call that was not charged;
 *       Stratus takes the same lock from the lock service, so it is priced as that receive.
 *   <li>advanced queues and counters (not in paper 001; only the protocols of paper 000 use them):
 *       $0.01 per 1,000 requests, paper 000's price for its advanced services (000 section 7.1).
 *   <li>the index service (SimpleDB; not in paper 001): paper 000's prices, as {@link
 *       PriceTables#paper2008()} has them.
 *   <li>transfer: $0.18 per GB in and out, "since we are not AWS premium customers" (001 section
 *       6.1). A client on EC2 pays none ({@link PriceTable#withoutTransfer()}).
 * </ul>
 */
public final class SigmodPrices {
  /** Price class of SQS sends, the only SQS calls the paper's price charges. */
  public static final String QUEUE_SENDS = "simple queue send";

  /** Price class of the other SQS calls (free). */
  public static final String QUEUE_OTHER = "simple queue receive/delete/admin";

  /** Price class of the lock service (free, as the LOCK queue's receive it replaces). */
  public static final String LOCKS = "lock";

  /** Price class of advanced queues and counters. */
  public static final String ADVANCED = "advanced queue/counter";

  /** Paper 001's price of sending 1,000 SQS messages, in dollars. */
  public static final BigDecimal SQS_PER_THOUSAND = new BigDecimal("0.01");

  private static final PriceTable PAPER_001 = paper001(SQS_PER_THOUSAND);

  private SigmodPrices() {}

  /** The prices of paper 001's experiments (see the class comment). */
  public static PriceTable paper001() {
    return PAPER_001;
  }

  /**
   * Paper 001's prices with another price of SQS messages: {@code perThousand} dollars per 1,000
   * messages sent, to weigh the queue-based protocols under another SQS tariff.
   */
  public static PriceTable paper001(BigDecimal perThousand) {
    String name =
        perThousand.compareTo(SQS_PER_THOUSAND) == 0
            ? "paper 001 prices"
            : "paper 001 (SQS $" + perThousand.stripTrailingZeros().toPlainString() + ")";
    return PriceTable.builder(name)
        .priceClass(
            PriceTables.STORAGE_WRITE,
            "0.01",
            1_000,
            Billing.PER_CALL,
            STORAGE_PUT,
            STORAGE_PUT_IF_ABSENT,
            STORAGE_PUT_IF_VERSION,
            STORAGE_LIST)
        .priceClass(
            PriceTables.STORAGE_READ,
            "0.01",
            10_000,
            Billing.PER_CALL,
            STORAGE_GET,
            STORAGE_GET_METADATA,
            STORAGE_GET_IF_CHANGED,
            STORAGE_GET_IF_MODIFIED_SINCE)
        .free(PriceTables.STORAGE_DELETES, STORAGE_DELETE)
        .priceClass(QUEUE_SENDS, perThousand, 1_000, Billing.PER_CALL, QUEUE_SEND, QUEUE_SEND_BATCH)
        .free(
            QUEUE_OTHER,
            QUEUE_CREATE,
            QUEUE_DELETE,
            QUEUE_LIST,
            QUEUE_RECEIVE,
            QUEUE_DELETE_MESSAGE,
            QUEUE_DELETE_BATCH,
            QUEUE_INSPECT,
            QUEUE_CHANGE_VISIBILITY,
            QUEUE_CHANGE_VISIBILITY_BATCH)
        .free(
            LOCKS,
            LOCK_SET_TIMEOUT,
            LOCK_ACQUIRE_EXCLUSIVE,
            LOCK_ACQUIRE_SHARED,
            LOCK_ACQUIRE_INTENTION,
            LOCK_RELEASE,
            LOCK_GET_TIMEOUT)
        .priceClass(
            ADVANCED,
            "0.01",
            1_000,
            Billing.PER_CALL,
            ADVANCED_QUEUE_CREATE,
            ADVANCED_QUEUE_DELETE,
            ADVANCED_QUEUE_LIST,
            ADVANCED_QUEUE_SEND,
            ADVANCED_QUEUE_RECEIVE,
            ADVANCED_QUEUE_DELETE_MESSAGE,
            ADVANCED_QUEUE_DELETE_BY_KEY,
            COUNTER_SET_TIMEOUT,
            COUNTER_INCREMENT,
            COUNTER_VALIDATE,
            COUNTER_HIGHEST_VALIDATED)
        .free(PriceTables.MACHINES, MACHINE_START, MACHINE_STOP, MACHINE_DESCRIBE, MACHINE_LIST)
        .priceClass(
            PriceTables.INDEX_WRITES,
            paper000(INDEX_PUT),
            1,
            Billing.PER_CALL,
            INDEX_PUT,
            INDEX_DELETE)
        .priceClass(
            PriceTables.INDEX_BATCHES,
            paper000(INDEX_PUT_BATCH),
            1,
            Billing.PER_CALL,
            INDEX_PUT_BATCH,
            INDEX_DELETE_BATCH)
        .priceClass(
            PriceTables.INDEX_READS,
            paper000(INDEX_GET),
            1,
            Billing.PER_CALL,
            INDEX_GET,
            INDEX_QUERY)
        .priceClass(
            PriceTables.INDEX_DOMAINS,
            paper000(INDEX_CREATE_DOMAIN),
            1,
            Billing.PER_CALL,
            INDEX_CREATE_DOMAIN,
            INDEX_DELETE_DOMAIN)
        .transferPerGb("0.18", "0.18")
        .build();
  }

  /** Paper 000's price of one {@code op} request. */
  private static BigDecimal paper000(Operation op) {
    return PriceTables.paper2008().priceClass(op).pricePerRequest();
  }
}
