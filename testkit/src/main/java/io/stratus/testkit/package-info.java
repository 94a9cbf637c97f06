/**
 * Test support for the commit protocols: recorded transaction histories and checkers of the
 * guarantees each protocol gives (papers 000 sections 4-5 and 001 section 5.2).
 *
 * <p>A protocol test records what its clients did with a {@link io.stratus.testkit.HistoryRecorder}
 * (one shared by all test threads): each transaction's reads with the value observed, its writes
 * (every written value unique, e.g. "client/tx/key") and deletes, and its outcome — OK when commit
 * returned, FAILED when the protocol guarantees nothing was applied, UNKNOWN otherwise. After the
 * system is quiescent (checkpoints drained), it records each client's view of every key touched,
 * then checks the snapshot against the protocol's profile:
 *
 * <pre>{@code
 * HistoryRecorder rec = new HistoryRecorder();             // shared by every client thread
 * HistoryRecorder.Recording t = rec.begin(clientId);
 * try (Transaction tx = db.begin()) {
 *   t.read("42", tx.read("items", Key.of(42L)).map(String::new).orElse(null));
 *   String v = clientId + "/" + t.txId() + "/42";            // unique in the history
 *   tx.update("items", Key.of(42L), v.getBytes());
 *   t.write("42", v);
 *   tx.commit();
 *   t.ok();
 * } catch (CommitFailedException e) {                       // nothing became visible
 *   t.failed();
 * } catch (RuntimeException e) {                            // CommitStateUnknownException, ...
 *   t.unknown();
 * }
 * // ... all threads done, db.checkpointAll() on every client, caches expired ...
 * rec.finalState(clientId, viewOfEveryKeyTouched);          // key -> value; missing = absent
 * rec.snapshot().check(Guarantees.forProtocol("basic")).assertValid();
 * }</pre>
 *
 * <p>Checkers take the order in which writes of a key took effect from a {@link
 * io.stratus.testkit.WriteOrder}: completion order by default, the protocol's commit time when
 * the test records it (needed when commits of one key overlap), or an explicit order. They report
 * only what the history proves; ambiguity (absence, UNKNOWN writes) is resolved in the system's
 * favour.
 */
package io.stratus.testkit;
