package io.stratus.bench.tpcw.harness;

import io.stratus.bench.tpcw.bookstore.BookstoreSchema;
import io.stratus.bench.tpcw.rbe.InteractionAttribution;
import io.stratus.cloudapi.CloudServices;
import io.stratus.cloudapi.decorate.CallInterceptor;
import io.stratus.cloudapi.decorate.CloudMeter;
import io.stratus.cloudapi.decorate.Decorators;
import io.stratus.cloudapi.decorate.LatencyInterceptor;
import io.stratus.cloudapi.decorate.LatencyProfiles;
import io.stratus.cloudapi.decorate.MeteringInterceptor;
import io.stratus.cloudapi.time.SystemScheduler;
import io.stratus.core.Database;
import io.stratus.core.DatabaseConfig;
import io.stratus.protocols.ProtocolOption;
import io.stratus.protocols.log.PuQueues;
import java.util.ArrayList;
import java.util.List;

/**
 * One application server of a run: its database handle (own buffer pool, client id and background
 * checkpoints) over the run's services, decorated, outermost first, with its own interaction
 * attribution and lock-refusal count, the run's meter and the latency of the run's profile
 * (switched off for the drain: see {@link LatencySwitch}).
 */
record ClientHandle(
    Database db,
    InteractionAttribution attribution,
    LockRefusals refusals,
    LatencySwitch latency,
    AppliedRecords records) {

  /** The database of the run {@code runId}: each run has its own. */
  static String databaseUri(String runId) {
    return "tpcw/" + runId;
  }

  /**
   * Opens client {@code k} of the run {@code runId} (k &lt; 0: the audit's handle) on the database
   * {@code databaseUri} over the raw services of {@code target}, metering into {@code meter}.
   */
  static ClientHandle open(
      CloudTarget target,
      CloudServices raw,
      String databaseUri,
      int k,
      String runId,
      RunSettings s,
      CloudMeter meter,
      SystemScheduler scheduler) {
    InteractionAttribution attribution = new InteractionAttribution();
    LockRefusals refusals = new LockRefusals();
    AppliedRecords records = new AppliedRecords(new PuQueues(databaseUri).prefix(), attribution);
    List<CallInterceptor> interceptors =
        new ArrayList<>(List.of(attribution, refusals, records, new MeteringInterceptor(meter)));
    LatencySwitch latency =
        new LatencySwitch(
            modelsLatency(target, s)
                ? new LatencyInterceptor(LatencyProfiles.byName(s.latencyProfile()), scheduler)
                : null);
    interceptors.add(latency);
    CloudServices services =
        Decorators.wrap(s.index().services(raw), interceptors.toArray(new CallInterceptor[0]));
    DatabaseConfig.Builder builder =
        BookstoreSchema.configure(DatabaseConfig.builder(services, databaseUri))
            .protocol(s.protocol())
            .pageSize(s.pageSize())
            .ttl(s.ttl())
            .clientId("tpcw-" + runId + (k == 0 ? "" : k < 0 ? "-audit" : "-c" + k));
    if (s.protocol().accepts(ProtocolOption.CHECKPOINTS)) {
      builder.checkpointInterval(s.checkpointInterval()).checkpointSeed(s.seed() + k);
    }
    return new ClientHandle(
        Database.open(builder.build()), attribution, refusals, latency, records);
  }

  /**
   * Whether the handle adds the modelled latency of the run's profile: on the in-process cloud,
   * which has none of its own, and in each client process, where the profile's waits are added to
   * the shared cloud's own, in every process at once as on the papers' separate servers.
   */
  static boolean modelsLatency(CloudTarget target, RunSettings s) {
    return (target.simulatesLatency() || s.clientPlacement() == ClientPlacement.PROCESS)
        && !s.latencyProfile().equals("none")
        && !s.latencyProfile().equals("real");
  }

  /** Closes every handle of {@code clients}, the last first; the first failure is thrown. */
  static void closeAll(List<ClientHandle> clients) {
    RuntimeException failure = null;
    for (int k = clients.size() - 1; k >= 0; k--) {
      try {
        clients.get(k).db().close();
      } catch (RuntimeException e) {
        if (failure == null) {
          failure = e;
        } else {
          failure.addSuppressed(e);
        }
      }
    }
    if (failure != null) {
      throw failure;
    }
  }
}
