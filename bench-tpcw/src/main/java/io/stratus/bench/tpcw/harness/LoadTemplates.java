package io.stratus.bench.tpcw.harness;

import io.stratus.bench.tpcw.bookstore.BookstoreSchema;
import io.stratus.cloudapi.CloudServices;
import io.stratus.cloudapi.ItemSummary;
import io.stratus.cloudapi.StoredItem;
import io.stratus.cloudapi.inprocess.InProcessCloud;
import io.stratus.core.DatabaseAdmin;
import io.stratus.core.DatabaseConfig;
import io.stratus.protocols.ProtocolKind;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.function.BiFunction;

/**
 * Loaded bookstores kept, on the in-process cloud, to be copied into later runs instead of loading
 * the same bookstore again: the load takes several seconds, as long as a fifth of a run, and the
 * bulk load writes the same pages whatever the protocol. A run whose protocol is one of the queue
 * protocols (naive, basic, monotonic, atomic, advanced atomic) gets a copy of the pages loaded
 * for the first run of the plan with the same bookstore (items, browsers, customers, seed, page
 * size) and latency profile, switched to its own protocol ({@link DatabaseAdmin#switchProtocol});
 * its load figures are that load's. The isolating protocols keep protocol state in their pages and
 * load their own.
 *
 * <p>Copies are made on the undecorated services: they are no part of any run, cost nothing and
 * take no simulated time. Not thread-safe: one plan runs its runs one after another.
 */
final class LoadTemplates implements AutoCloseable {
  /** What decides a bookstore's pages and its load's figures. */
  record Key(int items, int totalEbs, int customersPerEb, long seed, int pageSize, String profile) {
    static Key of(RunSettings s) {
      return new Key(
          s.items(), s.totalEbs(), s.customersPerEb(), s.seed(), s.pageSize(), s.latencyProfile());
    }
  }

  /** The database every copied run uses: pages name their children by their full URI. */
  static final String DATABASE_URI = "tpcw/bookstore";

  private record Template(InProcessCloud cloud, ProtocolKind protocol, LoadSummary load) {}

  /**
   * What a run got.
   *
   * @param load the template's load
   * @param loadedFor the protocol the template was loaded for
   * @param loadedNow whether the template was loaded for this run
   */
  record Copy(LoadSummary load, ProtocolKind loadedFor, boolean loadedNow) {}

  private final Map<Key, Template> templates = new HashMap<>();

  /** Whether runs of {@code s} on {@code target} are copied from a template. */
  static boolean applies(CloudTarget target, RunSettings s) {
    return target.kind() == CloudTarget.Kind.IN_PROCESS
        && s.index() == IndexChoice.BTREE
        && s.protocol().switchableTo(ProtocolKind.NAIVE);
  }

  /**
   * Copies the bookstore of {@code s} into {@code into} (the raw services of a fresh in-process
   * cloud), loading the template first if there is none yet.
   *
   * @param load loads a bookstore for {@code s} into the given raw services on the database
   *     {@link #DATABASE_URI} and returns what it took and cost
   */
  Copy copyInto(
      CloudServices into, RunSettings s, BiFunction<CloudServices, RunSettings, LoadSummary> load) {
    Key key = Key.of(s);
    Template t = templates.get(key);
    boolean loadedNow = t == null;
    if (loadedNow) {
      InProcessCloud cloud = InProcessCloud.builder().seed(s.seed()).build();
      t = new Template(cloud, s.protocol(), load.apply(cloud.services(), s));
      templates.put(key, t);
    }
    copy(t.cloud().services(), into);
    if (t.protocol() != s.protocol()) {
      DatabaseConfig loadedFor =
          BookstoreSchema.configure(DatabaseConfig.builder(into, DATABASE_URI))
              .protocol(t.protocol())
              .pageSize(s.pageSize())
              .clientId("tpcw-switch")
              .build();
      DatabaseAdmin.switchProtocol(loadedFor, s.protocol());
    }
    return new Copy(t.load(), t.protocol(), loadedNow);
  }

  /** Drops the templates no run of {@code stillNeeded} uses. */
  void retainOnly(Set<Key> stillNeeded) {
    templates.entrySet().removeIf(e -> !stillNeeded.contains(e.getKey()));
  }

  @Override
  public void close() {
    templates.clear();
  }

  private static void copy(CloudServices from, CloudServices into) {
    List<ItemSummary> items = from.storage().listAll("").join();
    CompletableFuture<?>[] puts = new CompletableFuture<?>[items.size()];
    for (int i = 0; i < items.size(); i++) {
      Optional<StoredItem> item = from.storage().get(items.get(i).uri()).join();
      puts[i] =
          item.isEmpty()
              ? CompletableFuture.completedFuture(null)
              : into.storage().put(item.get().uri(), item.get().payload(), item.get().metadata());
    }
    CompletableFuture.allOf(puts).join();
  }
}
