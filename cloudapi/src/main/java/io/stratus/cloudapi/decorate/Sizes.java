package io.stratus.cloudapi.decorate;

import io.stratus.cloudapi.AdvancedMessage;
import io.stratus.cloudapi.ConditionalRead;
import io.stratus.cloudapi.ItemMetadata;
import io.stratus.cloudapi.QueueMessage;
import io.stratus.cloudapi.StoredItem;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Payload byte counts of requests and results, as {@link Call} defines them. Null-tolerant: a
 * malformed request is sized as zero and left for the service to reject.
 */
final class Sizes {
  private Sizes() {}

  static long bytes(byte[] payload) {
    return payload == null ? 0 : payload.length;
  }

  static long payloads(List<byte[]> payloads) {
    if (payloads == null) {
      return 0;
    }
    long total = 0;
    for (byte[] p : payloads) {
      total += bytes(p);
    }
    return total;
  }

  /** UTF-8 bytes of the keys and values, as S3 counts user metadata. */
  static long metadata(Map<String, String> metadata) {
    if (metadata == null) {
      return 0;
    }
    long total = 0;
    for (Map.Entry<String, String> e : metadata.entrySet()) {
      total += utf8(e.getKey()) + utf8(e.getValue());
    }
    return total;
  }

  static long item(StoredItem item) {
    return item.size() + metadata(item.metadata());
  }

  static long storedItem(Optional<StoredItem> item) {
    return item.map(Sizes::item).orElse(0L);
  }

  static long itemMetadata(Optional<ItemMetadata> md) {
    return md.map(m -> metadata(m.metadata())).orElse(0L);
  }

  static long conditionalRead(ConditionalRead read) {
    return read.item().map(Sizes::item).orElse(0L);
  }

  static long queueMessages(List<QueueMessage> messages) {
    long total = 0;
    for (QueueMessage m : messages) {
      total += m.payload().length;
    }
    return total;
  }

  static long backlog(io.stratus.cloudapi.QueueBacklog backlog) {
    long n = 0;
    for (io.stratus.cloudapi.QueueBacklog.PeekedMessage m : backlog.peeked()) {
      n += m.size();
    }
    return n;
  }

  static long advancedMessages(List<AdvancedMessage> messages) {
    long total = 0;
    for (AdvancedMessage m : messages) {
      total += m.payload().length;
    }
    return total;
  }

  /** UTF-8 bytes of an index item's name, attribute names and values. */
  static long indexItem(io.stratus.cloudapi.IndexItem item) {
    if (item == null) {
      return 0;
    }
    return utf8(item.name()) + metadata(item.attributes());
  }

  static long indexItems(List<io.stratus.cloudapi.IndexItem> items) {
    if (items == null) {
      return 0;
    }
    long total = 0;
    for (io.stratus.cloudapi.IndexItem item : items) {
      total += indexItem(item);
    }
    return total;
  }

  private static long utf8(String s) {
    return s == null ? 0 : s.getBytes(StandardCharsets.UTF_8).length;
  }
}
