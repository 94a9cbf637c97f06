package io.stratus.bench.tpcw.harness;

import java.util.List;

/**
 * The runs of one harness invocation: every protocol asked for, crossed with every value of at
 * most one other swept parameter (EBs, page size, TTL, checkpoint interval, ...). With no sweep the
 * parameter is "protocol" and there is one run per protocol. Charts put the swept value on the x
 * axis and draw one series per protocol.
 *
 * @param parameter the swept parameter, e.g. "ebs", or "protocol" when only protocols vary
 * @param runs one result per (protocol, value), in the order they ran; each run's {@link
 *     RunResult#label()} is its value of the swept parameter (the protocol's name when the
 *     parameter is "protocol")
 */
public record SweepResult(String parameter, List<RunResult> runs) {}
