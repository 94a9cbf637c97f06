/**
 * What every layer of Stratus shares with its users: the reports operator calls return ({@link
 * io.stratus.CheckpointSummary}, {@link io.stratus.RecoverySummary}, {@link
 * io.stratus.BufferPoolStats}), and the exceptions, in one package with one root, {@link io.stratus.StratusException}:
 * each says whether running the work again is safe ({@link
 * io.stratus.StratusException#isRetryable()}) or whether the outcome is unknown ({@link
 * io.stratus.StratusException#isOutcomeUnknown()}). Every layer (page manager, B-link trees,
 * protocols, record manager) throws these, and the record manager translates failures of the
 * cloud services into {@link io.stratus.CloudServiceException} (the service's exception as the
 * cause), so one catch covers every failure of a database call.
 */
package io.stratus;
