package io.stratus.core.contract;

import io.stratus.cloudapi.CloudFutures;
import io.stratus.cloudapi.QueueBacklog;
import io.stratus.cloudapi.StoredItem;
import io.stratus.cloudapi.SupportsQueueInspection;
import io.stratus.pagemanager.PageCodec;
import io.stratus.protocols.checkpoint.ChainState;
import io.stratus.protocols.log.LogMessages;
import io.stratus.protocols.log.LogRecord;
import java.util.Optional;

/**
 * Prints what a history that did not settle left: every queue of the database with its first
 * messages' log records (writer, counter, lane dependencies, deliveries so far) and, for each
 * pending-update queue, the chain counters in the header of the page or tree it applies to. A gap
 * in a writer's chain, a dependency never met or a header without room then shows at a glance.
 */
final class SoakDump {
  private SoakDump() {}

  static void queues(ContractCloud c) {
    SupportsQueueInspection q = SupportsQueueInspection.of(c.services().simpleQueues());
    for (String uri : CloudFutures.await(q.listQueues(ContractCloud.DB + "/"))) {
      QueueBacklog b = CloudFutures.await(q.inspect(uri, 10));
      System.out.println(
          "[soak] queue " + uri + ": " + b.messages() + " messages at " + c.clock.instant());
      int pu = uri.indexOf("/pu/");
      if (pu >= 0) {
        String page = uri.substring(pu + "/pu/x/".length());
        Optional<StoredItem> item = CloudFutures.await(c.services().storage().get(page));
        System.out.println(
            "[soak]   "
                + page
                + (item.isEmpty()
                    ? " absent"
                    : " header " + ChainState.of(PageCodec.decode(page, item.get().payload()))));
      }
      for (QueueBacklog.PeekedMessage m : b.peeked()) {
        try {
          for (LogRecord r : LogMessages.unpack(m.payload())) {
            System.out.println(
                "[soak]   delivered " + m.deliveries() + "x: " + r + " after " + r.after());
          }
        } catch (RuntimeException e) {
          System.out.println("[soak]   a message that is no log message: " + e.getMessage());
        }
      }
    }
  }
}
