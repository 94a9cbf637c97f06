package io.stratus.cloudapi.crypto;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowable;

import io.stratus.cloudapi.AdvancedMessage;
import io.stratus.cloudapi.AdvancedQueueService;
import io.stratus.cloudapi.CloudFutures;
import io.stratus.cloudapi.CloudServices;
import io.stratus.cloudapi.QueueBacklog;
import io.stratus.cloudapi.QueueMessage;
import io.stratus.cloudapi.SimpleQueueService;
import io.stratus.cloudapi.StorageService;
import io.stratus.cloudapi.StoredItem;
import io.stratus.cloudapi.SupportsQueueInspection;
import io.stratus.cloudapi.SupportsVisibilityChange;
import io.stratus.cloudapi.UnreadablePayloadException;
import io.stratus.cloudapi.inprocess.InProcessCloud;
import io.stratus.cloudapi.testing.Seed;
import io.stratus.cloudapi.testing.SeedExtension;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Proxy;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * What encryption must detect and what it must not leak: payloads moved to another URI or queue,
 * changed or truncated bytes, unknown keys, rotation, and key material in messages. The raw
 * in-process services show what the provider stores.
 */
@ExtendWith(SeedExtension.class)
class EncryptionTest {
  private static final Duration VISIBILITY = Duration.ofMinutes(1);

  private InProcessCloud cloud;
  private TestKeys keys;
  private CloudServices encrypted;
  private StorageService raw;

  @BeforeEach
  void setUp(@Seed long seed) {
    cloud = InProcessCloud.builder().seed(seed).build();
    keys = new TestKeys("k1", seed);
    encrypted =
        Encryption.builder(keys).nonceSource(new Random(seed)).build().wrap(cloud.services());
    raw = cloud.services().storage();
  }

  @AfterEach
  void tearDown() {
    cloud.close();
  }

  private StorageService storage() {
    return encrypted.storage();
  }

  @Test
  void storedBytesHoldNeitherThePlaintextNorTheKeyAndCarryTheHeader() {
    byte[] secret = utf8("the customer's credit card 4111-1111");
    await(storage().put("db/a", secret, Map.of()));
    byte[] stored = await(raw.get("db/a")).orElseThrow().payload();
    assertThat(stored).hasSize(secret.length + Encryption.OVERHEAD);
    assertThat(new String(stored, StandardCharsets.ISO_8859_1)).doesNotContain("credit card");
    assertThat(stored[0]).isEqualTo((byte) Encryption.FORMAT_VERSION);
    assertThat(keyIdOf(stored)).isEqualTo("k1");
    assertThat(await(storage().get("db/a")).orElseThrow().payload()).isEqualTo(secret);
  }

  @Test
  void theSamePayloadTwiceGivesDifferentBytes() {
    await(storage().put("db/b", utf8("same"), Map.of()));
    await(storage().put("db/b2", utf8("same"), Map.of()));
    byte[] a = await(raw.get("db/b")).orElseThrow().payload();
    byte[] b = await(raw.get("db/b2")).orElseThrow().payload();
    assertThat(Arrays.copyOfRange(a, 34, 46)).isNotEqualTo(Arrays.copyOfRange(b, 34, 46));
  }

  @Test
  void anItemCopiedToAnotherUriFailsToOpenNamingTheUri() {
    await(storage().put("db/c/orders/p1", utf8("order 1"), Map.of()));
    StoredItem a = await(raw.get("db/c/orders/p1")).orElseThrow();
    await(raw.put("db/c/orders/p2", a.payload(), a.metadata()));

    UnreadablePayloadException e = failure(storage().get("db/c/orders/p2"));
    assertThat(e.uri()).isEqualTo("db/c/orders/p2");
    assertThat(e.getMessage()).contains("failed authentication").contains("\"k1\"");
    assertThat(e.isRetryable()).isFalse();
    assertThat(await(storage().get("db/c/orders/p1")).orElseThrow().payload())
        .isEqualTo(utf8("order 1"));
  }

  @Test
  void everyChangedByteAndEveryTruncationIsDetected() {
    byte[] plain = utf8("twelve bytes");
    await(storage().put("db/x", plain, Map.of()));
    byte[] stored = await(raw.get("db/x")).orElseThrow().payload();
    for (int i = 0; i < stored.length; i++) {
      byte[] changed = stored.clone();
      changed[i] ^= 0x01;
      await(raw.put("db/x", changed, Map.of()));
      assertThat(catchThrowable(() -> await(storage().get("db/x"))))
          .as("byte %d changed", i)
          .isInstanceOf(UnreadablePayloadException.class);
    }
    for (int n = 0; n < stored.length; n++) {
      await(raw.put("db/x", Arrays.copyOf(stored, n), Map.of()));
      assertThat(catchThrowable(() -> await(storage().get("db/x"))))
          .as("cut to %d bytes", n)
          .isInstanceOf(UnreadablePayloadException.class);
    }
  }

