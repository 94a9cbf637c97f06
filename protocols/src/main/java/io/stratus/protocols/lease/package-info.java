/**
 * Exclusive locks held for one lease: how a pass that must run alone among all clients takes its
 * lock, knows when its lease ends, and gives the lock back or lets it lapse. Internal to the
 * protocols module.
 */
package io.stratus.protocols.lease;
