/**
 * A JUnit 5 extension for an application's own tests: {@link io.stratus.junit.StratusTest} gives
 * each test an in-process database on a manual clock, seeded, with optional fault injection, and
 * closes it after the test; {@link io.stratus.junit.StratusTestContext} opens more handles on the
 * same cloud (other clients, restarted instances, other settings).
 */
package io.stratus.junit;