  @Test
  void conditionalReadsOpenTheItemToo() {
    String v1 = await(storage().put("db/a", utf8("one"), Map.of())).version();
    await(
        raw.put(
            "db/a", utf8("plaintext slipped in by someone else, long enough to parse"), Map.of()));
    assertThat(failure(storage().getIfChanged("db/a", v1)).getMessage())
        .contains("written without encryption");
  }

  @Test
  void aPlaintextItemIsNotHandedOutAsIfDecrypted() {
    byte[] fake = new byte[200];
    fake[0] = (byte) Encryption.FORMAT_VERSION;
    fake[1] = 2;
    fake[2] = 'k';
    fake[3] = '1';
    await(raw.put("db/forged", fake, Map.of()));
    assertThat(failure(storage().get("db/forged")).getMessage()).contains("failed authentication");
  }

  @Test
  void aMessageMovedToAnotherQueueIsHandedOutUnreadableWithTheOthers() {
    SimpleQueueService q = encrypted.simpleQueues();
    SimpleQueueService rawQ = cloud.services().simpleQueues();
    await(q.createQueue("db/pu/a"));
    await(q.createQueue("db/pu/b"));
    await(q.send("db/pu/a", utf8("for a")));
    QueueMessage sealed = await(rawQ.receive("db/pu/a", 10, VISIBILITY)).get(0);
    await(rawQ.send("db/pu/b", sealed.payload()));
    await(q.send("db/pu/b", utf8("genuine")));

    List<QueueMessage> got = await(q.receive("db/pu/b", 10, VISIBILITY));
    assertThat(got).hasSize(2);
    QueueMessage moved = got.stream().filter(m -> !m.isReadable()).findFirst().orElseThrow();
    QueueMessage genuine = got.stream().filter(QueueMessage::isReadable).findFirst().orElseThrow();
    assertThat(genuine.payload()).isEqualTo(utf8("genuine"));
    assertThat(moved.toString()).contains("unreadable");
    UnreadablePayloadException e = catchUnreadable(moved::payload);
    assertThat(e.uri()).isEqualTo("db/pu/b");
    assertThat(e.getMessage()).contains(moved.messageId()).contains("failed authentication");
    await(q.delete("db/pu/b", moved.receiptHandle())); // still deletable by its handle
  }

  /**
   * Inspectable queues stay inspectable when encrypted: counts pass through, peeked payloads come
   * out opened, and one that cannot be opened comes out sealed, never as plaintext it is not.
   */
  @Test
  void inspectionCountsAndOpensPeekedMessages() {
    SupportsQueueInspection q = SupportsQueueInspection.of(encrypted.simpleQueues());
    assertThat(q).as("the wrapped in-process queues are inspectable").isNotNull();
    SimpleQueueService rawQ = cloud.services().simpleQueues();
    await(q.createQueue("db/pu/a"));
    await(q.createQueue("db/pu/b"));
    await(q.send("db/pu/a", utf8("for a")));
    byte[] sealed = await(rawQ.receive("db/pu/a", 10, VISIBILITY)).get(0).payload();
    await(q.send("db/pu/b", utf8("genuine")));
    await(rawQ.send("db/pu/b", sealed)); // moved from another queue: does not open here

    QueueBacklog b = await(q.inspect("db/pu/b", 10));
    assertThat(b.messages()).isEqualTo(2);
    assertThat(b.peeked()).hasSize(2);
    assertThat(b.peeked().get(0).payload()).isEqualTo(utf8("genuine"));
    assertThat(b.peeked().get(1).payload()).isEqualTo(sealed);
    assertThat(Encryption.of(keys).wrap(rawQ)).isInstanceOf(SupportsQueueInspection.class);
  }

