/**
 * Test support for the commit protocols: recorded transaction histories and checkers of the
 * guarantees each protocol gives.
 */
package io.stratus.testkit;
