package io.stratus.bench.tpcw.harness;

import static org.assertj.core.api.Assertions.assertThat;

import io.stratus.bench.tpcw.bookstore.BookstoreSchema;
import io.stratus.bench.tpcw.bookstore.DataGenerator;
import io.stratus.bench.tpcw.bookstore.LoadReport;
import io.stratus.bench.tpcw.bookstore.Scale;
import io.stratus.bench.tpcw.bookstore.StratusBookstore;
import io.stratus.cloudapi.CloudServices;
import io.stratus.cloudapi.inprocess.InProcessCloud;
import io.stratus.core.Database;
import io.stratus.core.DatabaseConfig;
import io.stratus.core.KeyRange;
import io.stratus.core.Transaction;
import io.stratus.protocols.ProtocolKind;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * Runs of the queue protocols get a copy of one loaded bookstore, switched to their protocol:
 * the bookstore is loaded once, and every copy holds all of it and works under its protocol.
 */
class LoadTemplatesTest {
  private static final Scale SCALE = new Scale(100, 1, 20);

  @Test
  void theQueueProtocolsShareOneLoadAndEachCopyWorksUnderItsOwnProtocol() {
    List<ProtocolKind> loadedFor = new ArrayList<>();
    try (LoadTemplates templates = new LoadTemplates()) {
      for (ProtocolKind protocol :
          List.of(ProtocolKind.NAIVE, ProtocolKind.BASIC, ProtocolKind.ADVANCED_ATOMIC)) {
        RunSettings s = settings(protocol);
        assertThat(LoadTemplates.applies(CloudTarget.inProcess(), s)).isTrue();
        InProcessCloud cloud = InProcessCloud.builder().seed(7).build();
        LoadTemplates.Copy copy =
            templates.copyInto(
                cloud.services(),
                s,
                (raw, settings) -> {
                  loadedFor.add(settings.protocol());
                  return load(raw, settings);
                });
        assertThat(copy.loadedFor()).isEqualTo(ProtocolKind.NAIVE);
        assertThat(copy.loadedNow()).isEqualTo(protocol == ProtocolKind.NAIVE);
        assertThat(copy.load().totalRows()).isEqualTo(SCALE.totalRows());
        try (Database db = Database.open(config(cloud.services(), protocol))) {
          BookstoreSchema.install(db);
          assertThat(count(db, BookstoreSchema.ITEM)).isEqualTo(SCALE.items());
          assertThat(count(db, BookstoreSchema.CUSTOMER)).isEqualTo(SCALE.customers());
          assertThat(new StratusBookstore(db, SCALE, Clock.systemUTC(), 7).auditStock().clean())
              .as("the loaded stock is there under " + protocol)
              .isTrue();
        }
      }
      templates.retainOnly(Set.of());
      templates.copyInto(
          InProcessCloud.builder().seed(7).build().services(),
          settings(ProtocolKind.BASIC),
          (raw, settings) -> {
            loadedFor.add(settings.protocol());
            return load(raw, settings);
          });
    }
    assertThat(loadedFor)
        .as("loaded once, and again after the template was dropped")
        .containsExactly(ProtocolKind.NAIVE, ProtocolKind.BASIC);
  }

  @Test
  void theIsolatingProtocolsAndRealCloudsLoadTheirOwn() {
    assertThat(
            LoadTemplates.applies(
                CloudTarget.inProcess(), settings(ProtocolKind.SNAPSHOT_ISOLATION)))
        .isFalse();
    assertThat(
            LoadTemplates.applies(
                CloudTarget.inProcess(), settings(ProtocolKind.TWO_PHASE_LOCKING)))
        .isFalse();
  }

  private static RunSettings settings(ProtocolKind protocol) {
    RunSettings d = Defaults.settings(protocol);
    return RunSettings.builder()
        .protocol(protocol)
        .cloud(d.cloud())
        .placement(d.placement())
        .latencyProfile("none")
        .pageSize(8192)
        .ttl(d.ttl())
        .checkpointInterval(d.checkpointInterval())
        .ebs(1)
        .mix(d.mix())
        .items((int) SCALE.items())
        .customersPerEb(20)
        .warmUp(Duration.ZERO)
        .measure(d.measure())
        .thinkTimeMean(Duration.ZERO)
        .endUserRoundTrip(Duration.ZERO)
        .seed(7)
        .build();
  }

  private static DatabaseConfig config(CloudServices services, ProtocolKind protocol) {
    return BookstoreSchema.configure(DatabaseConfig.builder(services, LoadTemplates.DATABASE_URI))
        .protocol(protocol)
        .pageSize(8192)
        .build();
  }

  private static LoadSummary load(CloudServices raw, RunSettings s) {
    try (Database db = Database.open(config(raw, s.protocol()))) {
      LoadReport r = new DataGenerator(db, SCALE, s.seed(), Clock.systemUTC()).load();
      return new LoadSummary(r.rowsPerTable(), r.elapsed(), Duration.ZERO, 0, 0, 0, 0);
    }
  }

  private static long count(Database db, String table) {
    long n = 0;
    try (Transaction tx = db.begin();
        var c = tx.scan(table, KeyRange.all())) {
      while (c.hasNext()) {
        c.next();
        n++;
      }
    }
    return n;
  }
}
