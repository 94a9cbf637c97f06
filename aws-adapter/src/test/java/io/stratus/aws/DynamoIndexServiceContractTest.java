package io.stratus.aws;

import static org.assertj.core.api.Assertions.assertThat;

import io.stratus.aws.AwsMicroBenchmarkTest.RequestCounter;
import io.stratus.cloudapi.IndexItem;
import io.stratus.cloudapi.IndexPage;
import io.stratus.cloudapi.IndexQuery;
import io.stratus.cloudapi.IndexService;
import io.stratus.cloudapi.contract.IndexServiceContract;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The index contract on DynamoDB, on the DynamoDB-compatible server the tests start themselves
 * ({@link DynamoFixture}), plus what only the DynamoDB mapping promises: one request per query
 * page and per batch, gets that read consistently, and queries declared eventually consistent
 * (global secondary indexes). The server updates its indexes synchronously, so the suite runs
 * with no query lag; on DynamoDB itself a query may lag its writes by a fraction of a second.
 */
class DynamoIndexServiceContractTest extends IndexServiceContract {
  private static final String TABLE_PREFIX =
      "st" + UUID.randomUUID().toString().substring(0, 6) + "-";
  private static final RequestCounter REQUESTS = new RequestCounter();
  private static AwsCloud cloud;

  @BeforeAll
  static void connect() {
    DynamoFixture server = DynamoFixture.get();
    cloud = AwsCloud.connect(server.config(TABLE_PREFIX).build(), List.of(REQUESTS));
  }

  @AfterAll
  static void disconnect() {
    if (cloud != null) {
      cloud.close();
    }
  }

  @Override
  protected IndexService newIndex(long seed) {
    return cloud.index().orElseThrow();
  }

  @Override
  protected void elapse(Duration d) {
    RealTime.pass(d);
  }

  @Test
  void queriesAreDeclaredEventuallyConsistent() {
    assertThat(index.isStronglyConsistent()).isFalse();
  }

  @Test
  void aQueryPageIsOneRequestAndABatchIsOne() {
    List<IndexItem> items = new ArrayList<>();
    for (int i = 0; i < 10; i++) {
      items.add(IndexItem.of("i" + i, KEY, "v" + i));
    }
    Map<String, Long> before = REQUESTS.snapshot();
    await(index.putBatch(domain, items));
    assertThat(delta(before)).containsExactly(Map.entry("DynamoDb.BatchWriteItem", 1L));

    before = REQUESTS.snapshot();
    IndexQuery q = IndexQuery.on(KEY).limit(4);
    int pages = 0;
    List<String> names = new ArrayList<>();
    while (true) {
      IndexPage p = await(index.query(domain, q));
      pages++;
      p.items().forEach(it -> names.add(it.name()));
      if (p.nextToken().isEmpty()) {
        break;
      }
      q = q.after(p.nextToken().get());
    }
    assertThat(names).hasSize(10);
    assertThat(delta(before)).containsExactly(Map.entry("DynamoDb.Query", (long) pages));
    assertThat(pages).as("4 + 4 + 2 items").isEqualTo(3);

    before = REQUESTS.snapshot();
    await(index.get(domain, "i1"));
    await(index.put(domain, IndexItem.of("i1", KEY, "w")));
    await(index.delete(domain, "i1"));
    assertThat(delta(before))
        .containsOnly(
            Map.entry("DynamoDb.GetItem", 1L),
            Map.entry("DynamoDb.PutItem", 1L),
            Map.entry("DynamoDb.DeleteItem", 1L));
  }

  @Test
  void anEmptyRangeSendsNoRequest() {
    Map<String, Long> before = REQUESTS.snapshot();
    IndexPage p =
        await(
            index.query(
                domain,
                IndexQuery.on(KEY)
                    .from(IndexQuery.Bound.exclusive("b"))
                    .to(IndexQuery.Bound.exclusive("a"))));
    assertThat(p.items()).isEmpty();
    assertThat(delta(before)).isEmpty();
  }

  private static Map<String, Long> delta(Map<String, Long> before) {
    Map<String, Long> now = REQUESTS.snapshot();
    now.replaceAll((k, v) -> v - before.getOrDefault(k, 0L));
    now.values().removeIf(v -> v == 0);
    return now;
  }
}
