package io.stratus.protocols.engine;

import static org.assertj.core.api.Assertions.assertThat;

import io.stratus.cloudapi.CloudFutures;
import io.stratus.cloudapi.inprocess.InProcessCloud;
import io.stratus.cloudapi.time.ManualClock;
import io.stratus.pagemanager.BufferPool;
import io.stratus.pagemanager.BufferPoolConfig;
import io.stratus.pagemanager.Page;
import io.stratus.pagemanager.PageCodec;
import io.stratus.pagemanager.PageKind;
import io.stratus.protocols.LogicalChange;
import io.stratus.protocols.LogicalChange.Kind;
import io.stratus.protocols.ProtocolContext;
import io.stratus.protocols.ProtocolKind;
import io.stratus.protocols.ProtocolSettings;
import io.stratus.protocols.basic.BasicProtocol;
import io.stratus.protocols.checkpoint.CheckpointTimes;
import io.stratus.protocols.checkpoint.Checkpointer;
import io.stratus.protocols.log.Changes;
import io.stratus.protocols.log.LogMessages;
import io.stratus.protocols.log.LogRecord;
import io.stratus.protocols.log.PuQueues;
import io.stratus.protocols.log.PuQueues.Target;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** The parts of the basic protocol in isolation: collapsing, queue names, corrupt messages. */
class BasicPartsTest {
  private static LogicalChange c(Kind kind, int key, String value) {
    return new LogicalChange(
        kind, "db/c/t/root", new byte[] {(byte) key}, value.getBytes(), Optional.empty());
  }

  @Test
  void changesOfOneKeyCollapse() {
    List<LogicalChange> out =
        Changes.collapse(
            List.of(
                c(Kind.INSERT, 1, "a"), c(Kind.UPDATE, 1, "b"), // insert + update = insert(b)
                c(Kind.UPDATE, 2, "a"), c(Kind.UPDATE, 2, "c"), // update + update = update(c)
                c(Kind.INSERT, 3, "a"), c(Kind.DELETE, 3, ""), // insert + delete = nothing
                c(Kind.DELETE, 4, ""), c(Kind.INSERT, 4, "d"), // delete + insert = update(d)
                c(Kind.UPDATE, 5, "a"), c(Kind.DELETE, 5, ""))); // update + delete = delete
    assertThat(out)
        .containsExactly(
            c(Kind.INSERT, 1, "b"),
            c(Kind.UPDATE, 2, "c"),
            c(Kind.UPDATE, 4, "d"),
            c(Kind.DELETE, 5, ""));
    LogicalChange del =
        new LogicalChange(
            Kind.DELETE, "db/i/x/root", new byte[] {1}, new byte[] {9}, Optional.empty(), true);
    LogicalChange ins =
        new LogicalChange(
            Kind.INSERT, "db/i/x/root", new byte[] {1}, new byte[] {9}, Optional.empty(), true);
    assertThat(Changes.collapse(List.of(del, ins))).containsExactly(ins);
  }

  @Test
  void queueNamesSayWhatTheyFeed() {
    PuQueues q = new PuQueues("db/shop");
    assertThat(q.treeQueue("db/shop/c/items/root", false))
        .isEqualTo("db/shop/pu/t/db/shop/c/items/root");
    assertThat(q.treeQueue("db/shop/i/items/x/root", true))
        .isEqualTo("db/shop/pu/i/db/shop/i/items/x/root");
    assertThat(q.pageQueue("db/shop/c/items/p1")).isEqualTo("db/shop/pu/p/db/shop/c/items/p1");
    for (Target t :
        List.of(
            new Target(PuQueues.Kind.PRIMARY_TREE, "db/shop/c/items/root"),
            new Target(PuQueues.Kind.INDEX_TREE, "db/shop/i/items/x/root"),
            new Target(PuQueues.Kind.DATA_PAGE, "db/shop/c/items/p1"))) {
      assertThat(q.parse(q.queueOf(t))).contains(t);
    }
    assertThat(q.parse("db/other/pu/t/x")).isEmpty();
  }

  @Test
  void aCorruptMessageIsSetAsideAndNeverApplied() {
    ManualClock clock = new ManualClock();
    InProcessCloud cloud = InProcessCloud.builder().clock(clock).seed(1).build();
    BufferPool pool =
        new BufferPool(
            cloud.services().storage(), BufferPoolConfig.builder().pageSize(1024).build(), clock);
    String page = "db/c/t/root";
    Page root =
        Page.builder(page, PageKind.LEAF)
            .entries(new byte[][] {{1}, {2}}, new byte[][] {"a".getBytes(), "b".getBytes()})
            .build();
    CloudFutures.await(cloud.services().storage().put(page, PageCodec.encode(root), Map.of()));
    ProtocolContext ctx =
        ProtocolContext.builder(
                cloud.services(), "db", "c1", pool, ProtocolSettings.defaults(ProtocolKind.BASIC))
            .clock(clock)
            .checkpointExecutor(Runnable::run)
            .build();
    try (QueueEngine p = new QueueEngine(ctx, BasicProtocol.ASSEMBLY)) {
      String queue = p.names().pageQueue(page);
      CloudFutures.await(cloud.services().simpleQueues().createQueue(queue));
      byte[] good =
          LogMessages.pack(
                  List.of(
                      new LogRecord(
                          new LogicalChange(
                              Kind.UPDATE, page, new byte[] {1}, "z".getBytes(), Optional.of(page)),
                          "c0",
                          0,
                          "c0-1",
                          1,
                          0)),
                  1 << 20)
              .get(0);
      byte[] bad = good.clone();
      bad[bad.length - 1] ^= 1;
      CloudFutures.await(cloud.services().simpleQueues().send(queue, bad));
      CloudFutures.await(cloud.services().simpleQueues().send(queue, good));
      Checkpointer.Outcome o = p.checkpointer().run(new Target(PuQueues.Kind.DATA_PAGE, page));
      assertThat(o.completed()).isTrue();
      assertThat(o.applied()).isEqualTo(1);
      Page now = pool.fetch(page).orElseThrow();
      assertThat(new String(now.get(new byte[] {1}).orElseThrow())).isEqualTo("z");
      assertThat(CheckpointTimes.of(now).pageMillis()).isEqualTo(clock.millis());
      clock.advance(Duration.ofSeconds(31));
      assertThat(
              CloudFutures.await(
                  cloud.services().simpleQueues().receive(queue, 10, Duration.ofSeconds(1))))
          .isEmpty(); // the corrupt one left the queue ...
      assertThat(ctx.damage().deadLettered()).isEqualTo(1);
      assertThat(CloudFutures.await(cloud.services().storage().listAll("db/dead/")))
          .hasSize(1); // ... into the dead-letter area
    }
    pool.close();
  }
}
