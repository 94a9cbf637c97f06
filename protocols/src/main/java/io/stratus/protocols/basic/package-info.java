/**
 * The basic and monotonic protocols as assemblies of the queue-commit engine: {@link
 * io.stratus.protocols.basic.BasicProtocol} (paper 000, section 4) and {@link
 * io.stratus.protocols.basic.MonotonicProtocol} (paper 001, section 5.2).
 */
package io.stratus.protocols.basic;
