/**
 * The exceptions of Stratus, in one package with one root, {@link io.stratus.StratusException}:
 * each says whether running the work again is safe ({@link
 * io.stratus.StratusException#isRetryable()}) or whether the outcome is unknown ({@link
 * io.stratus.CommitStateUnknownException}). Every layer (page manager, B-link trees, protocols,
 * record manager) throws these, so one catch covers them all.
 */
package io.stratus;
