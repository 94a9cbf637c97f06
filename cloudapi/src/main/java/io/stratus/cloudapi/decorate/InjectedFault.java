package io.stratus.cloudapi.decorate;

import io.stratus.cloudapi.Operation;

/**
 * One fault a {@link FaultInterceptor} injected, for assertions and debugging.
 *
 * @param ordinal the call's 1-based number among the calls of {@code operation} on {@code target}
 *     that reached the interceptor
 */
public record InjectedFault(Operation operation, String target, long ordinal, FaultKind kind) {}
