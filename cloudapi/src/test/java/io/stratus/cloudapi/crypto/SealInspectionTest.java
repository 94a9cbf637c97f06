package io.stratus.cloudapi.crypto;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.stratus.cloudapi.CloudFutures;
import io.stratus.cloudapi.StorageService;
import io.stratus.cloudapi.SupportsConditionalPut;
import io.stratus.cloudapi.UnreadablePayloadException;
import io.stratus.cloudapi.decorate.Decorators;
import io.stratus.cloudapi.inprocess.InProcessCloud;
import io.stratus.cloudapi.testing.Seed;
import io.stratus.cloudapi.testing.SeedExtension;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * What the seal inspection of the storage wrappers shows: the key id of a stored item without
 * opening it, the key a put would use now, the item opened on demand, and the version a
 * conditional re-seal must name.
 */
@ExtendWith(SeedExtension.class)
class SealInspectionTest {

  @ParameterizedTest
  @ValueSource(booleans = {true, false})
  void everyEncryptedStorageShowsItsSealsWithOrWithoutConditionalPuts(
      boolean conditional, @Seed long seed) {
    try (InProcessCloud cloud =
        InProcessCloud.builder().seed(seed).conditionalPut(conditional).build()) {
      StorageService s = encryption(new TestKeys("k1", seed)).wrap(cloud.services().storage());
      assertThat(SupportsSealInspection.of(s)).isNotNull();
      assertThat(s instanceof SupportsConditionalPut).isEqualTo(conditional);
      assertThat(SupportsSealInspection.of(cloud.services().storage())).isNull();
      assertThat(SupportsSealInspection.of(Decorators.wrap(s))).isNull();
    }
  }

  @Test
  void anItemSealedUnderAnOldKeyIsRecognisedAndResealedConditionally(@Seed long seed) {
    try (InProcessCloud cloud = InProcessCloud.builder().seed(seed).build()) {
      TestKeys keys = new TestKeys("k1", seed);
      SupportsConditionalPut storage =
          (SupportsConditionalPut) encryption(keys).wrap(cloud.services().storage());
      SupportsSealInspection seals = SupportsSealInspection.of(storage);
      await(storage.put("db/a", utf8("payload"), Map.of("m", "v")));
      keys.add("k2", seed + 1).activate("k2");

      SealedItem old = await(seals.getSealed("db/a")).orElseThrow();
      assertThat(old.keyId()).contains("k1");
      assertThat(seals.activeKeyId("db/a")).isEqualTo("k2");
      assertThat(old.metadata()).isEqualTo(Map.of("m", "v"));
      assertThat(old.storedSize()).isEqualTo(7 + Encryption.OVERHEAD);
      assertThat(old.toString()).contains("k1").doesNotContain("payload");
      assertThat(old.open().payload()).isEqualTo(utf8("payload"));

      await(
          storage.putIfVersionMatches("db/a", old.open().payload(), old.metadata(), old.version()));
      SealedItem now = await(seals.getSealed("db/a")).orElseThrow();
      assertThat(now.keyId()).contains("k2");
      assertThat(now.version()).isNotEqualTo(old.version());
      assertThat(
              Encryption.keyIdOf(
                  await(cloud.services().storage().get("db/a")).orElseThrow().payload()))
          .contains("k2");
      assertThat(await(storage.get("db/a")).orElseThrow().payload()).isEqualTo(utf8("payload"));
      assertThat(await(seals.getSealed("db/none"))).isEmpty();
    }
  }

  @Test
  void bytesThatAreNoSealedPayloadHaveNoKeyIdAndDoNotOpen(@Seed long seed) {
    try (InProcessCloud cloud = InProcessCloud.builder().seed(seed).build()) {
      TestKeys keys = new TestKeys("k1", seed);
      SupportsSealInspection seals =
          SupportsSealInspection.of(encryption(keys).wrap(cloud.services().storage()));
      StorageService raw = cloud.services().storage();
      await(raw.put("db/plain", utf8("written without encryption"), Map.of()));
      byte[] longPlain = new byte[Encryption.OVERHEAD + 10];
      longPlain[0] = 7; // not the format byte
      await(raw.put("db/format", longPlain, Map.of()));

      for (String uri : new String[] {"db/plain", "db/format"}) {
        SealedItem item = await(seals.getSealed(uri)).orElseThrow();
        assertThat(item.keyId()).as(uri).isEmpty();
        assertThatThrownBy(item::open).isInstanceOf(UnreadablePayloadException.class);
      }
      assertThat(Encryption.keyIdOf(new byte[3])).isEmpty();
    }
  }

  @Test
  void aKeyNoLongerHeldIsStillNamedButTheItemDoesNotOpen(@Seed long seed) {
    try (InProcessCloud cloud = InProcessCloud.builder().seed(seed).build()) {
      TestKeys keys = new TestKeys("k1", seed);
      StorageService storage = encryption(keys).wrap(cloud.services().storage());
      await(storage.put("db/a", utf8("payload"), Map.of()));
      keys.add("k2", seed + 1).activate("k2").forget("k1");

      SealedItem item = await(SupportsSealInspection.of(storage).getSealed("db/a")).orElseThrow();
      assertThat(item.keyId()).contains("k1");
      assertThatThrownBy(item::open)
          .isInstanceOf(UnreadablePayloadException.class)
          .hasMessageContaining("\"k1\"")
          .hasMessageContaining("not in the keyring");
    }
  }

  private static Encryption encryption(TestKeys keys) {
    return Encryption.builder(keys).nonceSource(new Random(7)).build();
  }

  private static byte[] utf8(String s) {
    return s.getBytes(StandardCharsets.UTF_8);
  }

  private static <T> T await(java.util.concurrent.CompletableFuture<T> f) {
    return CloudFutures.await(f);
  }
}
