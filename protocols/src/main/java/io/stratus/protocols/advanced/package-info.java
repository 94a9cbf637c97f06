/**
 * Advanced atomicity (paper 000, section 5.3, Algorithms 5 and 6): shared, keyed ATOMIC and ATOMIC
 * COMMIT advanced queues, from which any client recovers a crashed client's transaction by its
 * key.
 */
package io.stratus.protocols.advanced;
