/**
 * Commit protocols and checkpoints: naive, basic, monotonic, atomic; later advanced atomic, GSI and 2PL (paper 000, sections 4 and 5).
 */
package io.stratus.protocols;