  /**
   * Each queue ability is kept exactly when the wrapped queues have it, and a message handed back
   * through the wrapper comes back opened.
   */
  @Test
  void queueAbilitiesAreKeptExactlyAndHandingBackPassesThrough() {
    SimpleQueueService rawQ = cloud.services().simpleQueues();
    Encryption encryption = Encryption.of(keys);
    List<Class<? extends SimpleQueueService>> kinds =
        List.of(
            SimpleQueueService.class,
            SupportsQueueInspection.class,
            SupportsVisibilityChange.class);
    for (Class<? extends SimpleQueueService> kind : kinds) {
      SimpleQueueService wrapped = encryption.wrap(only(kind, rawQ));
      assertThat(wrapped instanceof SupportsQueueInspection)
          .as("inspection through %s", kind.getSimpleName())
          .isEqualTo(kind == SupportsQueueInspection.class);
      assertThat(wrapped instanceof SupportsVisibilityChange)
          .as("visibility change through %s", kind.getSimpleName())
          .isEqualTo(kind == SupportsVisibilityChange.class);
    }
    SimpleQueueService both = encrypted.simpleQueues();
    assertThat(both).isInstanceOf(SupportsQueueInspection.class);
    SupportsVisibilityChange q = SupportsVisibilityChange.of(both);
    assertThat(q).isNotNull();
    await(q.createQueue("db/back"));
    await(q.send("db/back", utf8("handed back")));
    QueueMessage first = await(q.receive("db/back", 10, VISIBILITY)).get(0);
    await(q.changeVisibility("db/back", first.receiptHandle(), Duration.ZERO));
    List<QueueMessage> again = await(q.receive("db/back", 10, VISIBILITY));
    assertThat(again).hasSize(1);
    assertThat(again.get(0).payload()).isEqualTo(utf8("handed back"));
    await(q.changeVisibilityBatch("db/back", List.of(again.get(0).receiptHandle()), Duration.ZERO));
    assertThat(await(q.receive("db/back", 10, VISIBILITY))).hasSize(1);
  }

  /** {@code queues} seen through {@code kind} only (a proxy that implements nothing else). */
  private static SimpleQueueService only(
      Class<? extends SimpleQueueService> kind, SimpleQueueService queues) {
    return kind.cast(
        Proxy.newProxyInstance(
            kind.getClassLoader(),
            new Class<?>[] {kind},
            (proxy, m, args) -> {
              try {
                return m.invoke(queues, args);
              } catch (InvocationTargetException e) {
                throw e.getCause();
              }
            }));
  }

  @Test
  void aBatchSendsSealedMessagesThatOpen() {
    SimpleQueueService q = encrypted.simpleQueues();
    await(q.createQueue("db/q"));
    await(q.sendBatch("db/q", List.of(utf8("a"), utf8("b"))));
    List<QueueMessage> got = await(q.receive("db/q", 10, VISIBILITY));
    assertThat(got)
        .extracting(m -> new String(m.payload(), StandardCharsets.UTF_8))
        .containsExactlyInAnyOrder("a", "b");
  }

  @Test
  void anAdvancedMessageMovedOrRekeyedIsUnreadableAndKeepsItsPlace() {
    AdvancedQueueService q = encrypted.advancedQueues();
    AdvancedQueueService rawQ = cloud.services().advancedQueues();
    await(q.createQueue("db/si/log/a"));
    await(q.createQueue("db/si/log/b"));
    await(q.send("db/si/log/a", utf8("v1"), 7));
    byte[] sealed = await(rawQ.receiveAfterId("db/si/log/a", 10, 0)).get(0).payload();
    await(rawQ.send("db/si/log/b", sealed, 7)); // moved
    await(q.send("db/si/log/b", utf8("v2"), 8));
    await(rawQ.send("db/si/log/a", sealed, 9)); // same queue, another key

    List<AdvancedMessage> b = await(q.receiveAfterId("db/si/log/b", 10, 0));
    assertThat(b).extracting(AdvancedMessage::isReadable).containsExactly(false, true);
    assertThat(b.get(1).payload()).isEqualTo(utf8("v2"));
    List<AdvancedMessage> a = await(q.receiveByKey("db/si/log/a", 10, 0, 100));
    assertThat(a).extracting(AdvancedMessage::isReadable).containsExactly(true, false);
    assertThat(a.get(0).payload()).isEqualTo(utf8("v1"));
    assertThat(catchUnreadable(a.get(1)::payload).getMessage()).contains("message 2");
  }

  @Test
  void anItemIsNotAcceptedAsAMessageAtTheSameUri() {
    await(storage().put("db/q", utf8("item"), Map.of()));
    byte[] sealed = await(raw.get("db/q")).orElseThrow().payload();
    SimpleQueueService rawQ = cloud.services().simpleQueues();
    await(rawQ.createQueue("db/q"));
    await(rawQ.send("db/q", sealed));
    assertThat(await(encrypted.simpleQueues().receive("db/q", 1, VISIBILITY)).get(0).isReadable())
        .isFalse();
  }

  @Test
  void rotationWritesWithTheNewKeyAndStillReadsTheOld(@Seed long seed) {
    await(storage().put("db/old", utf8("written under k1"), Map.of()));
    keys.add("k2", seed + 1).activate("k2");
    await(storage().put("db/new", utf8("written under k2"), Map.of()));

    assertThat(keyIdOf(await(raw.get("db/old")).orElseThrow().payload())).isEqualTo("k1");
    assertThat(keyIdOf(await(raw.get("db/new")).orElseThrow().payload())).isEqualTo("k2");
    assertThat(await(storage().get("db/old")).orElseThrow().payload())
        .isEqualTo(utf8("written under k1"));
    assertThat(await(storage().get("db/new")).orElseThrow().payload())
        .isEqualTo(utf8("written under k2"));
  }

  @Test
  void keysChosenPerPrefixAreUsedForWriting(@Seed long seed) {
    keys.add("orders-key", seed + 2).activateFor("db/c/orders/", "orders-key");
    await(storage().put("db/c/orders/p1", utf8("o"), Map.of()));
    await(storage().put("db/catalog", utf8("c"), Map.of()));
    assertThat(keyIdOf(await(raw.get("db/c/orders/p1")).orElseThrow().payload()))
        .isEqualTo("orders-key");
    assertThat(keyIdOf(await(raw.get("db/catalog")).orElseThrow().payload())).isEqualTo("k1");
  }

  @Test
  void anUnknownKeyIdIsNamedAndNoKeyMaterialIsShown(@Seed long seed) {
    keys.add("k2", seed + 1).activate("k2");
    await(storage().put("db/a", utf8("x"), Map.of()));
    byte[] material = keys.key("k2").orElseThrow().getEncoded();
    keys.forget("k2");

    UnreadablePayloadException e = failure(storage().get("db/a"));
    assertThat(e.getMessage()).contains("\"k2\"").contains("not in the keyring");
    String hex = HexFormat.of().formatHex(material);
    assertThat(e.getMessage().toLowerCase()).doesNotContain(hex);
    assertThat(Encryption.of(keys).toString()).doesNotContain(hex).contains("k1");
  }

  @Test
  void anOversizedPayloadIsRefusedWithTheReducedLimitAndNothingIsWritten() {
    long max = storage().limits().maxObjectSize();
    assertThat(max).isEqualTo(raw.limits().maxObjectSize() - Encryption.OVERHEAD);
    assertThat(encrypted.simpleQueues().limits().maxMessageSize())
        .isEqualTo(cloud.services().simpleQueues().limits().maxMessageSize() - Encryption.OVERHEAD);
    assertThat(Encryption.isValidKeyId("a".repeat(Encryption.MAX_KEY_ID_LENGTH))).isTrue();
    assertThat(Encryption.isValidKeyId("a".repeat(Encryption.MAX_KEY_ID_LENGTH + 1))).isFalse();
    assertThat(Encryption.isValidKeyId("k 1")).isFalse();
    assertThatThrownBy(
            () ->
                Encryption.reduce(
                    io.stratus.cloudapi.CloudLimits.builder()
                        .maxMessageSize(Encryption.OVERHEAD)
                        .build()))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("maxMessageSize");
  }

  @Test
  void otherServicesPassThroughUnchanged() {
    assertThat(encrypted.locks()).isSameAs(cloud.services().locks());
    assertThat(encrypted.counters()).isSameAs(cloud.services().counters());
  }

  private static String keyIdOf(byte[] sealed) {
    return new String(sealed, 2, sealed[1], StandardCharsets.US_ASCII);
  }

  private static byte[] utf8(String s) {
    return s.getBytes(StandardCharsets.UTF_8);
  }

  private static <T> T await(java.util.concurrent.CompletableFuture<T> f) {
    return CloudFutures.await(f);
  }

  private static UnreadablePayloadException failure(java.util.concurrent.CompletableFuture<?> f) {
    Throwable t = catchThrowable(() -> CloudFutures.await(f));
    assertThat(t).isInstanceOf(UnreadablePayloadException.class);
    return (UnreadablePayloadException) t;
  }

  private static UnreadablePayloadException catchUnreadable(
      org.assertj.core.api.ThrowableAssert.ThrowingCallable r) {
    Throwable t = catchThrowable(r);
    assertThat(t).isInstanceOf(UnreadablePayloadException.class);
    return (UnreadablePayloadException) t;
  }
}
